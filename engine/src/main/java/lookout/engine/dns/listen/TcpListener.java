package lookout.engine.dns.listen;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import lookout.engine.api.Scheduler;
import lookout.engine.net.Transport;

/**
 * The resolver's TCP side (RFC 7766): a server socket per listen address, on the port its UDP
 * sockets got, whose acceptor gives every client a {@link TcpConnection} on the engine's I/O
 * group; and the count of open client connections, at most {@code resolver.tcp_clients} (default
 * {@value #MAX_CLIENTS}; further ones are closed at once and counted rejected: a slow-loris guard).
 */
public final class TcpListener implements TcpConnection.Places {

    /* Concurrency: `open` and `rejected` belong to the engine loop (TcpConnection hops there to
     * admit and release); the acceptor runs on the server channel's I/O thread and only builds
     * and registers channels. */

    private static final Logger LOG = System.getLogger("lookout.engine.dns");
    /** Client TCP connections held at once by default ({@code resolver.tcp_clients}); more are closed at once. */
    public static final int MAX_CLIENTS = 1024;
    private static final int BACKLOG = 128;

    private final Scheduler scheduler;
    private final Intake intake;
    private final EventLoopGroup io;
    private final Acceptor acceptor = new Acceptor();
    private int open;
    private long rejected;
    private long closedIdle;
    private int clients = MAX_CLIENTS;
    private int pipeline = TcpConnection.MAX_PIPELINE;
    private long idleSeconds = TcpConnection.IDLE_SECONDS;

    public TcpListener(Scheduler scheduler, Intake intake, EventLoopGroup io) {
        this.scheduler = scheduler;
        this.intake = intake;
        this.io = io;
    }

    /** A server socket on {@code local}, accepting; bound before this returns (errors thrown here). */
    public Channel bind(Transport transport, InetSocketAddress local) throws IOException {
        return Transport.bind(io, transport.serverSocket(local.getAddress()), local, ch -> {
            ch.config().setReuseAddress(true);
            ch.config().setBacklog(BACKLOG);
            ch.pipeline().addLast(acceptor);
        });
    }

    /**
     * Engine loop: the limits from now on ({@code resolver.tcp_clients}, {@code tcp_pipeline},
     * {@code tcp_idle_timeout}); open connections keep to them from their next query or answer.
     */
    public void limits(int clients, int pipeline, int idleSeconds) {
        this.clients = clients;
        this.pipeline = pipeline;
        this.idleSeconds = idleSeconds;
    }

    @Override
    public int pipeline() {
        return pipeline;
    }

    @Override
    public long idleSeconds() {
        return idleSeconds;
    }

    @Override
    public void closedIdle() {
        closedIdle++;
    }

    /** Client connections closed for being idle, ever (engine loop). */
    public long closedIdleCount() {
        return closedIdle;
    }

    /** Engine loop: a connection wants to be counted; false (and counted rejected) at the limit. */
    @Override
    public boolean take() {
        if (open >= clients) {
            rejected++;
            return false;
        }
        open++;
        return true;
    }

    /** Engine loop: a counted connection closed. */
    @Override
    public void giveBack() {
        open--;
    }

    /** Client connections open now (engine loop). */
    public int open() {
        return open;
    }

    /** Client connections closed at the limit, ever (engine loop). */
    public long rejected() {
        return rejected;
    }

    /** Accepts TCP clients on the server channel's I/O thread and registers each one. */
    @ChannelHandler.Sharable
    private final class Acceptor extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            SocketChannel child = (SocketChannel) msg;
            child.pipeline().addLast(new TcpConnection(scheduler, intake, TcpListener.this, child.remoteAddress()));
            io.register(child);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            LOG.log(Level.DEBUG, "resolver TCP accept: " + cause);
        }
    }
}
