package lookout.engine.dns.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

/**
 * DNS over TCP framing (RFC 1035 §4.2.2, RFC 7766 §8): every message preceded by its length in
 * two bytes, big-endian. The one codec of the engine for it: the client listener and the upstream
 * TCP retry both frame and unframe here. Buffers only, no channel: a {@link Reader} is fed what a
 * connection reads and hands back whole messages.
 */
public final class TcpFrames {

    /** The longest message a 2-byte length can announce. */
    public static final int MAX_MESSAGE = 0xFFFF;

    private TcpFrames() {
    }

    /** {@code message} with its length in front, in a new heap buffer for a single write. */
    public static ByteBuf frame(byte[] message) {
        if (message.length > MAX_MESSAGE) {
            throw new IllegalArgumentException("a DNS message over TCP is at most 65535 bytes, not " + message.length);
        }
        return Unpooled.buffer(2 + message.length).writeShort(message.length).writeBytes(message);
    }

    /**
     * One connection's incoming stream: bytes in as they are read, whole messages out (a frame of
     * any length, 0 included: judging the message is the caller's business). What is left of a
     * frame not yet whole is kept in a buffer of the connection's allocator, given back once the
     * stream is drained and on {@link #release}.
     *
     * <p>Concurrency: confined to the connection's I/O thread.
     */
    public static final class Reader {
        private ByteBuf pending;

        /** Takes {@code in}'s readable bytes (copied: the caller still releases {@code in}). */
        public void add(ByteBufAllocator alloc, ByteBuf in) {
            if (!in.isReadable()) {
                return;
            }
            if (pending == null) {
                pending = alloc.buffer(Math.max(512, in.readableBytes()));
            }
            pending.writeBytes(in);
        }

        /** The next whole message, or null until more bytes come. */
        public byte[] next() {
            if (pending == null) {
                return null;
            }
            if (pending.readableBytes() >= 2) {
                int length = pending.getUnsignedShort(pending.readerIndex());
                if (pending.readableBytes() >= 2 + length) {
                    byte[] message = new byte[length];
                    pending.getBytes(pending.readerIndex() + 2, message);
                    pending.skipBytes(2 + length);
                    return message;
                }
            }
            if (!pending.isReadable()) {
                release(); // drained: an idle connection holds no buffer
            } else {
                pending.discardSomeReadBytes();
            }
            return null;
        }

        /** Bytes held of frames not yet whole. */
        public int buffered() {
            return pending == null ? 0 : pending.readableBytes();
        }

        /** Gives the buffer back (the connection closed); idempotent. */
        public void release() {
            if (pending != null) {
                pending.release();
                pending = null;
            }
        }
    }
}
