package lookout.engine.pva.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.PvaNameServerSnapshot;
import lookout.engine.api.Scheduler;
import lookout.engine.net.NetError;
import lookout.engine.net.Transport;
import lookout.engine.pva.tcp.PvaFrameDecoder;
import lookout.engine.pva.wire.ClientValidation;
import lookout.engine.pva.wire.ConnectionValidated;
import lookout.engine.pva.wire.Decoded;
import lookout.engine.pva.wire.Frame;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.PvaMessage;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.ServerValidation;
import lookout.engine.pva.wire.Unhandled;

/**
 * One persistent TCP connection to a name server (seed 002 §6): connect, the PVA handshake
 * (server CONNECTION_VALIDATION, our anonymous answer, CONNECTION_VALIDATED), then READY for search
 * messages. Reconnection is the owner's 10-s check calling {@link #connect()} again. The connect and
 * the handshake each have a deadline on the injected scheduler ({@link #CONNECT_TIMEOUT},
 * {@link #VALIDATION_TIMEOUT}), never on Netty's wall clock.
 *
 * <p>Concurrency: every field is confined to the engine loop. Netty handlers run on the I/O
 * thread and hop in with {@code scheduler().run(...)}, carrying the {@link Channel} they belong
 * to so that events of a connection already replaced are ignored.
 */
final class NameServerConnection {

    enum State { DISCONNECTED, CONNECTING, VALIDATING, READY }

    /** seed 002 §6: a connection with more than 64 KiB queued is skipped for the tick. */
    static final int TX_BACKLOG_LIMIT = 64 * 1024;
    /** How long a connect may take before it counts as failed. */
    static final long CONNECT_TIMEOUT = TimeUnit.SECONDS.toNanos(5);
    /** How long the server may take to validate the connection once connected. */
    static final long VALIDATION_TIMEOUT = TimeUnit.SECONDS.toNanos(10);

    interface Owner {
        Scheduler scheduler();

        io.netty.channel.EventLoopGroup io();

        void nameServerReply(NameServerConnection from, SearchResponse reply, int version);

        void nameServerMalformed(NameServerConnection from, String reason);

        void nameServerState(NameServerConnection from, State state, String error);
    }

    private final String label;
    private final InetSocketAddress target;
    private final Owner owner;

    private Channel channel;
    private State state = State.DISCONNECTED;
    private Instant since;
    private long searchesSent;
    private long skipped;
    private long replies;
    private String lastError = "";
    private boolean closed;
    private Scheduler.Cancellable deadline = Scheduler.Cancellable.NONE;

    NameServerConnection(String label, InetSocketAddress target, Owner owner) {
        this.label = label;
        this.target = target;
        this.owner = owner;
        this.since = owner.scheduler().now();
    }

    String label() {
        return label;
    }

    InetSocketAddress target() {
        return target;
    }

    State state() {
        return state;
    }

    /** The local end of the connection while there is one, else null. */
    InetSocketAddress localAddress() {
        Channel ch = channel;
        return ch == null ? null : (InetSocketAddress) ch.localAddress();
    }

    boolean ready() {
        return state == State.READY && channel != null && channel.isActive();
    }

    /** Starts connecting when disconnected (the owner's 10-s check). */
    void connect() {
        if (closed || state != State.DISCONNECTED) {
            return;
        }
        if (target.isUnresolved()) {
            lastError = "cannot resolve " + target.getHostString();
            return;
        }
        setState(State.CONNECTING, null);
        Bootstrap b = new Bootstrap()
                .group(owner.io())
                .channel(Transport.of(owner.io()).socketClass())
                .option(ChannelOption.TCP_NODELAY, true)
                // no wall-clock timeout of Netty's: the deadline below runs on the injected scheduler
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 0)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new PvaFrameDecoder(), new Handler());
                    }
                });
        ChannelFuture f = b.connect(target);
        Channel ch = f.channel();
        channel = ch;
        arm(ch, CONNECT_TIMEOUT, "no connection within " + TimeUnit.NANOSECONDS.toSeconds(CONNECT_TIMEOUT) + " s");
        f.addListener(done -> owner.scheduler().run(() -> {
            if (ch != channel) {
                return;
            }
            if (!done.isSuccess()) {
                deadline.cancel();
                channel = null;
                setState(State.DISCONNECTED, NetError.of(done.cause()).brief());
            } else {
                // the server speaks first: SET_BYTE_ORDER and CONNECTION_VALIDATION
                setState(State.VALIDATING, null);
                arm(ch, VALIDATION_TIMEOUT, "not validated within "
                        + TimeUnit.NANOSECONDS.toSeconds(VALIDATION_TIMEOUT) + " s");
            }
        }));
    }

    /** A deadline for {@code ch} to move on: when it passes first, the connection is given up. */
    private void arm(Channel ch, long nanos, String why) {
        deadline.cancel();
        deadline = owner.scheduler().schedule(() -> {
            if (ch == channel && state != State.READY) {
                channel = null;
                ch.close();
                setState(State.DISCONNECTED, why);
            }
        }, nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Appends one search message when ready; skipped (and counted) when more than 64 KiB is
     * already queued. Does not flush. Returns true when written.
     */
    boolean append(ByteBuf message) {
        if (!ready()) {
            return false;
        }
        if (backlogged(channel)) {
            skipped++;
            return false;
        }
        channel.write(message.retainedDuplicate(), channel.voidPromise());
        searchesSent++;
        return true;
    }

    /**
     * seed 002 §6: more than 64 KiB already queued on {@code ch} — counted as Netty counts it,
     * written or waiting to be — without the low-water-mark hysteresis of its writability flag.
     */
    static boolean backlogged(Channel ch) {
        io.netty.channel.ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
        return out != null && out.totalPendingWriteBytes() > TX_BACKLOG_LIMIT;
    }

    void flush() {
        if (channel != null) {
            channel.flush();
        }
    }

    void close() {
        closed = true;
        deadline.cancel();
        if (channel != null) {
            channel.close();
            channel = null;
        }
        setState(State.DISCONNECTED, null);
    }

    PvaNameServerSnapshot snapshot() {
        return new PvaNameServerSnapshot(label, state.name(), since, searchesSent, skipped, replies, lastError);
    }

    private void setState(State s, String error) {
        if (error != null) {
            lastError = error;
        }
        if (s != state) {
            state = s;
            since = owner.scheduler().now();
            owner.nameServerState(this, s, error);
        }
    }

    private void onFrame(Channel ch, Decoded d) {
        if (ch != channel) {
            return;
        }
        if (d instanceof Decoded.Dropped dr) {
            owner.nameServerMalformed(this, dr.reason());
            return;
        }
        Frame f = ((Decoded.Ok) d).frame();
        PvaMessage m = f.message();
        if (m instanceof ServerValidation) {
            ByteBuf out = ch.alloc().buffer(32);
            PvaCodec.encode(ClientValidation.anonymous(), out);
            ch.writeAndFlush(out, ch.voidPromise());
        } else if (m instanceof ConnectionValidated v) {
            if (v.ok()) {
                deadline.cancel();
                lastError = "";
                setState(State.READY, null);
            } else {
                lastError = "validation refused: " + v.message();
                ch.close();
            }
        } else if (m instanceof SearchResponse r) {
            replies++;
            owner.nameServerReply(this, r, f.header().version());
        } else if (m instanceof Unhandled u && !u.control() && u.command() == Pva.CMD_ECHO
                && f.header().fromServer() && f.header().payloadLength() > 0) {
            // PVA echo: a server may probe with a non-empty echo; answer it (empty bodies are our own echoes coming back)
            ByteBuf out = ch.alloc().buffer(8);
            PvaCodec.encode(new Unhandled(false, Pva.CMD_ECHO), out);
            ch.writeAndFlush(out, ch.voidPromise());
        }
        // anything else (SET_BYTE_ORDER: every message carries its own order flag) is skipped
    }

    private void onInactive(Channel ch) {
        if (ch != channel) {
            return;
        }
        deadline.cancel();
        channel = null;
        setState(State.DISCONNECTED, lastError.isEmpty() ? "connection closed" : lastError);
    }

    /** Sends an echo to keep idle connections (and middleboxes) alive. */
    void echo() {
        if (ready()) {
            ByteBuf out = channel.alloc().buffer(8);
            PvaCodec.encode(new Unhandled(false, Pva.CMD_ECHO), out);
            channel.writeAndFlush(out, channel.voidPromise());
        }
    }

    private final class Handler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Decoded d) {
                    Channel ch = ctx.channel();
                    owner.scheduler().run(() -> onFrame(ch, d));
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            Channel ch = ctx.channel();
            owner.scheduler().run(() -> onInactive(ch));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Channel ch = ctx.channel();
            String why = NetError.of(cause).message();
            owner.scheduler().run(() -> {
                if (ch == channel) {
                    lastError = why;
                }
            });
            ctx.close();
        }
    }
}
