package lookout.engine.pva.pvserve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;

/**
 * Hostile request streams against one connection's channel session (a client that never reads
 * included): whatever arrives — oversized sizes and lengths, unknown commands, truncated bodies,
 * segments out of place, IOIDs reused, garbage — no exception leaves the handler, the session holds
 * no more than its limits allow (channels, operations, one pending update per monitor, nothing
 * queued past the soft limit once the client stops reading), and another connection keeps being
 * served.
 */
class HostileStreamProperties {

    private final SessionHarness h = new SessionHarness();

    @AfterProperty
    void close() {
        h.close();
    }

    @Provide
    Arbitrary<List<byte[]>> streams() {
        Arbitrary<byte[]> garbage = Arbitraries.bytes().array(byte[].class).ofMaxSize(64).map(b -> {
            byte[] m = PvClientBytes.message(Arbitraries.integers().between(0, 255).sample(), true,
                    w -> w.buffer().writeBytes(b));
            return m;
        });
        Arbitrary<byte[]> oversizedSize = Arbitraries.integers().between(0, 0x7FFFFFFF)
                .map(n -> PvClientBytes.message(ChannelMessages.CMD_CREATE_CHANNEL, true,
                        w -> w.i16(1).i32(1).u8(0xFE).i32(n)));
        Arbitrary<byte[]> hugeCount = Arbitraries.integers().between(1, 0xFFFF)
                .map(n -> PvClientBytes.message(ChannelMessages.CMD_CREATE_CHANNEL, true,
                        w -> w.i16(n).i32(1).string(SessionHarness.PV)));
        Arbitrary<byte[]> unknown = Arbitraries.integers().between(0x17, 0xFF)
                .map(cmd -> PvClientBytes.message(cmd, true, w -> w.i32(1)));
        Arbitrary<byte[]> create = Arbitraries.integers().between(0, 3)
                .map(cid -> PvClientBytes.createChannel(cid % 2 == 0, cid, cid == 3 ? "nope" : SessionHarness.PV));
        Arbitrary<byte[]> monitor = Arbitraries.integers().between(1, 4).flatMap(sid -> Arbitraries.integers()
                .between(1, 2000).map(ioid -> PvClientBytes.monitorInit(true, sid, ioid, PvClientBytes::emptyRequest, 0)));
        Arbitrary<byte[]> start = Arbitraries.integers().between(1, 2000)
                .map(ioid -> PvClientBytes.monitor(true, 1, ioid, 0x44));
        Arbitrary<byte[]> ack = Arbitraries.integers()
                .map(n -> PvClientBytes.monitorAck(true, 1, 1, n));
        Arbitrary<byte[]> get = Arbitraries.integers().between(1, 8)
                .map(ioid -> PvClientBytes.getInit(ioid % 2 == 0, 1, ioid, PvClientBytes.pipelineRequest(ioid)));
        Arbitrary<byte[]> segment = Arbitraries.of(0x10, 0x20, 0x30).map(seg -> PvClientBytes.message(
                ChannelMessages.CMD_GET, true, seg, w -> w.i32(1)));
        Arbitrary<byte[]> truncatedType = Arbitraries.bytes().array(byte[].class).ofMaxSize(24)
                .map(b -> PvClientBytes.message(ChannelMessages.CMD_MONITOR, true,
                        w -> w.i32(1).i32(99).u8(0x08).buffer().writeBytes(b)));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, create), net.jqwik.api.Tuple.of(3, monitor), net.jqwik.api.Tuple.of(2, start),
                net.jqwik.api.Tuple.of(1, ack), net.jqwik.api.Tuple.of(2, get), net.jqwik.api.Tuple.of(2, garbage),
                net.jqwik.api.Tuple.of(1, oversizedSize), net.jqwik.api.Tuple.of(1, hugeCount),
                net.jqwik.api.Tuple.of(1, unknown), net.jqwik.api.Tuple.of(1, segment),
                net.jqwik.api.Tuple.of(2, truncatedType)).list().ofMaxSize(60);
    }

    @Property(tries = 300)
    void noHostileStreamEscapesItsConnection(@ForAll("streams") List<byte[]> stream, @ForAll boolean neverReads) {
        SessionHarness.Peer good = h.connect();
        good.write(PvClientBytes.createChannel(true, 1, SessionHarness.PV));
        good.replies();
        SessionHarness.Peer bad = h.connect();
        if (neverReads) {
            bad.queued = Long.MAX_VALUE / 2;
        }
        for (byte[] m : stream) {
            // message() is the handler the I/O thread calls: nothing may come out of it
            bad.write(m);
        }
        for (int i = 0; i < 40; i++) {
            h.post(i, i % 3, 0, 1, 2);
        }
        PvServeLimits limits = PvServeLimits.DEFAULT;
        PvHost.Load load = h.clock.call(h.host::load);
        assertThat(load.channels()).isLessThanOrEqualTo(2 * limits.maxChannels());
        assertThat(load.monitors()).isLessThanOrEqualTo(limits.maxOperations());
        if (neverReads) {
            // backed up: nothing more was written for it after the first update of each monitor
            int before = bad.sent.size();
            h.post(99, 0, 0);
            assertThat(bad.sent.size()).isEqualTo(before);
        }
        // the other connection is served as ever
        good.write(PvClientBytes.getInit(true, 1, 1, PvClientBytes::emptyRequest));
        assertThat(good.replies()).singleElement().satisfies(r -> assertThat(r.command()).isEqualTo(ChannelMessages.CMD_GET));
        assertThat(good.closed).isFalse();
        good.session.closed();
        bad.session.closed();
        h.settle();
        assertThat(h.clock.call(() -> h.scalar.subscribers())).isZero();
    }
}
