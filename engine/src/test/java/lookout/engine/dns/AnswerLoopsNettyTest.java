package lookout.engine.dns;

/** {@link AnswerLoopsTest}'s tests with the listeners read through Netty ({@code -Dlookout.udp=netty}). */
class AnswerLoopsNettyTest extends AnswerLoopsTest {

    @Override
    String udpIo() {
        return "netty";
    }
}
