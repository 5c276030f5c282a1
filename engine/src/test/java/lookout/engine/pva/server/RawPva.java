package lookout.engine.pva.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.Frame;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.PvaMessage;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.WireAddress;

/** A hand-driven PVA UDP peer for tests: sends datagrams, collects what comes back. */
final class RawPva implements AutoCloseable {

    final DatagramSocket socket;

    RawPva() throws Exception {
        socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
    }

    RawPva(InetSocketAddress bind) throws Exception {
        socket = new DatagramSocket(null);
        socket.setReuseAddress(true);
        socket.bind(bind);
    }

    int port() {
        return socket.getLocalPort();
    }

    static byte[] bytes(PvaMessage... messages) {
        ByteBuf b = Unpooled.buffer();
        for (PvaMessage m : messages) {
            PvaCodec.encode(m, b);
        }
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        b.release();
        return out;
    }

    static SearchRequest search(int seq, int flags, InetAddress reply, int port, String... names) {
        List<SearchRequest.Name> ns = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            ns.add(new SearchRequest.Name(100 + i, names[i]));
        }
        return new SearchRequest(seq, flags, reply == null ? WireAddress.ANY_ZERO : reply, port, List.of("tcp"), ns);
    }

    void send(byte[] data, InetSocketAddress to) throws Exception {
        socket.send(new DatagramPacket(data, data.length, to));
    }

    /** Replies received within {@code millis} (bounded wait on real I/O). */
    List<SearchResponse> replies(int millis) throws Exception {
        List<SearchResponse> out = new ArrayList<>();
        long end = System.nanoTime() + millis * 1_000_000L;
        byte[] buf = new byte[65536];
        while (System.nanoTime() < end) {
            socket.setSoTimeout(Math.max(1, (int) ((end - System.nanoTime()) / 1_000_000L)));
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                socket.receive(p);
            } catch (SocketTimeoutException e) {
                break;
            }
            DatagramContents c = PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(p.getData(), 0, p.getLength()));
            for (Frame f : c.frames()) {
                if (f.message() instanceof SearchResponse r) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** First reply, or null after {@code millis}. */
    SearchResponse reply(int millis) throws Exception {
        byte[] buf = new byte[65536];
        long end = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < end) {
            socket.setSoTimeout(Math.max(1, (int) ((end - System.nanoTime()) / 1_000_000L)));
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                socket.receive(p);
            } catch (SocketTimeoutException e) {
                return null;
            }
            DatagramContents c = PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(p.getData(), 0, p.getLength()));
            for (Frame f : c.frames()) {
                if (f.message() instanceof SearchResponse r) {
                    return r;
                }
            }
        }
        return null;
    }

    @Override
    public void close() {
        socket.close();
    }
}
