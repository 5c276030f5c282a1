package lookout.engine.pva.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import lookout.engine.pva.wire.SearchDatagramBuilder;

/**
 * Packs the channels of one drain into SEARCH datagrams (seed 002 §3.3): at most 1400 bytes each,
 * a name that does not fit deferred to the next datagram, a name too long for an empty datagram
 * sent alone. Each finished datagram goes to the {@link Sink}, which sends it to every destination
 * and every ready name server; the packer releases it afterwards.
 *
 * <p>Concurrency: confined to the engine loop.
 */
final class SearchPacker implements SearchRing.Packer {

    /** Where finished datagrams go; must not keep {@code datagram} past the call (retain to keep). */
    interface Sink {
        void datagram(ByteBuf datagram, int names);
    }

    private final ByteBufAllocator alloc;
    private final SearchDatagramBuilder builder;
    private final Sink sink;
    private ByteBuf current;

    // per-drain figures
    private int datagrams;
    private long bytes;
    private int names;
    private int maxDatagram;

    SearchPacker(ByteBufAllocator alloc, int replyPort, Sink sink) {
        this.alloc = alloc;
        this.builder = new SearchDatagramBuilder(replyPort);
        this.sink = sink;
    }

    /** Resets the per-drain figures. */
    void begin() {
        datagrams = 0;
        bytes = 0;
        names = 0;
        maxDatagram = 0;
    }

    @Override
    public void search(PvChannel c) {
        int len = ByteBufUtil.utf8Bytes(c.name);
        if (current == null) {
            open();
        }
        if (!builder.tryAdd(c.cid, c.name, len)) {
            flush();
            open();
            // an empty datagram takes any name that fits the buffer; the service refuses longer
            // names before they become channels (§3.3), so this cannot fail
            builder.tryAdd(c.cid, c.name, len);
        }
        names++;
    }

    private void open() {
        current = alloc.buffer(1400);
        builder.start(current);
    }

    /** Finishes and hands over the datagram being filled, if any. */
    void flush() {
        if (current == null) {
            return;
        }
        ByteBuf d = current;
        current = null;
        try {
            if (builder.count() > 0) {
                builder.finish();
                datagrams++;
                bytes += d.readableBytes();
                maxDatagram = Math.max(maxDatagram, d.readableBytes());
                sink.datagram(d, builder.count());
            }
        } finally {
            d.release();
        }
    }

    int datagrams() {
        return datagrams;
    }

    long bytes() {
        return bytes;
    }

    int names() {
        return names;
    }

    int maxDatagram() {
        return maxDatagram;
    }

    boolean fitsBuffer(int utf8Length) {
        return builder.fitsBuffer(utf8Length);
    }
}
