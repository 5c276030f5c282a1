package lookout.engine.dns.upstream;

import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import lookout.engine.net.NetError;
import lookout.engine.net.UdpExchanges;

/**
 * The upstream transactions' UDP sockets opened natively ({@link UdpExchanges}): still a fresh
 * connected socket per transaction (seed 000, SPEC §Resolver), but opened, sent on, read and
 * closed in one JNI call each, all of them watched through one descriptor on the engine loop;
 * the TCP retries after a truncated reply stay on Netty ({@link NettyUpstreamSockets}). Why this
 * and not a pool of sockets or a second thread: docs/adr/0005-upstream-sockets.md.
 */
public final class NativeUpstreamSockets implements UpstreamSockets, UdpExchanges.Receiver {

    /* Concurrency: udp() and the handles' close() run on the engine loop; the Receiver methods on
     * the loop that watches the exchanges — the engine loop itself with a real clock, the I/O loop
     * under a virtual one — and report to the transaction's Listener, which hops onto the engine
     * loop. UdpExchanges guards its own table. */

    /** Set once by {@link #open}, before any exchange is opened. */
    private UdpExchanges exchanges;
    private final NettyUpstreamSockets tcp;

    private NativeUpstreamSockets(NettyUpstreamSockets tcp) {
        this.tcp = tcp;
    }

    /** Why upstream UDP cannot be opened natively from {@code io}'s loop, or null when it can. */
    public static String unavailable(EventLoopGroup io) {
        return UdpExchanges.unavailable(io);
    }

    /** The native sockets, watched from {@code io}'s loop ({@link #unavailable} must have said yes). */
    public static NativeUpstreamSockets open(EventLoopGroup io) throws IOException {
        NativeUpstreamSockets s = new NativeUpstreamSockets(new NettyUpstreamSockets(io));
        s.exchanges = UdpExchanges.open(io.next(), s);
        return s;
    }

    /** One transaction's socket: its listener, its server, and its exchange's name (the handle). */
    private final class Exchange implements Handle {
        final Listener listener;
        final InetSocketAddress server;
        int id = -1;

        Exchange(Listener listener, InetSocketAddress server) {
            this.listener = listener;
            this.server = server;
        }

        @Override
        public void close() {
            if (id >= 0) {
                exchanges.close(id);
            }
        }
    }

    @Override
    public Handle udp(InetSocketAddress server, byte[] query, Listener listener) throws IOException {
        // a failure here is synchronous, with its errno: the resolver classifies it (EMFILE, ENOBUFS
        // ... are this host's; ENETUNREACH fails the attempt at once and demotes)
        Exchange e = new Exchange(listener, server);
        e.id = exchanges.open(server, query, query.length, e);
        return e;
    }

    @Override
    public Handle tcp(InetSocketAddress server, byte[] query, Listener listener) {
        return tcp.tcp(server, query, listener);
    }

    @Override
    public void datagram(int exchange, Object attachment, byte[] data, int length, boolean truncated) {
        Exchange e = (Exchange) attachment;
        // the socket is connected: whatever arrives came from the server
        e.listener.reply(data, e.server);
    }

    @Override
    public void failed(int exchange, Object attachment, NetError error) {
        // the refusal that follows an ICMP port unreachable (§4.6.2: an error receiving on the socket)
        ((Exchange) attachment).listener.failed(error.asException(), FailureKind.UDP_RECEIVE_ERROR);
    }

    @Override
    public String describe() {
        return "natively (a connected socket per transaction, watched through one epoll set)";
    }

    /** Upstream exchanges open now (tests). */
    public int openCount() {
        return exchanges.openCount();
    }

    @Override
    public void close() {
        exchanges.close();
    }
}
