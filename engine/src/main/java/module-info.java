/**
 * The Lookout engine: a DNS forwarding resolver, gdnsd-style weighted pools with health monitors,
 * and EPICS PVAccess name resolution, behind one {@link lookout.engine.api.Engine} facade made by
 * the composition root {@link lookout.engine.boot.Engines}. No JavaFX here: the console and the
 * headless launcher both sit on top of this module. {@code lookout.engine.testing} holds the
 * virtual clock that tests of the engine and of its users drive.
 */
module lookout.engine {
    requires io.netty.common;
    requires io.netty.buffer;
    requires io.netty.transport;
    requires io.netty.transport.unix.common;
    requires io.netty.transport.classes.epoll;
    requires io.netty.codec;
    requires io.netty.codec.http;
    requires io.netty.handler;

    // the configuration's cross-section checks belong to the services (ConfigChecks finds them)
    uses lookout.engine.config.ConfigCheck;
    provides lookout.engine.config.ConfigCheck with lookout.engine.dns.zone.ZoneCheck;

    exports lookout.engine.api;
    exports lookout.engine.boot;
    exports lookout.engine.testing;
    exports lookout.engine.config;
    exports lookout.engine.config.vscf;
}
