package lookout.engine.control;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;

/**
 * Aggregates a request and its body up to {@link #MAX_BODY}; a larger one is answered 400 with a
 * JSON message (docs/design/control.md: malformed or oversized → 400) and the connection closed,
 * before the rest of its body is read.
 */
public final class ControlAggregator extends HttpObjectAggregator {

    /** The largest request body: a configuration text is far smaller. */
    public static final int MAX_BODY = 1 << 20;

    private final BiConsumer<String, String> counted;

    public ControlAggregator(BiConsumer<String, String> counted) {
        super(MAX_BODY);
        this.counted = counted;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        counted.accept(null, "bad_request");
        byte[] body = "{\"error\":\"the request body is over 1 MiB\"}\n".getBytes(StandardCharsets.UTF_8);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_REQUEST,
                Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, ApiReply.JSON);
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        r.headers().set(HttpHeaderNames.CONNECTION, "close");
        ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
    }
}
