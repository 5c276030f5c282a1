package lookout.engine.api;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How an engine is built, as opposed to what it runs ({@link lookout.engine.config.Config}): the
 * clock, randomness, environment and the I/O choices a launcher makes from its flags. This is the
 * one place where the engine's process-wide settings live; nothing else in the engine reads a
 * system property (the launcher maps {@code --transport} and {@code --udp-reads} onto these fields,
 * tests set them per engine).
 *
 * @param scheduler        the clock and timers; null for a real event loop
 * @param random           every random choice (weighted draws, DNS IDs, GUIDs); null for a secure source
 * @param environment      where {@code EPICS_PVA_*} variables are read
 * @param stateDirOverride when set, replaces {@code state_dir} (tests point it at a temp folder)
 * @param transport        which Netty transport the engine's sockets use
 * @param udpReads         how the resolver's UDP listeners (and, {@code NETTY} or not, the PVA server's
 *                         unicast sockets) are read
 * @param leakDetection    Netty's buffer leak detector: off (the service default: it records a stack
 *                         trace for one buffer in 128) or left as Netty's own settings say (tests)
 * @param pvaForwarding    whether the PVA server forwards unicast searches over loopback multicast
 *                         (seed 002 §5); off in tests that run outside a private network namespace,
 *                         where joining a group on loopback would reach the host
 * @param ipv6             whether the host's IPv6 addresses are used (false when the JVM runs IPv4-only)
 */
public record EngineOptions(Scheduler scheduler, RandomGenerator random, Map<String, String> environment,
                            Path stateDirOverride, TransportChoice transport, UdpReads udpReads,
                            LeakDetection leakDetection, boolean pvaForwarding, boolean ipv6) {

    /** Which Netty transport the engine's loops and sockets use. */
    public enum TransportChoice {
        /** Linux's native epoll where Netty's native library loads, NIO elsewhere (the default). */
        AUTO,
        /** epoll, or the engine does not start (and says why). */
        EPOLL,
        /** Java NIO everywhere (for comparison, or where native libraries must not be unpacked). */
        NIO;

        /** Parses a launcher flag value ({@code auto}, {@code epoll}, {@code nio}). */
        public static TransportChoice parse(String s) {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        }
    }

    /** How the resolver's UDP listeners read their datagrams. */
    public enum UdpReads {
        /**
         * Natively (a reader thread per socket in {@code recvmmsg}) from two sockets per address up or
         * on a wildcard address, where the native library loads; one socket on a specific address is
         * read on the engine loop (the default).
         */
        AUTO,
        /**
         * Through Netty on its event loops, always; the resolver's upstream transactions then take
         * a Netty channel each too, rather than the engine's native sockets.
         */
        NETTY,
        /** Natively, always; the engine does not start where it cannot. */
        NATIVE;

        /** Parses a launcher flag value ({@code auto}, {@code netty}, {@code native}). */
        public static UdpReads parse(String s) {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        }
    }

    /** Netty's buffer leak detector. */
    public enum LeakDetection {
        /** Off: production, where sampling costs a stack trace per sampled buffer. */
        OFF,
        /** As Netty's own {@code io.netty.leakDetection.level} says (the test runs set it). */
        AS_CONFIGURED
    }

    public EngineOptions {
        environment = environment == null ? Map.of() : Map.copyOf(environment);
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(udpReads, "udpReads");
        Objects.requireNonNull(leakDetection, "leakDetection");
    }

    /** Real time, secure randomness, the process environment, the default I/O choices. */
    public static EngineOptions defaults() {
        return new EngineOptions(null, null, System.getenv(), null, TransportChoice.AUTO, UdpReads.AUTO,
                LeakDetection.OFF, true, jvmUsesIpv6());
    }

    /**
     * Virtual time and a seeded random source, no environment: what tests use. Netty's leak
     * detector stays as the test run configures it; forwarding is on (tests outside a private
     * network namespace turn it off with {@link #withPvaForwarding}).
     */
    public static EngineOptions forTest(Scheduler scheduler, RandomGenerator random, Path stateDir) {
        return new EngineOptions(scheduler, random, Map.of(), stateDir, TransportChoice.AUTO, UdpReads.AUTO,
                LeakDetection.AS_CONFIGURED, true, jvmUsesIpv6());
    }

    public EngineOptions withScheduler(Scheduler s) {
        return new EngineOptions(s, random, environment, stateDirOverride, transport, udpReads, leakDetection,
                pvaForwarding, ipv6);
    }

    public EngineOptions withRandom(RandomGenerator r) {
        return new EngineOptions(scheduler, r, environment, stateDirOverride, transport, udpReads, leakDetection,
                pvaForwarding, ipv6);
    }

    public EngineOptions withEnvironment(Map<String, String> env) {
        return new EngineOptions(scheduler, random, env, stateDirOverride, transport, udpReads, leakDetection,
                pvaForwarding, ipv6);
    }

    public EngineOptions withStateDir(Path dir) {
        return new EngineOptions(scheduler, random, environment, dir, transport, udpReads, leakDetection,
                pvaForwarding, ipv6);
    }

    public EngineOptions withTransport(TransportChoice t) {
        return new EngineOptions(scheduler, random, environment, stateDirOverride, t, udpReads, leakDetection,
                pvaForwarding, ipv6);
    }

    public EngineOptions withUdpReads(UdpReads u) {
        return new EngineOptions(scheduler, random, environment, stateDirOverride, transport, u, leakDetection,
                pvaForwarding, ipv6);
    }

    public EngineOptions withLeakDetection(LeakDetection l) {
        return new EngineOptions(scheduler, random, environment, stateDirOverride, transport, udpReads, l,
                pvaForwarding, ipv6);
    }

    public EngineOptions withPvaForwarding(boolean on) {
        return new EngineOptions(scheduler, random, environment, stateDirOverride, transport, udpReads, leakDetection,
                on, ipv6);
    }

    public EngineOptions withIpv6(boolean on) {
        return new EngineOptions(scheduler, random, environment, stateDirOverride, transport, udpReads, leakDetection,
                pvaForwarding, on);
    }

    /** False when the JVM was started IPv4-only ({@code -Djava.net.preferIPv4Stack=true}). */
    private static boolean jvmUsesIpv6() {
        return !Boolean.getBoolean("java.net.preferIPv4Stack");
    }

    /** The user's home directory (for {@code ~} in configuration paths) when the environment has no HOME. */
    public static String userHome() {
        return System.getProperty("user.home", ".");
    }
}
