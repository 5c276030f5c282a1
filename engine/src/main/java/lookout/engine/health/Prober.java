package lookout.engine.health;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Consumer;
import lookout.engine.net.Transport;

/**
 * The network probes of {@code tcp_connect} and {@code http_status}, on the engine's Netty group.
 * Each probe reports exactly one raw pass/fail to {@code done}, on a Netty thread (callers hop to
 * the engine loop). Probes never throw; a returned {@link Probe} closes the connection early (the
 * caller's timeout).
 */
final class Prober {

    /** A running probe. */
    interface Probe {
        void abort();
    }

    private final EventLoopGroup io;

    Prober(EventLoopGroup io) {
        this.io = io;
    }

    /** gdnsd tcp_connect: success when the TCP handshake completes. */
    Probe tcpConnect(InetAddress address, int port, int timeoutSeconds, Consumer<Boolean> done) {
        Once once = new Once(done);
        ChannelFuture f = bootstrap(timeoutSeconds, new ChannelInboundHandlerAdapter() {
            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                ctx.close();
            }
        }).connect(new InetSocketAddress(address, port));
        f.addListener((ChannelFutureListener) cf -> {
            once.report(cf.isSuccess());
            if (cf.isSuccess()) {
                cf.channel().close();
            }
        });
        return () -> {
            once.report(false);
            f.channel().close();
        };
    }

    /**
     * gdnsd http_status: {@code GET url_path HTTP/1.0} (or HTTP/1.1 with {@code Host: vhost}), success
     * when the status line's code is one of {@code okCodes}.
     */
    Probe httpStatus(InetAddress address, int port, String urlPath, String vhost, Set<Integer> okCodes,
                     int timeoutSeconds, Consumer<Boolean> done) {
        Once once = new Once(done);
        String request = vhost == null
                ? "GET " + urlPath + " HTTP/1.0\r\nUser-Agent: gdnsd-monitor\r\n\r\n"
                : "GET " + urlPath + " HTTP/1.1\r\nHost: " + vhost + "\r\nConnection: close\r\nUser-Agent: gdnsd-monitor\r\n\r\n";
        ChannelFuture f = bootstrap(timeoutSeconds, new StatusLineReader(request, okCodes, once))
                .connect(new InetSocketAddress(address, port));
        f.addListener((ChannelFutureListener) cf -> {
            if (!cf.isSuccess()) {
                once.report(false);
            }
        });
        return () -> {
            once.report(false);
            f.channel().close();
        };
    }

    private Bootstrap bootstrap(int timeoutSeconds, io.netty.channel.ChannelHandler handler) {
        return new Bootstrap().group(io).channel(Transport.of(io).socketClass())
                // a real-time safety net; the monitor's own timeout runs on the engine scheduler
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.max(1, timeoutSeconds) * 1000 + 1000)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(handler);
                    }
                });
    }

    /** Reports once, whatever happens after. */
    private static final class Once {
        private final Consumer<Boolean> done;
        private boolean reported;

        Once(Consumer<Boolean> done) {
            this.done = done;
        }

        void report(boolean ok) {
            synchronized (this) {
                if (reported) {
                    return;
                }
                reported = true;
            }
            try {
                done.accept(ok);
            } catch (RuntimeException e) {
                System.getLogger("lookout.engine.health").log(System.Logger.Level.ERROR, "probe result handler failed", e);
            }
        }
    }

    /** Sends the request, reads up to the status line, judges it; never throws, releases every buffer. */
    private static final class StatusLineReader extends ChannelInboundHandlerAdapter {
        private final String request;
        private final Set<Integer> okCodes;
        private final Once once;
        private final StringBuilder head = new StringBuilder();

        StatusLineReader(String request, Set<Integer> okCodes, Once once) {
            this.request = request;
            this.okCodes = okCodes;
            this.once = once;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.writeAndFlush(Unpooled.copiedBuffer(request, StandardCharsets.US_ASCII));
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof ByteBuf b) {
                    int n = Math.min(b.readableBytes(), 64 - head.length());
                    if (n > 0) {
                        head.append(b.toString(b.readerIndex(), n, StandardCharsets.ISO_8859_1));
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
            if (head.length() >= 13 || head.indexOf("\n") >= 0) {
                once.report(judge(head.toString(), okCodes));
                ctx.close();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            once.report(judge(head.toString(), okCodes));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            once.report(false);
            ctx.close();
        }
    }

    /** gdnsd: {@code sscanf("HTTP/1.%*1[01]%*1[ ]%3c%*1[ ]")} then the code is one of ok_codes. */
    static boolean judge(String head, Set<Integer> okCodes) {
        if (head.length() < 13 || !head.startsWith("HTTP/1.")) {
            return false;
        }
        char minor = head.charAt(7);
        if ((minor != '0' && minor != '1') || head.charAt(8) != ' ' || head.charAt(12) != ' ') {
            return false;
        }
        String code = head.substring(9, 12);
        if (!code.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return false;
        }
        return okCodes.contains(Integer.parseInt(code));
    }
}
