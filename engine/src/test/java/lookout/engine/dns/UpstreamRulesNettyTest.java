package lookout.engine.dns;

import lookout.engine.api.EngineOptions;

/**
 * {@link UpstreamRulesTest}'s seed 000 rules with every UDP socket through Netty
 * ({@link EngineOptions.UdpReads#NETTY}: the upstream transactions on a Netty channel each, the
 * path taken where the engine's native library or epoll is unavailable).
 */
class UpstreamRulesNettyTest extends UpstreamRulesTest {

    @Override
    EngineOptions.UdpReads udpIo() {
        return EngineOptions.UdpReads.NETTY;
    }
}
