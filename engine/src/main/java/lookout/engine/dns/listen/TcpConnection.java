package lookout.engine.dns.listen;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Scheduler;
import lookout.engine.dns.wire.TcpFrames;

/**
 * One client's TCP connection: 2-byte-length framed queries in ({@link TcpFrames}), answers out in
 * the order they are ready (RFC 7766 §6.2.1.1 allows it). At most {@code resolver.tcp_pipeline}
 * (default {@value #MAX_PIPELINE}) questions unanswered at once: beyond that the connection's
 * further queries wait, and reading pauses until answers go out, so that one client cannot take
 * the in-flight ceiling (seed 000 §4.6.5) from the others. Closed after
 * {@code resolver.tcp_idle_timeout} (default {@value #IDLE_SECONDS} s) without a query or an answer (RFC 7766 §6.2.3), and
 * at once when the client is not allowed or no place is left ({@link Places}: the listener's limit).
 * A broken stream (a reset, a read error) is counted malformed and closes this connection only.
 */
public final class TcpConnection extends ChannelInboundHandlerAdapter {

    /* Concurrency: `frames` and `channel` are the connection's I/O thread's (channelRead, channelInactive);
     * what they read hops to the engine loop (Scheduler.run), which owns idle, counted, outstanding,
     * waiting, paused and draining. Writes and setAutoRead from the engine loop go through Netty,
     * which runs them on the I/O thread. */

    /**
     * Questions one connection may have unanswered at once by default (RFC 7766 §6.2.1.1
     * pipelining with a bound; {@code resolver.tcp_pipeline}). Beyond it the connection's further
     * queries wait, unread.
     */
    public static final int MAX_PIPELINE = 64;
    /** RFC 7766 §6.2.3: idle connections are closed; by default after 30 s ({@code resolver.tcp_idle_timeout}). */
    public static final long IDLE_SECONDS = 30;

    /** The count of open connections a connection takes a place in, and the limits it keeps to (engine loop). */
    public interface Places {
        /** Takes a place; false (and counted rejected) when none is left. */
        boolean take();

        /** Gives a place back. */
        void giveBack();

        /** Questions a connection may have unanswered at once. */
        default int pipeline() {
            return MAX_PIPELINE;
        }

        /** Seconds without a query or an answer after which a connection is closed. */
        default long idleSeconds() {
            return IDLE_SECONDS;
        }

        /** A connection was closed for being idle. */
        default void closedIdle() {
        }
    }

    private final Scheduler scheduler;
    private final Intake intake;
    private final Places places;
    private final InetSocketAddress remote;
    private final TcpFrames.Reader frames = new TcpFrames.Reader();
    private Channel channel;
    // engine loop
    private Scheduler.Cancellable idle = Scheduler.Cancellable.NONE;
    private boolean counted;
    private int outstanding;
    /** Queries read beyond {@link #MAX_PIPELINE}: at most one read's worth (reading stops until they are asked). */
    private final ArrayDeque<byte[]> waiting = new ArrayDeque<>();
    private boolean paused;
    private boolean draining;

    /** A handler for the connection from {@code remote}, judged by {@code intake}, taking one of {@code places}. */
    public TcpConnection(Scheduler scheduler, Intake intake, Places places, InetSocketAddress remote) {
        this.scheduler = scheduler;
        this.intake = intake;
        this.places = places;
        this.remote = remote;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext c) {
        channel = c.channel();
    }

    @Override
    public void channelActive(ChannelHandlerContext c) {
        scheduler.run(() -> {
            if (!intake.allowed(remote)) {
                intake.countDenied();
                channel.close();
                return;
            }
            if (!places.take()) {
                channel.close();
                return;
            }
            counted = true;
            touch();
        });
        c.fireChannelActive();
    }

    private void touch() {
        idle.cancel();
        idle = scheduler.schedule(this::idleTooLong, places.idleSeconds(), TimeUnit.SECONDS);
    }

    private void idleTooLong() {
        if (channel.isActive()) {
            places.closedIdle();
        }
        channel.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext c, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        List<byte[]> messages = null;
        try {
            frames.add(c.alloc(), in);
            for (byte[] m = frames.next(); m != null; m = frames.next()) {
                if (messages == null) {
                    messages = new ArrayList<>(1);
                }
                messages.add(m);
            }
        } finally {
            in.release();
        }
        if (messages != null) {
            List<byte[]> read = messages;
            scheduler.run(() -> {
                touch();
                waiting.addAll(read);
                drain();
            });
        }
    }

    /** Engine loop: asks waiting queries while the pipeline has room; reading follows the backlog. */
    private void drain() {
        if (draining) {
            return; // an answer given inside ask(): the loop below goes on
        }
        draining = true;
        try {
            int bound = places.pipeline();
            while (outstanding < bound && !waiting.isEmpty()) {
                ask(waiting.poll());
            }
        } finally {
            draining = false;
        }
        boolean full = !waiting.isEmpty();
        if (full != paused && channel.isActive()) {
            paused = full;
            channel.config().setAutoRead(!full);
        }
    }

    private void ask(byte[] query) {
        outstanding++;
        boolean[] answered = {false};
        boolean pending = intake.message(query, remote, true, r -> {
            channel.writeAndFlush(TcpFrames.frame(r), channel.voidPromise());
            if (!answered[0]) {
                answered[0] = true;
                answeredOne();
            }
        });
        if (!pending && !answered[0]) {
            answered[0] = true; // dropped without an answer (not a query at all)
            answeredOne();
        }
    }

    private void answeredOne() {
        outstanding--;
        touch();
        drain();
    }

    @Override
    public void channelInactive(ChannelHandlerContext c) {
        frames.release();
        scheduler.run(() -> {
            idle.cancel();
            waiting.clear();
            if (counted) {
                counted = false;
                places.giveBack();
            }
        });
        c.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext c) {
        frames.release();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
        // a reset or a read error: count and close this client only
        scheduler.run(intake::countMalformed);
        c.close();
    }
}
