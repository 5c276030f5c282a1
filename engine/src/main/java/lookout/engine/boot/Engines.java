package lookout.engine.boot;

import java.util.List;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.core.DefaultEngine;
import lookout.engine.core.Service;
import lookout.engine.dns.ResolverService;
import lookout.engine.pva.client.PvaClientService;
import lookout.engine.pva.server.PvaServerService;
import lookout.engine.pva.udp.PortOwner;
import lookout.engine.status.StatusService;
import lookout.engine.status.pv.StatusPvService;
import lookout.engine.weighted.PoolsService;

/**
 * The composition root: the one place that knows which services make an engine and in which
 * order. Nothing below it names a service class; services meet through the seams of
 * {@code lookout.engine.seams}.
 */
public final class Engines {

    private Engines() {
    }

    /** A new engine, not yet started. */
    public static Engine create(EngineOptions options) {
        return new DefaultEngine(options, Engines::services);
    }

    /**
     * The services in start order, fresh for each start: pools before the resolver that answers
     * DYNA/DYNC from them; the owner of the PVA UDP ports before the PVA client and server that
     * both listen on them; the PVA client before the PVA server that vouches only for what the
     * client resolved; the status PVs before the PVA server that serves them; status last, serving
     * the others' snapshot. Stopped in reverse order.
     */
    static List<Service> services() {
        return List.of(new PoolsService(), new ResolverService(), new PortOwner(), new PvaClientService(),
                new StatusPvService(), new PvaServerService(), new StatusService());
    }
}
