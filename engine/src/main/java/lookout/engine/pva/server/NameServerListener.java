package lookout.engine.pva.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.ServerSocketChannel;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import lookout.engine.api.Scheduler;
import lookout.engine.net.HostPort;
import lookout.engine.net.Transport;
import lookout.engine.pva.tcp.PvaFrameDecoder;
import lookout.engine.pva.wire.ClientValidation;
import lookout.engine.pva.wire.ConnectionValidated;
import lookout.engine.pva.wire.Decoded;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.ServerValidation;
import lookout.engine.pva.wire.SetByteOrder;
import lookout.engine.pva.wire.Unhandled;
import lookout.engine.seams.HostedPvs;

/**
 * The TCP name server on {@code pva.server_port} (seed 002 §6): the server side of the PVA
 * connection handshake (SET_BYTE_ORDER, CONNECTION_VALIDATION, CONNECTION_VALIDATED), CMD_SEARCH
 * answered on the same connection with the same sources as over UDP (discovery pings included),
 * CMD_ECHO echoed. Nothing else of PVA is served: a name server only names servers.
 *
 * <p>Limits, so that no client can grow memory without bound: at most {@link #MAX_CONNECTIONS}
 * connections (more are closed at once); a frame longer than {@link #MAX_FRAME} or bytes that are
 * not a PVA header close the connection; reading stops while the connection's outbound buffer is
 * above its high-water mark (a client that never reads stops being read, and the kernel's window
 * then stops it) and a connection whose backlog still passes {@link #MAX_BACKLOG} is closed; a
 * connection that has not completed the handshake after {@link #VALIDATION_TIMEOUT_S} s is closed.
 *
 * <p>Concurrency: per-connection fields are confined to the connection's I/O thread, where its
 * searches are answered too (the responder is thread-safe). The connection counters are atomics
 * because the engine loop reads them.
 */
final class NameServerListener {

    private static final Logger LOG = System.getLogger("lookout.pva.server.tcp");
    private static final InetAddress ANY_V6 = HostPort.literal("::");
    private static final InetAddress ANY_V4 = HostPort.literal("0.0.0.0");
    static final int MAX_CONNECTIONS = 1024;
    static final int MAX_FRAME = 64 * 1024;
    static final int MAX_BACKLOG = 1024 * 1024;
    static final long VALIDATION_TIMEOUT_S = 10;
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(32 * 1024, 128 * 1024);

    private final Scheduler scheduler;
    private final SearchResponder responder;
    private final ServerCounters counters;
    final AtomicInteger open = new AtomicInteger();
    final AtomicLong accepted = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    private Channel server;
    private int port;
    private final int maxConnections;
    private volatile HostedPvs hosted;

    NameServerListener(Scheduler scheduler, SearchResponder responder, ServerCounters counters, int maxConnections) {
        this.scheduler = scheduler;
        this.responder = responder;
        this.counters = counters;
        this.maxConnections = maxConnections;
    }

    /**
     * Binds {@code address:wantedPort} ({@code null}: every address, IPv6 and IPv4), falling back
     * to an ephemeral port when it is taken (as PVXS does).
     */
    int open(EventLoopGroup io, InetAddress address, int wantedPort) throws IOException {
        Transport transport = Transport.of(io);
        ServerSocketChannel s;
        try {
            s = bind(io, transport, address != null ? address : ANY_V6, wantedPort);
        } catch (BindException e) {
            if (wantedPort == 0) {
                throw e;
            }
            LOG.log(Level.WARNING, "PVA name server: port " + wantedPort + " in use, using an ephemeral port");
            s = bind(io, transport, address != null ? address : ANY_V6, 0);
        } catch (IOException | RuntimeException e) {
            if (address != null) {
                throw e;
            }
            s = bind(io, transport, ANY_V4, wantedPort); // no IPv6 here
        }
        port = s.localAddress().getPort();
        server = s;
        return port;
    }

    private ServerSocketChannel bind(EventLoopGroup io, Transport transport, InetAddress address, int wantedPort)
            throws IOException {
        return Transport.bind(io, transport.serverSocket(address), new InetSocketAddress(address, wantedPort), s -> {
            s.config().setReuseAddress(true);
            s.config().setBacklog(128);
            s.pipeline().addLast(new Acceptor(io));
        });
    }

    int port() {
        return port;
    }

    /** The engine's own PVs: their channel messages go to a session of each validated connection. */
    void hosted(HostedPvs pvs) {
        this.hosted = pvs;
    }

    void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    private final class Acceptor extends ChannelInboundHandlerAdapter {
        private final EventLoopGroup io;

        Acceptor(EventLoopGroup io) {
            this.io = io;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channel child = (Channel) msg;
            if (open.get() >= maxConnections) {
                refused.incrementAndGet();
                child.unsafe().closeForcibly();
                return;
            }
            open.incrementAndGet();
            accepted.incrementAndGet();
            child.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK);
            child.config().setOption(ChannelOption.TCP_NODELAY, true);
            child.pipeline().addLast(new Connection());
            child.closeFuture().addListener(f -> open.decrementAndGet());
            io.register(child).addListener(f -> {
                if (!f.isSuccess()) {
                    child.unsafe().closeForcibly();
                }
            });
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.log(Level.DEBUG, "PVA name server: accept error: " + cause);
        }
    }

    /** One client connection. Fields confined to its I/O thread. */
    private final class Connection extends ChannelInboundHandlerAdapter {
        private ByteBuf cumulation;
        private boolean validated;
        private Scheduler.Cancellable validationTimer = Scheduler.Cancellable.NONE;
        private HostedPvs.Session session;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ByteBuf hello = ctx.alloc().buffer(64);
            PvaCodec.encode(new SetByteOrder(true), hello);
            PvaCodec.encode(ServerValidation.standard(), hello);
            ctx.writeAndFlush(hello);
            Channel ch = ctx.channel();
            validationTimer = scheduler.schedule(() -> {
                if (ch.isActive() && !ch.hasAttr(VALIDATED)) {
                    refused.incrementAndGet();
                    ch.close();
                }
            }, VALIDATION_TIMEOUT_S, TimeUnit.SECONDS);
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                if (cumulation == null) {
                    cumulation = ctx.alloc().buffer(Math.max(256, in.readableBytes()));
                }
                cumulation.writeBytes(in);
            } finally {
                in.release();
            }
            try {
                drain(ctx);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "PVA name server: closing " + ctx.channel().remoteAddress() + ": " + e);
                violation(ctx);
            }
        }

        private void drain(ChannelHandlerContext ctx) {
            while (cumulation != null && cumulation.isReadable() && ctx.channel().isActive()) {
                int at = cumulation.readerIndex();
                long len = PvaCodec.frameLength(cumulation, at);
                if (len == -2) {
                    violation(ctx); // not a PVA header: the stream cannot be resynchronised
                    return;
                }
                if (len == -1) {
                    if (cumulation.readableBytes() >= Pva.HEADER_SIZE && declaredLength(cumulation, at) > MAX_FRAME) {
                        violation(ctx); // oversized length: never buffer toward it
                        return;
                    }
                    if (cumulation.readableBytes() > MAX_FRAME + Pva.HEADER_SIZE) {
                        violation(ctx);
                        return;
                    }
                    break;
                }
                if (len > MAX_FRAME + Pva.HEADER_SIZE) {
                    violation(ctx);
                    return;
                }
                ByteBuf frame = cumulation.slice(at, (int) len);
                cumulation.skipBytes((int) len);
                onFrame(ctx, frame);
            }
            if (cumulation != null) {
                if (!cumulation.isReadable()) {
                    cumulation.release();
                    cumulation = null;
                } else if (cumulation.readerIndex() > 4096) {
                    cumulation.discardReadBytes();
                }
            }
        }

        private long declaredLength(ByteBuf b, int at) {
            boolean be = (b.getUnsignedByte(at + 2) & Pva.FLAG_BIG_ENDIAN) != 0;
            boolean control = (b.getUnsignedByte(at + 2) & Pva.FLAG_CONTROL) != 0;
            if (control) {
                return 0;
            }
            return (be ? b.getInt(at + 4) : b.getIntLE(at + 4)) & 0xFFFF_FFFFL;
        }

        private void onFrame(ChannelHandlerContext ctx, ByteBuf frame) {
            Decoded d = PvaCodec.decodeFrame(frame);
            if (d instanceof Decoded.Dropped) {
                counters.malformed.increment();
                return;
            }
            var f = ((Decoded.Ok) d).frame();
            Channel ch = ctx.channel();
            if (f.message() instanceof ClientValidation) {
                validated = true;
                ch.attr(VALIDATED).set(Boolean.TRUE);
                validationTimer.cancel();
                if (hosted != null && session == null) {
                    session = hosted.open(new HostedPeer(ch, refused));
                }
                ByteBuf ok = ctx.alloc().buffer(16);
                PvaCodec.encode(ConnectionValidated.OK, ok);
                write(ch, ok);
            } else if (f.message() instanceof SearchRequest req) {
                InetSocketAddress peer = (InetSocketAddress) ch.remoteAddress();
                counters.searchesReceived.increment();
                // §6: the same sources, the receiving listener's port; the reply returns on this
                // connection. The responder is thread-safe: answered here, on the connection's loop.
                List<SearchResponse> replies = responder.answer(req, peer, port, Asker.tcp(peer));
                if (!replies.isEmpty()) {
                    ByteBuf out = ch.alloc().buffer(64 * replies.size());
                    for (SearchResponse r : replies) {
                        PvaCodec.encode(r, out);
                    }
                    counters.repliesSent.add(replies.size());
                    write(ch, out);
                }
            } else if (f.message() instanceof Unhandled u && !u.control() && u.command() == Pva.CMD_ECHO) {
                // Echo: the same body back under a server header (clients use it as a keep-alive).
                int body = frame.readableBytes() - Pva.HEADER_SIZE;
                ByteBuf echo = ctx.alloc().buffer(Pva.HEADER_SIZE + body);
                echo.writeByte(Pva.MAGIC).writeByte(Pva.VERSION).writeByte(Pva.FLAG_SERVER | Pva.FLAG_BIG_ENDIAN)
                        .writeByte(Pva.CMD_ECHO).writeInt(body);
                echo.writeBytes(frame, frame.readerIndex() + Pva.HEADER_SIZE, body);
                write(ch, echo);
            } else if (session != null && f.message() instanceof Unhandled u && !u.control()) {
                session.message(frame); // channel operations: the engine's own PVs
            }
            // Anything else (control messages) is not a name server's business.
        }

        private void write(Channel ch, ByteBuf out) {
            if (!ch.isActive()) {
                out.release();
                return;
            }
            // seed 002 §6 / our limit: a client that does not read must not grow our memory.
            long backlog = ch.unsafe().outboundBuffer() == null ? 0 : ch.unsafe().outboundBuffer().totalPendingWriteBytes();
            if (backlog + out.readableBytes() > MAX_BACKLOG) {
                out.release();
                refused.incrementAndGet();
                ch.close();
                return;
            }
            ch.writeAndFlush(out);
            if (!ch.isWritable()) {
                ch.config().setAutoRead(false);
            }
        }

        private void violation(ChannelHandlerContext ctx) {
            refused.incrementAndGet();
            counters.malformed.increment();
            release();
            ctx.close();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                ctx.channel().config().setAutoRead(true);
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (session != null) {
                session.closed();
                session = null;
            }
            release();
            validationTimer.cancel();
            ctx.fireChannelInactive();
        }

        private void release() {
            if (cumulation != null) {
                cumulation.release();
                cumulation = null;
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.log(Level.DEBUG, "PVA name server: connection error: " + cause);
            release();
            ctx.close();
        }
    }

    private static final io.netty.util.AttributeKey<Boolean> VALIDATED =
            io.netty.util.AttributeKey.valueOf("lookout.pva.validated");
}
