package lookout.engine.pva.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.PvaTickSnapshot;
import lookout.engine.api.Scheduler;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.SearchRequest;

/**
 * Turns the {@link SearchRing} (seed 002 §3.2): the one-shot 10-ms timer that searches new
 * channels together, the 1-s tick (200 ms while hurrying up), the hurry-up with its 30-s holdoff;
 * each drain packed into datagrams ({@link SearchPacker}, §3.3) that the {@link SearchFanOut} sends
 * to every destination and name server. Discovery pings (§7) leave the same way, outside the ring.
 *
 * <p>Every timer goes through the {@link Scheduler}; the ring is pure and is given {@code now}.
 *
 * <p>Concurrency: engine loop only.
 */
final class SearchDriver implements ChannelRegistry.Searching {

    private final Scheduler scheduler;
    private final ClientCounters counters;
    private final SearchFanOut fanOut;
    private final SearchRing ring = new SearchRing();
    private SearchPacker packer;
    private int replyPort;
    private boolean running;
    private Scheduler.Cancellable tickTimer = Scheduler.Cancellable.NONE;
    private Scheduler.Cancellable initialTimer = Scheduler.Cancellable.NONE;
    private long nextTickAt;
    private PvaTickSnapshot lastTick = PvaTickSnapshot.NONE;

    SearchDriver(Scheduler scheduler, ClientCounters counters, SearchFanOut fanOut) {
        this.scheduler = scheduler;
        this.counters = counters;
        this.fanOut = fanOut;
    }

    /** The UDP port searches ask replies on (the search socket's); before the first channel. */
    void replyPort(int port) {
        this.replyPort = port;
        this.packer = new SearchPacker(ByteBufAllocator.DEFAULT, port, fanOut);
    }

    /** Starts the tick; channels referenced before this are searched by the 10-ms timer already armed. */
    void start() {
        running = true;
        nextTickAt = scheduler.nanoTime() + SearchRing.TICK;
        ring.nextTickAt(nextTickAt);
        tickTimer = scheduler.schedule(this::onTick, SearchRing.TICK, TimeUnit.NANOSECONDS);
    }

    void stop() {
        running = false;
        tickTimer.cancel();
        initialTimer.cancel();
    }

    // ------------------------------------------------------------------ ChannelRegistry.Searching

    @Override
    public boolean fits(int utf8Length) {
        return packer.fitsBuffer(utf8Length);
    }

    @Override
    public void begin(PvChannel c) {
        long delay = ring.addNew(c, scheduler.nanoTime());
        if (delay >= 0) {
            initialTimer = scheduler.schedule(this::onInitial, delay, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void end(PvChannel c) {
        ring.remove(c);
    }

    @Override
    public void again(PvChannel c) {
        ring.reenter(c, SearchRing.Placement.CURSOR);
    }

    // ------------------------------------------------------------------ the timers

    /** §3.2: the channels created within 10 ms, searched together. */
    private void onInitial() {
        if (!running) {
            return;
        }
        packer.begin();
        long now = scheduler.nanoTime();
        fanOut.together(() -> {
            try {
                ring.drainInitial(c -> stamped(c, now));
            } finally {
                packer.flush();
            }
        });
        recordTick(-1, false);
    }

    private void onTick() {
        if (!running) {
            return;
        }
        long now = scheduler.nanoTime();
        int bucket = ring.cursor();
        boolean fast = ring.hurryingUp();
        long[] delay = {SearchRing.TICK};
        packer.begin();
        try {
            fanOut.together(() -> {
                try {
                    delay[0] = ring.tick(now, c -> stamped(c, now));
                } finally {
                    packer.flush();
                }
            });
        } finally {
            // always re-arm, whatever happened in the drain: the ring must keep turning
            nextTickAt = now + delay[0];
            ring.nextTickAt(nextTickAt);
            tickTimer = scheduler.schedule(this::onTick, delay[0], TimeUnit.NANOSECONDS);
        }
        recordTick(bucket, fast);
    }

    /** Packs a channel's name, noting when (what "why?" reports as the last search). */
    private void stamped(PvChannel c, long now) {
        c.lastSearchNanos = now;
        packer.search(c);
    }

    private void recordTick(int bucket, boolean fast) {
        lastTick = new PvaTickSnapshot(scheduler.now(), bucket, packer.names(), packer.datagrams(), packer.bytes(),
                packer.maxDatagram(), fast);
        counters.searchDatagrams += packer.datagrams();
        counters.searchBytes += packer.bytes();
        counters.searchNames += packer.names();
    }

    /** §9 hurryUp(): one fast revolution, then a 30-s holdoff. False when refused. */
    boolean hurryUp() {
        if (!running) {
            return false;
        }
        long now = scheduler.nanoTime();
        if (!ring.hurryUp(now)) {
            return false;
        }
        counters.hurryUps++;
        tickTimer.cancel();
        nextTickAt = now;
        ring.nextTickAt(now);
        tickTimer = scheduler.schedule(this::onTick, 0, TimeUnit.NANOSECONDS);
        return true;
    }

    /** §7: empty protocol list, no names, MustReply; sent like any search, outside the ring. */
    void discoveryPing() {
        if (!running) {
            return;
        }
        ByteBuf ping = ByteBufAllocator.DEFAULT.buffer(64);
        try {
            PvaCodec.encode(SearchRequest.discoveryPing(replyPort), ping);
            fanOut.together(() -> fanOut.datagram(ping, 0));
            counters.discoveryPings++;
        } finally {
            ping.release();
        }
    }

    // ------------------------------------------------------------------ reading

    SearchRing ring() {
        return ring;
    }

    PvaTickSnapshot lastTick() {
        return lastTick;
    }

    long nextTickAt() {
        return nextTickAt;
    }
}
