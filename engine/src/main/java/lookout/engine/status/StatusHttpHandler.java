package lookout.engine.status;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import lookout.engine.api.EngineSnapshot;

/**
 * Answers {@code GET}/{@code HEAD} on {@code /status} (JSON; {@code ?pretty} indents it) and
 * {@code /metrics} (Prometheus text); 404 for other paths, 405 for other methods, 400 for a
 * request the codec could not decode. Keep-alive as the client asks (HTTP/1.1 default on).
 *
 * <p>Runs on the status thread, never on the engine loop: {@code snapshot} blocks until the
 * engine loop has built the snapshot. Stateless, hence shared by every connection.
 */
@ChannelHandler.Sharable
final class StatusHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger LOG = System.getLogger("lookout.status");
    private static final String JSON = "application/json; charset=utf-8";
    private static final String TEXT = "text/plain; charset=utf-8";

    private final Supplier<EngineSnapshot> snapshot;
    private final StatusCounters counters;

    StatusHttpHandler(Supplier<EngineSnapshot> snapshot, StatusCounters counters) {
        this.snapshot = snapshot;
        this.counters = counters;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        if (!req.decoderResult().isSuccess()) {
            counters.badRequest.increment();
            send(ctx, req, HttpResponseStatus.BAD_REQUEST, TEXT, "bad request\n", false);
            return;
        }
        String path = new QueryStringDecoder(req.uri()).path();
        boolean known = "/status".equals(path) || "/metrics".equals(path);
        if (!known) {
            counters.notFound.increment();
            send(ctx, req, HttpResponseStatus.NOT_FOUND, TEXT, "not found: try /status or /metrics\n", true);
            return;
        }
        HttpMethod m = req.method();
        if (!HttpMethod.GET.equals(m) && !HttpMethod.HEAD.equals(m)) {
            counters.badMethod.increment();
            FullHttpResponse r = response(req, HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT,
                    "method not allowed: " + m + "\n");
            r.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            write(ctx, req, r, true);
            return;
        }
        EngineSnapshot s;
        try {
            s = snapshot.get();
        } catch (RuntimeException e) {
            // The engine loop did not answer (stopping, or stuck): say so rather than hang.
            counters.unavailable.increment();
            LOG.log(Level.WARNING, "status: no snapshot: " + e.getMessage());
            send(ctx, req, HttpResponseStatus.SERVICE_UNAVAILABLE, TEXT, "snapshot unavailable: " + e.getMessage()
                    + "\n", true);
            return;
        }
        if ("/status".equals(path)) {
            counters.status.increment();
            boolean pretty = new QueryStringDecoder(req.uri()).parameters().containsKey("pretty");
            String body = pretty ? JsonWriter.writePretty(s) : JsonWriter.write(s) + "\n";
            send(ctx, req, HttpResponseStatus.OK, JSON, body, true);
        } else {
            counters.metrics.increment();
            send(ctx, req, HttpResponseStatus.OK, PrometheusWriter.CONTENT_TYPE, PrometheusWriter.write(s.metrics()),
                    true);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Oversized request lines/headers surface here or as a failed decoder result; either
        // way the connection is closed, nothing escapes the pipeline.
        if (!(cause instanceof TooLongFrameException)) {
            LOG.log(Level.DEBUG, "status connection error: " + cause);
        }
        ctx.close();
    }

    private static void send(ChannelHandlerContext ctx, FullHttpRequest req, HttpResponseStatus status,
                             String type, String body, boolean keepAliveAllowed) {
        write(ctx, req, response(req, status, type, body), keepAliveAllowed);
    }

    private static FullHttpResponse response(FullHttpRequest req, HttpResponseStatus status, String type, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        boolean head = HttpMethod.HEAD.equals(req.method());
        ByteBuf content = head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        return r;
    }

    private static void write(ChannelHandlerContext ctx, FullHttpRequest req, FullHttpResponse r,
                              boolean keepAliveAllowed) {
        boolean keepAlive = keepAliveAllowed && HttpUtil.isKeepAlive(req);
        HttpUtil.setKeepAlive(r, keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(r, ctx.voidPromise());
        } else {
            ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
