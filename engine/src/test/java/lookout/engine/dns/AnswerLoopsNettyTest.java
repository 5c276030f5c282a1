package lookout.engine.dns;

import lookout.engine.api.EngineOptions;

/** {@link AnswerLoopsTest}'s tests with the listeners read through Netty ({@link EngineOptions.UdpReads#NETTY}). */
class AnswerLoopsNettyTest extends AnswerLoopsTest {

    @Override
    EngineOptions.UdpReads udpIo() {
        return EngineOptions.UdpReads.NETTY;
    }
}
