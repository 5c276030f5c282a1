package lookout.engine.dns;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.WireException;

/** A plain blocking DNS client for tests (real sockets, bounded timeouts). */
final class DnsTestClient implements AutoCloseable {

    private final DatagramSocket socket;
    private final InetSocketAddress server;

    DnsTestClient(InetSocketAddress server) throws IOException {
        this.server = server;
        this.socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        socket.setSoTimeout(10_000);
    }

    /** A query: RD, one question in class IN, an OPT record with {@code payload} when {@code edns}. */
    static byte[] query(int id, String name, int type, boolean edns, int payload) {
        return lookout.engine.dns.listen.Wire.query(id, name, type, edns, payload);
    }

    void send(byte[] q) throws IOException {
        socket.send(new DatagramPacket(q, q.length, server));
    }

    /** Receives one reply, or null after {@code timeoutMs}. */
    byte[] receive(int timeoutMs) throws IOException {
        socket.setSoTimeout(timeoutMs);
        byte[] buf = new byte[65535];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        try {
            socket.receive(p);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return java.util.Arrays.copyOf(buf, p.getLength());
    }

    Message ask(String name, int type) throws IOException, WireException {
        send(query(0x1234, name, type, true, 1232));
        byte[] r = receive(10_000);
        if (r == null) {
            throw new IOException("no answer for " + name);
        }
        return decode(r);
    }

    static Message decode(byte[] r) throws WireException {
        Message m = Message.decodeHeaderAndQuestion(r, r.length);
        Message.decodeRecords(r, r.length, m);
        return m;
    }

    static Message askTcp(InetSocketAddress server, byte[] q) throws IOException, WireException {
        try (Socket s = new Socket()) {
            s.connect(server, 5_000);
            s.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeShort(q.length);
            out.write(q);
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            int len = in.readUnsignedShort();
            return decode(in.readNBytes(len));
        }
    }

    @Override
    public void close() {
        socket.close();
    }
}
