package lookout.engine.dns.answer;

/**
 * Where the answer to one client question goes: a UDP client (through the listener that read the
 * question), a TCP connection, or the console's resolve box. Called exactly once per question,
 * on the engine loop, with the response stamped for that client.
 */
@FunctionalInterface
public interface Reply {

    /** Sends {@code response}, a whole DNS message; the bytes are the receiver's from now on. */
    void send(byte[] response);
}
