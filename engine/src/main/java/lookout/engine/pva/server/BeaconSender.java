package lookout.engine.pva.server;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import lookout.engine.api.Scheduler;
import lookout.engine.pva.wire.Beacon;
import lookout.engine.pva.wire.Guid;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.WireAddress;

/**
 * Sends CMD_BEACON on the {@link BeaconSchedule} (seed 002 §4: 15 s for the first ten, then
 * 180 s) to {@code pva.beacon_addr_list} and, with {@code auto_beacon_addr_list}, to each
 * interface's broadcast address. The address field is sent as {@code ::ffff:0.0.0.0} ("the
 * datagram's source", as PVXS sends it) and the status as the null type code. Confined to the
 * engine loop; every timer through the {@link Scheduler}.
 */
final class BeaconSender {

    /** Where the bytes go; the UDP listener in production, a list in tests. */
    interface Out {
        boolean send(ByteBuf beacon, InetSocketAddress to);

        io.netty.buffer.ByteBufAllocator alloc();
    }

    private final Scheduler scheduler;
    private final Guid guid;
    private final SourceRegistry registry;
    private final IntSupplier tcpPort;
    private final ServerCounters counters;
    private final Out out;
    private List<InetSocketAddress> destinations;
    private BeaconSchedule schedule;
    private Scheduler.Cancellable timer = Scheduler.Cancellable.NONE;
    private boolean stopped;

    BeaconSender(Scheduler scheduler, Guid guid, SourceRegistry registry, IntSupplier tcpPort,
                 ServerCounters counters, Out out, List<InetSocketAddress> destinations) {
        this.scheduler = scheduler;
        this.guid = guid;
        this.registry = registry;
        this.tcpPort = tcpPort;
        this.counters = counters;
        this.out = out;
        this.destinations = List.copyOf(destinations);
    }

    void start() {
        schedule = new BeaconSchedule(scheduler.nanoTime());
        fire();
    }

    /** New destinations after a reload; the schedule goes on. */
    void destinations(List<InetSocketAddress> list) {
        this.destinations = List.copyOf(list);
    }

    List<InetSocketAddress> destinations() {
        return destinations;
    }

    private void fire() {
        if (stopped) {
            return;
        }
        long now = scheduler.nanoTime();
        try {
            sendAll(schedule.count());
        } finally {
            long delay = schedule.sent(now);
            timer = scheduler.schedule(this::fire, delay, TimeUnit.NANOSECONDS);
        }
    }

    private void sendAll(long sequence) {
        Beacon b = new Beacon(guid, 0, (int) (sequence & 0xFF), registry.changeCount(), WireAddress.ANY_MAPPED,
                tcpPort.getAsInt(), "tcp");
        for (InetSocketAddress to : destinations) {
            ByteBuf buf = out.alloc().buffer(47);
            PvaCodec.encode(b, buf);
            if (out.send(buf, to)) {
                counters.beaconsSent.increment();
            } else {
                counters.sendBacklog.increment();
            }
        }
    }

    void stop() {
        stopped = true;
        timer.cancel();
    }
}
