package lookout.engine.dns.upstream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelFuture;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.net.InetSocketAddress;
import lookout.engine.dns.wire.TcpFrames;
import lookout.engine.net.Transport;

/**
 * The real sockets: a fresh connected datagram channel per UDP transaction (so the kernel filters
 * other sources and an ICMP port-unreachable surfaces as a receive error at once), a fresh socket
 * channel per TCP transaction, both of the engine loop's {@link Transport}. Netty's own connect
 * timeout is off: the 2-s deadline is the resolver's, on the engine scheduler.
 */
public final class NettyUpstreamSockets implements UpstreamSockets {

    /* Concurrency: udp() and tcp() run on the engine loop (the resolver opens transactions there);
     * each channel's handler runs on that channel's I/O thread — the engine loop itself on the
     * engine's group — and reports to the resolver's Listener, which hops onto the engine loop.
     * TcpReader's `written` and `done` are volatile: the handle (engine loop) and the write
     * listener may set them from the loop while the channel's thread reads them. */

    private final EventLoopGroup io;
    private final Transport transport;

    public NettyUpstreamSockets(EventLoopGroup io) {
        this.io = io;
        this.transport = Transport.of(io);
    }

    @Override
    public Handle udp(InetSocketAddress server, byte[] query, Listener listener) throws IOException {
        // seed 000: one fresh socket per transaction. Registered, connected and sent on the engine
        // loop, where Netty does all three inline: failures here are synchronous and the resolver
        // classifies them (EMFILE, ENOBUFS ... are local resource errors, not the server's fault)
        DatagramChannel ch;
        try {
            ch = transport.datagram(server.getAddress());
        } catch (ChannelException e) { // socket(2) failed: EMFILE, ENFILE, ENOMEM
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                try {
                    if (msg instanceof DatagramPacket p) {
                        ByteBuf b = p.content();
                        byte[] bytes = new byte[b.readableBytes()];
                        b.getBytes(b.readerIndex(), bytes);
                        listener.reply(bytes, p.sender() != null ? p.sender() : server);
                    }
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                // ICMP port unreachable on the connected socket (PortUnreachableException)
                listener.failed(cause, FailureKind.UDP_RECEIVE_ERROR);
            }
        });
        try {
            Transport.sync(io.register(ch));
            Transport.sync(ch.connect(server));
            ChannelFuture sent = ch.writeAndFlush(Unpooled.wrappedBuffer(query));
            if (sent.isDone()) {
                Transport.sync(sent);
            } else {
                // the socket buffer was full: Netty keeps the datagram until the socket is writable
                sent.addListener((ChannelFutureListener) wf -> {
                    if (!wf.isSuccess()) {
                        listener.failed(wf.cause(), FailureKind.SEND_ERROR);
                    }
                });
            }
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return () -> {
            if (ch.eventLoop().inEventLoop()) {
                // usually called from this channel's own channelRead (the reply ended the
                // transaction): Netty's read loop would go on to read the closed socket and build an
                // exception with a stack trace per transaction; close once the read returns
                ch.eventLoop().execute(ch::close);
            } else {
                ch.close();
            }
        };
    }

    @Override
    public Handle tcp(InetSocketAddress server, byte[] query, Listener listener) {
        SocketChannel ch = transport.socket(server.getAddress());
        ch.config().setOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, 0);
        TcpReader reader = new TcpReader(listener, server);
        ch.pipeline().addLast(reader);
        io.register(ch).addListener((ChannelFutureListener) rf -> {
            if (!rf.isSuccess()) {
                listener.failed(rf.cause(), FailureKind.TCP_CONNECT);
                ch.close();
                return;
            }
            ch.connect(server).addListener((ChannelFutureListener) cf -> {
                if (!cf.isSuccess()) {
                    reader.done = true;
                    listener.failed(cf.cause(), FailureKind.TCP_CONNECT);
                    return;
                }
                ch.writeAndFlush(TcpFrames.frame(query)).addListener((ChannelFutureListener) wf -> {
                    if (wf.isSuccess()) {
                        reader.written = true;
                    } else if (!reader.done) {
                        reader.done = true;
                        listener.failed(wf.cause(), FailureKind.TCP_WRITE);
                    }
                });
            });
        });
        return () -> {
            reader.done = true;
            ch.close();
        };
    }

    @Override
    public String describe() {
        return "through Netty (a channel per transaction)";
    }

    /** Collects one length-prefixed reply; everything runs on the channel's I/O thread. */
    private static final class TcpReader extends ChannelInboundHandlerAdapter {
        private final Listener listener;
        private final InetSocketAddress server;
        private final TcpFrames.Reader frames = new TcpFrames.Reader();
        volatile boolean written;
        volatile boolean done;

        TcpReader(Listener listener, InetSocketAddress server) {
            this.listener = listener;
            this.server = server;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                if (done) {
                    return;
                }
                frames.add(ctx.alloc(), in);
                for (byte[] reply = frames.next(); reply != null; reply = frames.next()) {
                    // a non-matching reply is ignored by the transaction; keep reading
                    listener.reply(reply, server);
                }
            } finally {
                in.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            release();
            if (!done) {
                done = true;
                listener.failed(new java.io.IOException("connection closed before a whole reply"),
                        written ? FailureKind.TCP_CLOSED : FailureKind.TCP_WRITE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!done) {
                done = true;
                listener.failed(cause, written ? FailureKind.TCP_CLOSED : FailureKind.TCP_WRITE);
            }
            ctx.close();
        }

        private void release() {
            frames.release();
        }
    }

}
