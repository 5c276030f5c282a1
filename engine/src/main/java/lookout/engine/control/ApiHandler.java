package lookout.engine.control;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
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
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.AttributeKey;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import lookout.engine.api.Actor;
import lookout.engine.api.Engine;
import lookout.engine.net.HostPort;

/**
 * The HTTP listener's one handler: decodes, routes ({@link Router}), authorises
 * ({@link Authorizer}), runs the route on a worker thread and writes its answer; the event stream
 * is handed to {@link EventStream}. Malformed requests are 400, unknown paths 404, other methods
 * 405 with {@code Allow}, refused tokens 401/403 with {@code WWW-Authenticate} (RFC 6750 §3), and
 * a refused write is recorded in the audit log like an accepted one. Every answer is counted.
 *
 * <p>Concurrency: runs on the listener's event loop, never the engine loop. Routes block (a
 * snapshot, an apply), so they run on {@code worker}; a connection reads its next request only
 * after the answer to the last one is written, which keeps pipelined answers in order and bounds
 * the work one client queues. Shared by every connection; its per-connection state (the request
 * being answered, those waiting behind it) is in channel attributes, touched on the channel's
 * event loop only.
 */
@ChannelHandler.Sharable
public final class ApiHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger LOG = System.getLogger("lookout.status");

    /** Name of the pipeline's idle-connection handler (removed by an event stream). */
    public static final String IDLE = "idle";

    static final String EVENTS = "/api/v1/events";

    /** Records a write refused before it reached the engine. */
    @FunctionalInterface
    public interface Refusals {
        void record(Actor actor, String action, Map<String, Object> args, String reason);
    }

    private final Router router;
    private final Supplier<Authorizer> authorizer;
    private final Supplier<Engine> engine;
    private final Refusals refusals;
    private final Executor worker;
    private final EventStream streams;
    private final BiConsumer<String, String> counted;

    /**
     * @param counted told {@code (route path or null, result)} of every answer
     */
    public ApiHandler(Router router, Supplier<Authorizer> authorizer, Supplier<Engine> engine, Refusals refusals,
                      Executor worker, EventStream streams, BiConsumer<String, String> counted) {
        this.router = router;
        this.authorizer = authorizer;
        this.engine = engine;
        this.refusals = refusals;
        this.worker = worker;
        this.streams = streams;
        this.counted = counted;
    }

    /** What a response needs of its request, kept after the request's buffers are released. */
    private record Exchange(boolean head, boolean keepAlive, boolean api) {
    }

    /** A request is being answered on this connection; later ones wait (in order) in {@link #WAITING}. */
    private static final AttributeKey<Boolean> BUSY = AttributeKey.valueOf("lookout.busy");
    private static final AttributeKey<ArrayDeque<FullHttpRequest>> WAITING = AttributeKey.valueOf("lookout.waiting");

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        // HTTP/1.1 pipelining (RFC 9112 §9.3.2): answers go out in the order of the requests, so a
        // request that arrives while one is answered waits for it.
        if (Boolean.TRUE.equals(ctx.channel().attr(BUSY).get())) {
            waiting(ctx).add(req.retain());
            return;
        }
        handle(ctx, req);
    }

    private static ArrayDeque<FullHttpRequest> waiting(ChannelHandlerContext ctx) {
        ArrayDeque<FullHttpRequest> q = ctx.channel().attr(WAITING).get();
        if (q == null) {
            q = new ArrayDeque<>();
            ctx.channel().attr(WAITING).set(q);
        }
        return q;
    }

    /** On the event loop, once an answer is written: the next waiting request, if any. */
    private void next(ChannelHandlerContext ctx) {
        ctx.channel().attr(BUSY).set(false);
        ArrayDeque<FullHttpRequest> q = ctx.channel().attr(WAITING).get();
        while (q != null && !q.isEmpty() && !Boolean.TRUE.equals(ctx.channel().attr(BUSY).get())) {
            FullHttpRequest r = q.poll();
            try {
                if (ctx.channel().isActive()) {
                    handle(ctx, r);
                }
            } finally {
                r.release();
            }
        }
        if (!Boolean.TRUE.equals(ctx.channel().attr(BUSY).get())) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        ArrayDeque<FullHttpRequest> q = ctx.channel().attr(WAITING).get();
        if (q != null) {
            for (FullHttpRequest r; (r = q.poll()) != null; ) {
                r.release();
            }
        }
        super.channelInactive(ctx);
    }

    private void handle(ChannelHandlerContext ctx, FullHttpRequest req) {
        QueryStringDecoder q = new QueryStringDecoder(req.uri());
        String path = q.path();
        boolean api = path.startsWith("/api/");
        Exchange x = new Exchange(HttpMethod.HEAD.equals(req.method()), HttpUtil.isKeepAlive(req), api);
        if (!req.decoderResult().isSuccess()) {
            reply(ctx, new Exchange(x.head, false, api), api ? ApiReply.error(400, "malformed request")
                    : text(400, "bad request\n"), null);
            return;
        }
        Router.Match m = router.match(req.method().name(), path);
        if (m instanceof Router.NotFound) {
            reply(ctx, x, api ? ApiReply.error(404, "no route " + path + " (see docs/design/control.md)")
                    : text(404, "not found: try /status, /metrics or /api/v1/engine\n"), null);
            return;
        }
        if (m instanceof Router.NotAllowed na) {
            ApiReply r = api ? ApiReply.error(405, "method not allowed: " + req.method() + " (allowed: " + na.allow() + ")")
                    : text(405, "method not allowed: " + req.method() + "\n");
            reply(ctx, x, r.withHeader("Allow", na.allow()), path);
            return;
        }
        Router.Endpoint e = ((Router.Found) m).endpoint();
        InetSocketAddress peer = ctx.channel().remoteAddress() instanceof InetSocketAddress a ? a : null;
        Authorizer.Decision d = authorizer.get().decide(e.access(), req.headers().get(HttpHeaderNames.AUTHORIZATION));
        if (d instanceof Authorizer.Refused r) {
            if (e.action() != null) {
                refusals.record(new Actor(r.token(), peer == null ? "unknown" : HostPort.format(peer)), e.action(),
                        Map.of(), r.message());
            }
            reply(ctx, x, ApiReply.error(r.status(), r.message()).withHeader("WWW-Authenticate", r.challenge()), path);
            return;
        }
        Principal principal = ((Authorizer.Allowed) d).principal();
        ApiRequest request = new ApiRequest(x.head ? "GET" : req.method().name(), path, q.parameters(),
                ByteBufUtil.getBytes(req.content()), peer, principal);
        Engine eng = engine.get();
        if (eng == null && api) {
            reply(ctx, x, ApiReply.error(503, "no engine behind this listener"), path);
            return;
        }
        // (the status routes read the snapshot through their own supplier and need no engine)
        Engine acting = eng == null ? null : eng.actingAs(request.actor());
        if (path.equals(EVENTS)) {
            ApiReply r = streams.start(ctx, request, req.headers().get("Last-Event-ID"), acting, x.head);
            if (r != null && r.status() != 200) {
                reply(ctx, x, r, path);
            } else {
                counted.accept(path, "ok");
                if (r == null) {
                    // the connection is the stream's from now on
                    ctx.channel().attr(BUSY).set(true);
                }
            }
            return;
        }
        ctx.channel().attr(BUSY).set(true);
        ctx.channel().config().setAutoRead(false);
        CompletableFuture<ApiReply> answer;
        try {
            answer = CompletableFuture.supplyAsync(() -> {
                try {
                    return e.handler().handle(request, acting);
                } catch (BadRequest b) {
                    throw new CompletionException(b);
                }
            }, worker).thenCompose(f -> f);
        } catch (RejectedExecutionException busy) {
            reply(ctx, x, ApiReply.error(503, "the control API is busy; try again"), path);
            next(ctx);
            return;
        }
        answer.whenComplete((r, err) -> {
            ApiReply out = r != null ? r : failure(err, e, request);
            reply(ctx, x, out, path);
            ctx.channel().eventLoop().execute(() -> next(ctx));
        });
    }

    /** A route that failed: its message, with the status its kind of failure means. */
    private ApiReply failure(Throwable err, Router.Endpoint e, ApiRequest request) {
        Throwable c = err;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        String m = c.getMessage() == null || c.getMessage().isBlank() ? "internal error" : c.getMessage();
        if (c instanceof BadRequest) {
            if (e.action() != null) {
                refusals.record(request.actor(), e.action(), Map.of(), "bad request: " + m);
            }
            return ApiReply.error(400, m);
        }
        if (c instanceof IllegalArgumentException) {
            return ApiReply.error(400, m);
        }
        if (c instanceof UnsupportedOperationException || (c instanceof IllegalStateException && unavailable(m))) {
            return ApiReply.error(503, m);
        }
        if (c instanceof IllegalStateException) {
            // the engine's state refuses it (a damaged admin_state file, say)
            return ApiReply.error(409, m);
        }
        LOG.log(Level.ERROR, "control API " + e.method() + " " + e.path() + " failed", c);
        return ApiReply.error(500, "internal error: " + m);
    }

    /** The engine is not running, or its loop did not answer: try again later. */
    private static boolean unavailable(String m) {
        return m.startsWith("engine is ") || m.contains("did not answer") || m.startsWith("snapshot unavailable")
                || m.startsWith("no running service");
    }

    private void reply(ChannelHandlerContext ctx, Exchange x, ApiReply r, String path) {
        counted.accept(path, r.result());
        byte[] bytes = r.body().getBytes(StandardCharsets.UTF_8);
        ByteBuf content = x.head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes);
        FullHttpResponse out = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()),
                content);
        out.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType());
        out.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        out.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        r.headers().forEach((k, v) -> out.headers().set(k, v));
        boolean keepAlive = x.keepAlive && r.status() != 400;
        HttpUtil.setKeepAlive(out, keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(out, ctx.voidPromise());
        } else {
            ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static ApiReply text(int status, String body) {
        return new ApiReply(status, ApiReply.TEXT, body, Map.of(), ApiReply.resultOf(status));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            // a client that opened a connection and sent nothing (or stopped mid-request)
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Oversized request lines/headers, a failed TLS handshake, a reset: the connection is
        // closed, nothing escapes the pipeline.
        if (!(cause instanceof TooLongFrameException)) {
            LOG.log(Level.DEBUG, "status connection error: " + cause);
        }
        ctx.close();
    }
}
