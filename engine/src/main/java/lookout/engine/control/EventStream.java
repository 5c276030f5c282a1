package lookout.engine.control;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Engine;
import lookout.engine.api.EventsSince;
import lookout.engine.api.SequencedEvent;
import lookout.engine.json.JsonWriter;

/**
 * {@code GET /api/v1/events}: the engine's events as server-sent events (WHATWG HTML §9.2,
 * {@code text/event-stream}): each one {@code id: SEQ}, {@code event: TYPE}, {@code data: JSON}.
 * A client that reconnects sends the last id it saw ({@code Last-Event-ID}, as browsers' EventSource
 * does, or {@code ?since=SEQ}) and gets every kept event after it, then live ones, none twice and
 * none missed; when what it asks for is no longer kept (or was never reached: the state was
 * reset), the first message is {@code event: gap} with {@code data: {"from":SEQ,"to":FIRST_KEPT}}.
 * Without either, the stream starts with the next event. A comment line every
 * {@link #KEEPALIVE_SECONDS} s keeps proxies and NAT tables from dropping a quiet stream.
 *
 * <p>Concurrency: everything of one stream runs on its channel's event loop: the journal's
 * listener (called on whichever thread published) only hands each event to that loop. The
 * subscription is made before the kept events are read, on that loop, and events are sent only
 * past the last sequence number sent, so the replay and the live tail join exactly.
 *
 * <p>A client that does not read is cut off once {@link #MAX_BUFFERED} bytes wait for it: it
 * reconnects with its last id, and the engine never holds more than that for it.
 */
public final class EventStream {

    private static final Logger LOG = System.getLogger("lookout.status");

    static final long KEEPALIVE_SECONDS = 15;
    /** Streams open at once; more are answered 503 (a console holds one). */
    static final int MAX_STREAMS = 64;
    static final long MAX_BUFFERED = 8L << 20;
    /** How long a client waits before reconnecting (the SSE {@code retry} field), in ms. */
    static final int RETRY_MILLIS = 2000;

    private final ControlCounters counters;
    private final long keepaliveMillis;

    public EventStream(ControlCounters counters) {
        this(counters, TimeUnit.SECONDS.toMillis(KEEPALIVE_SECONDS));
    }

    /** With another keepalive period, for tests. */
    EventStream(ControlCounters counters, long keepaliveMillis) {
        this.counters = counters;
        this.keepaliveMillis = keepaliveMillis;
    }

    /**
     * Starts a stream on {@code ctx}'s channel (called on its event loop).
     *
     * @param lastEventId the {@code Last-Event-ID} header, or null
     * @param head        true for a {@code HEAD} request: the headers only
     * @return the reply when no stream was started (400 for a bad resume point, 503 when full), else null
     */
    ApiReply start(ChannelHandlerContext ctx, ApiRequest request, String lastEventId, Engine engine, boolean head) {
        Long since;
        try {
            since = resumePoint(request.param("since"), lastEventId);
        } catch (BadRequest e) {
            return ApiReply.error(400, e.getMessage());
        }
        if (head) {
            HttpResponse r = responseHead();
            HttpUtil.setTransferEncodingChunked(r, false);
            r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
            ctx.write(r);
            ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            return new ApiReply(200, "text/event-stream", "", Map.of(), "ok");
        }
        if (counters.streams.incrementAndGet() > MAX_STREAMS) {
            counters.streams.decrementAndGet();
            return ApiReply.error(503, "too many event streams open (" + MAX_STREAMS + "); try again later");
        }
        Channel ch = ctx.channel();
        // A stream only writes: the request side's idle timeout must not end it.
        if (ctx.pipeline().get(ApiHandler.IDLE) != null) {
            ctx.pipeline().remove(ApiHandler.IDLE);
        }
        Stream s = new Stream(ch);
        ctx.write(responseHead());
        s.send("retry: " + RETRY_MILLIS + "\n\n");
        AutoCloseable sub = engine.subscribeSequenced(e -> ch.eventLoop().execute(() -> s.deliver(e)));
        if (since == null) {
            s.lastSent = engine.eventsSince(Long.MAX_VALUE).last();
        } else {
            EventsSince kept = engine.eventsSince(since);
            s.lastSent = since;
            if (kept.gap()) {
                Map<String, Object> gap = new LinkedHashMap<>();
                gap.put("from", since);
                gap.put("to", kept.firstKept());
                s.send("event: gap\ndata: " + JsonWriter.write(gap) + "\n\n");
                if (since > kept.last()) {
                    // a reset journal: everything it keeps is news to this client
                    kept = engine.eventsSince(0);
                    s.lastSent = 0;
                }
            }
            for (SequencedEvent e : kept.events()) {
                s.deliver(e);
            }
        }
        ch.flush();
        ScheduledFuture<?> keepalive = ch.eventLoop().scheduleAtFixedRate(() -> s.send(": keepalive\n\n"),
                keepaliveMillis, keepaliveMillis, TimeUnit.MILLISECONDS);
        ch.closeFuture().addListener((ChannelFutureListener) f -> {
            keepalive.cancel(false);
            counters.streams.decrementAndGet();
            try {
                sub.close();
            } catch (Exception e) {
                LOG.log(Level.DEBUG, "event stream unsubscribe: " + e.getMessage());
            }
        });
        return null;
    }

    /** {@code ?since=} wins over {@code Last-Event-ID}; both absent: null (live only). */
    static Long resumePoint(String since, String lastEventId) throws BadRequest {
        String v = since != null ? since : lastEventId;
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            long n = Long.parseLong(v.strip());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new BadRequest((since != null ? "since" : "Last-Event-ID") + ": expected an event sequence number "
                    + "(0 or more), found '" + v + "'");
        }
    }

    private static HttpResponse responseHead() {
        HttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        // reverse proxies (nginx) would buffer the stream otherwise
        r.headers().set("X-Accel-Buffering", "no");
        HttpUtil.setTransferEncodingChunked(r, true);
        return r;
    }

    /** One open stream; confined to its channel's event loop. */
    private final class Stream {
        final Channel ch;
        long lastSent;

        Stream(Channel ch) {
            this.ch = ch;
        }

        void deliver(SequencedEvent e) {
            if (e.seq() <= lastSent || !ch.isActive()) {
                return;
            }
            lastSent = e.seq();
            String type = e.event().getClass().getSimpleName();
            send("id: " + e.seq() + "\nevent: " + type + "\ndata: " + JsonWriter.write(e.event()) + "\n\n");
            ch.flush();
        }

        void send(String text) {
            ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
            if (out == null || !ch.isActive()) {
                return;
            }
            if (out.totalPendingWriteBytes() > MAX_BUFFERED) {
                LOG.log(Level.INFO, "event stream to " + ch.remoteAddress() + " closed: the client reads too slowly "
                        + "(it resumes from its last event id)");
                ch.close();
                return;
            }
            ch.write(new DefaultHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8)));
            if (text.startsWith(":")) {
                ch.flush();
            }
        }
    }
}
