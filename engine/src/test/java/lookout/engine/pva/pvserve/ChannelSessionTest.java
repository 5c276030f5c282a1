package lookout.engine.pva.pvserve;

import static lookout.engine.pva.pvserve.ChannelMessages.*;
import static lookout.engine.pva.pvserve.PvClientBytes.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import lookout.engine.pva.pvdata.BitSets;
import lookout.engine.pva.pvdata.NormativeTypes;
import lookout.engine.pva.pvdata.PvReader;
import lookout.engine.pva.pvdata.PvStatus;
import lookout.engine.pva.pvdata.TypeCodec;
import lookout.engine.pva.pvdata.ValueCodec;
import lookout.engine.pva.pvserve.PvClientBytes.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server side of PVA channels, message by message in virtual time, against a connection that
 * is a byte sink: create, get, monitor with and without pipeline, get-field, destroy; writes
 * refused; requests in either byte order and in segments; the limits; malformed input closing the
 * connection; a client that never reads.
 */
class ChannelSessionTest {

    private final SessionHarness h = new SessionHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private static int created(List<Reply> r) {
        assertThat(r).hasSize(1);
        assertThat(r.get(0).command()).isEqualTo(CMD_CREATE_CHANNEL);
        return r.get(0).i32(4);
    }

    private Object[] readUpdate(Reply r, Object[] into) throws Exception {
        PvReader rd = r.reader();
        rd.skip(5, "ioid, subcmd");
        ValueCodec.decodeSelected(h.scalar.type(), into, rd, new TypeCodec.Registry());
        BitSets.decode(rd); // overrun
        assertThat(rd.remaining()).isZero();
        return into;
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void createGetAndDestroyInEitherByteOrder(boolean be) throws Exception {
        SessionHarness.Peer c = h.connect();
        c.write(createChannel(be, 7, SessionHarness.PV));
        List<Reply> r = c.replies();
        assertThat(r.get(0).i32(0)).isEqualTo(7);
        int sid = created(r);
        assertThat(r.get(0).status(8)).isEqualTo(PvStatus.OK);
        assertThat(r.get(0).flags()).isEqualTo(0xC0); // server, big-endian whatever the client sent

        c.write(getInit(be, sid, 1, PvClientBytes::emptyRequest));
        Reply init = c.replies().get(0);
        assertThat(init.command()).isEqualTo(CMD_GET);
        assertThat(init.initType()).isEqualTo(h.scalar.type());

        c.write(getExec(be, sid, 1, SUB_GET | SUB_DESTROY));
        Reply got = c.replies().get(0);
        PvReader rd = got.reader();
        rd.skip(5, "head");
        assertThat(PvStatus.decode(rd)).isEqualTo(PvStatus.OK);
        Object[] v = new Object[4];
        BitSet bits = ValueCodec.decodeSelected(h.scalar.type(), v, rd, new TypeCodec.Registry());
        assertThat(bits.get(0)).isTrue();
        assertThat(v[0]).isEqualTo(1.5);
        // destroyed with the GET: a second GET on that IOID is nothing
        c.write(getExec(be, sid, 1, SUB_GET));
        assertThat(c.replies()).isEmpty();

        c.write(destroyChannel(be, sid, 7));
        Reply d = c.replies().get(0);
        assertThat(d.command()).isEqualTo(CMD_DESTROY_CHANNEL);
        assertThat(d.i32(0)).isEqualTo(sid);
        assertThat(h.clock.call(() -> h.host.load().channels())).isZero();
        assertThat(c.closed).isFalse();
    }

    @Test
    void anUnknownNameIsRefusedWithAStatusNotAClose() throws Exception {
        SessionHarness.Peer c = h.connect();
        c.write(createChannel(true, 3, "not:here"));
        Reply r = c.replies().get(0);
        assertThat(r.i32(4)).isEqualTo(-1);
        assertThat(r.status(8).message()).isEqualTo("no PV called not:here here");
        assertThat(c.closed).isFalse();
    }

    @Test
    void aMonitorSendsTheWholeValueFirstThenWhatChanged() throws Exception {
        SessionHarness.Peer c = h.connect();
        c.write(createChannel(true, 1, SessionHarness.PV));
        int sid = created(c.replies());
        c.write(monitorInit(true, sid, 9, PvClientBytes::emptyRequest, 0));
        assertThat(c.replies().get(0).initType()).isEqualTo(h.scalar.type());
        h.post(2.0, 0, NormativeTypes.SCALAR_VALUE); // before START: nothing
        assertThat(c.replies()).isEmpty();

        c.write(monitor(true, sid, 9, SUB_START_STOP | SUB_GET));
        List<Reply> first = c.replies();
        assertThat(first).hasSize(1);
        assertThat(first.get(0).i32(0)).isEqualTo(9);
        assertThat(first.get(0).body()[4]).isZero(); // subcommand 0: an update
        Object[] v = readUpdate(first.get(0), new Object[4]);
        assertThat(v[0]).isEqualTo(2.0);

        h.post(3.0, 2, NormativeTypes.SCALAR_VALUE, NormativeTypes.SCALAR_ALARM, NormativeTypes.SCALAR_TIME);
        Reply up = c.replies().get(0);
        PvReader rd = up.reader();
        rd.skip(5, "head");
        BitSet bits = BitSets.decode(rd);
        assertThat(bits.stream().toArray()).containsExactly(1, 2, 6);
        readUpdate(up, v);
        assertThat(v[0]).isEqualTo(3.0);
        assertThat(((Object[]) v[1])[0]).isEqualTo(2);

        c.write(monitor(true, sid, 9, SUB_START_STOP)); // STOP
        h.post(4.0, 0, NormativeTypes.SCALAR_VALUE);
        assertThat(c.replies()).isEmpty();
        c.write(monitor(true, sid, 9, SUB_DESTROY));
        assertThat(h.clock.call(() -> h.scalar.subscribers())).isZero();
    }

    @Test
    void aPipelinedMonitorStopsAtItsWindowAndMergesUntilAcked() throws Exception {
        SessionHarness.Peer c = h.connect();
        c.write(createChannel(true, 1, SessionHarness.PV));
        int sid = created(c.replies());
        c.write(monitorInit(true, sid, 4, PvClientBytes.pipelineRequest(2), 2));
        c.replies();
        c.write(monitor(true, sid, 4, SUB_START_STOP | SUB_GET)); // 1st of 2: the whole value
        assertThat(c.replies()).hasSize(1);
        h.post(10, 0, NormativeTypes.SCALAR_VALUE); // 2nd of 2
        assertThat(c.replies()).hasSize(1);
        h.post(11, 0, NormativeTypes.SCALAR_VALUE); // window closed: merged
        h.post(12, 0, NormativeTypes.SCALAR_VALUE);
        h.post(13, 1, NormativeTypes.SCALAR_ALARM);
        assertThat(c.replies()).isEmpty();
        c.write(monitorAck(true, sid, 4, 2));
        List<Reply> r = c.replies();
        assertThat(r).hasSize(1); // one update carrying the newest value
        PvReader rd = r.get(0).reader();
        rd.skip(5, "head");
        assertThat(BitSets.decode(rd).stream().toArray()).containsExactly(1, 2);
        Object[] v = readUpdate(r.get(0), new Object[] {0.0, NormativeTypes.alarm(0, 0, ""), null, null});
        assertThat(v[0]).isEqualTo(13.0);
        // the value changed again while waiting: reported as overrun
        PvReader o = r.get(0).reader();
        o.skip(5, "head");
        ValueCodec.decodeSelected(h.scalar.type(), new Object[4], o, new TypeCodec.Registry());
        assertThat(BitSets.decode(o).stream().toArray()).containsExactly(1);
    }

    @Test
    void aFieldRequestSelectsTopLevelFields() throws Exception {
        SessionHarness.Peer c = h.connect();
        c.write(createChannel(true, 1, SessionHarness.PV));
        int sid = created(c.replies());
        c.write(monitorInit(true, sid, 5, PvClientBytes.fields("value", "timeStamp"), 0));
        c.replies();
        c.write(monitor(true, sid, 5, SUB_START_STOP | SUB_GET));
        PvReader rd = c.replies().get(0).reader();
        rd.skip(5, "head");
        assertThat(BitSets.decode(rd).stream().toArray()).containsExactly(1, 6);
        h.post(8, 2, NormativeTypes.SCALAR_ALARM); // not selected: nothing
        assertThat(c.replies()).isEmpty();

        c.write(getInit(true, sid, 6, PvClientBytes.fields("nothing")));
        Reply refused = c.replies().get(0);
        assertThat(refused.status(5).type()).isEqualTo(PvStatus.ERROR);
        assertThat(refused.status(5).message()).contains("nothing");
    }

    @Test
    void getFieldDescribesThePvOrOneOfItsFields() throws Exception {
        SessionHarness.Peer c = h.connect();
        c.write(createChannel(true, 1, SessionHarness.TABLE));
        int sid = created(c.replies());
        c.write(getField(true, sid, 2, ""));
        PvReader rd = c.replies().get(0).reader();
        assertThat(rd.i32("ioid")).isEqualTo(2);
        assertThat(PvStatus.decode(rd)).isEqualTo(PvStatus.OK);
        assertThat(TypeCodec.decode(rd, new TypeCodec.Registry())).isEqualTo(h.table.type());
        c.write(getField(true, sid, 3, "alarm.severity"));
        rd = c.replies().get(0).reader();
        rd.skip(4, "ioid");
        PvStatus.decode(rd);
        assertThat(TypeCodec.decode(rd, new TypeCodec.Registry())).isEqualTo(NormativeTypes.ALARM.members().get(0).type());
        c.write(getField(true, sid, 4, "nope"));
        assertThat(c.replies().get(0).status(4).message()).isEqualTo("no field nope in test:table");
    }

    @Test
    void writesAreRefusedWithAClearStatus() throws Exception {
        SessionHarness.Peer c = h.connect();
        c.write(createChannel(true, 1, SessionHarness.PV));
        int sid = created(c.replies());
        c.write(putInit(true, sid, 8));
        Reply r = c.replies().get(0);
        assertThat(r.command()).isEqualTo(CMD_PUT);
        assertThat(r.i32(0)).isEqualTo(8);
        assertThat(r.status(5)).isEqualTo(PvStatus.error("PUT refused: Lookout's status PVs are read-only"));
        assertThat(h.clock.call(() -> h.host.counters().writesRefused)).isEqualTo(1);
        assertThat(c.closed).isFalse();
    }

    @Test
    void aSegmentedRequestIsReassembled() throws Exception {
        SessionHarness.Peer c = h.connect();
        byte[] whole = createChannel(true, 5, SessionHarness.PV);
        byte[] body = java.util.Arrays.copyOfRange(whole, 8, whole.length);
        int cut = 3;
        c.write(message(CMD_CREATE_CHANNEL, true, 0x10, w -> w.buffer().writeBytes(body, 0, cut)));
        assertThat(c.replies()).isEmpty();
        c.write(message(CMD_CREATE_CHANNEL, true, 0x30, w -> w.buffer().writeBytes(body, cut, 2)));
        c.write(message(CMD_CREATE_CHANNEL, true, 0x20, w -> w.buffer().writeBytes(body, cut + 2, body.length - cut - 2)));
        assertThat(created(c.replies())).isPositive();
    }

    @Test
    void malformedInputClosesThatConnectionOnlyAndIsCounted() throws Exception {
        SessionHarness.Peer good = h.connect();
        good.write(createChannel(true, 1, SessionHarness.PV));
        int sid = created(good.replies());
        SessionHarness.Peer bad = h.connect();
        bad.write(message(CMD_CREATE_CHANNEL, true, w -> w.i16(1).i32(1).u8(0xFE).i32(0x7FFFFFFF))); // oversized size
        assertThat(bad.closed).isTrue();
        SessionHarness.Peer reuse = h.connect();
        reuse.write(createChannel(true, 1, SessionHarness.PV));
        int s2 = created(reuse.replies());
        reuse.write(getInit(true, s2, 1, PvClientBytes::emptyRequest));
        reuse.write(getInit(true, s2, 1, PvClientBytes::emptyRequest)); // IOID reused
        assertThat(reuse.closed).isTrue();
        SessionHarness.Peer odd = h.connect();
        odd.write(message(0x33, true, w -> w.i32(1))); // unknown command: skipped, counted
        assertThat(odd.closed).isFalse();
        assertThat(h.clock.call(() -> h.host.counters().malformed)).isEqualTo(2);
        assertThat(h.clock.call(() -> h.host.counters().unknownCommands)).isEqualTo(1);
        // the good one still works
        good.write(getInit(true, sid, 1, PvClientBytes::emptyRequest));
        assertThat(good.replies().get(0).initType()).isEqualTo(h.scalar.type());
        assertThat(good.closed).isFalse();
    }

    @Test
    void aClientThatNeverReadsGetsNoMoreUpdatesAndIsDroppedAfterTheSlowLimit() throws Exception {
        SessionHarness.Peer c = h.connect();
        c.write(createChannel(true, 1, SessionHarness.PV));
        int sid = created(c.replies());
        c.write(monitorInit(true, sid, 1, PvClientBytes::emptyRequest, 0));
        c.write(monitor(true, sid, 1, SUB_START_STOP | SUB_GET));
        c.replies();
        c.queued = PvServeLimits.DEFAULT.softQueueBytes() + 1; // the kernel holds our bytes: it does not read
        for (int i = 0; i < 100; i++) {
            h.post(i, 0, NormativeTypes.SCALAR_VALUE);
        }
        assertThat(c.replies()).isEmpty(); // merged, not queued
        h.clock.advance(Duration.ofSeconds(10));
        assertThat(c.closed).isFalse();
        h.clock.advance(Duration.ofSeconds(25));
        assertThat(c.closed).isTrue();
        assertThat(h.clock.call(() -> h.host.counters().slowClients)).isEqualTo(1);
        assertThat(h.clock.call(() -> h.scalar.subscribers())).isZero();
    }

    @Test
    void aClientThatCatchesUpGetsTheNewestValue() throws Exception {
        SessionHarness.Peer c = h.connect();
        c.write(createChannel(true, 1, SessionHarness.PV));
        int sid = created(c.replies());
        c.write(monitorInit(true, sid, 1, PvClientBytes::emptyRequest, 0));
        c.write(monitor(true, sid, 1, SUB_START_STOP | SUB_GET));
        c.replies();
        c.queued = PvServeLimits.DEFAULT.softQueueBytes() + 1;
        h.post(41, 0, NormativeTypes.SCALAR_VALUE);
        h.post(42, 0, NormativeTypes.SCALAR_VALUE);
        c.queued = 0;
        h.clock.advance(Duration.ofMillis(150));
        h.settle();
        List<Reply> r = c.replies();
        assertThat(r).hasSize(1);
        assertThat(readUpdate(r.get(0), new Object[4])[0]).isEqualTo(42.0);
    }

    @Test
    void theLimitsRefuseChannelsAndOperationsBeyondThem() throws Exception {
        try (SessionHarness small = new SessionHarness(new PvServeLimits(1, 2, 1, 1 << 16, 1_000_000_000L, 1 << 16))) {
            SessionHarness.Peer c = small.connect();
            c.write(createChannel(true, 1, SessionHarness.PV));
            c.write(createChannel(true, 2, SessionHarness.PV));
            c.write(createChannel(true, 3, SessionHarness.PV));
            List<Reply> r = c.replies();
            assertThat(r).hasSize(3);
            assertThat(r.get(2).i32(4)).isEqualTo(-1);
            assertThat(r.get(2).status(8).message()).contains("too many channels");
            int sid = r.get(0).i32(4);
            c.write(getInit(true, sid, 1, PvClientBytes::emptyRequest));
            c.write(getInit(true, sid, 2, PvClientBytes::emptyRequest));
            List<Reply> ops = c.replies();
            assertThat(ops.get(1).status(5).message()).contains("too many operations");
            SessionHarness.Peer second = small.connect(); // over the connection limit
            second.write(createChannel(true, 1, SessionHarness.PV));
            assertThat(second.replies().get(0).status(8).message()).contains("too many connections");
        }
    }

    @Test
    void aWithdrawnPvDestroysItsChannelsAndTellsTheClient() throws Exception {
        SessionHarness.Peer c = h.connect();
        c.write(createChannel(true, 77, SessionHarness.PV));
        int sid = created(c.replies());
        c.write(monitorInit(true, sid, 1, PvClientBytes::emptyRequest, 0));
        c.replies();
        h.clock.call(() -> {
            h.host.withdraw(SessionHarness.PV);
            return null;
        });
        h.settle();
        Reply d = c.replies().get(0);
        assertThat(d.command()).isEqualTo(CMD_DESTROY_CHANNEL);
        assertThat(d.i32(0)).isEqualTo(sid);
        assertThat(d.i32(4)).isEqualTo(77);
        assertThat(h.host.hosts(SessionHarness.PV)).isFalse();
        assertThat(h.clock.call(() -> h.host.load().monitors())).isZero();
    }

    @Test
    void oneEncodingServesEveryMonitorOfAPost() throws Exception {
        SessionHarness.Peer a = h.connect();
        SessionHarness.Peer b = h.connect();
        for (SessionHarness.Peer p : List.of(a, b)) {
            p.write(createChannel(true, 1, SessionHarness.PV));
            int sid = created(p.replies());
            p.write(monitorInit(true, sid, 1, PvClientBytes::emptyRequest, 0));
            p.write(monitor(true, sid, 1, SUB_START_STOP | SUB_GET));
            p.replies();
        }
        h.post(5, 0, NormativeTypes.SCALAR_VALUE, NormativeTypes.SCALAR_TIME);
        byte[] x = a.replies().get(0).body();
        byte[] y = b.replies().get(0).body();
        assertThat(x).isEqualTo(y);
        BitSet changed = new BitSet();
        changed.set(NormativeTypes.SCALAR_VALUE);
        changed.set(NormativeTypes.SCALAR_TIME);
        byte[] cached = h.clock.call(() -> h.scalar.updateBody(h.scalar.wireBits(changed, null), new BitSet()));
        assertThat(h.clock.call(() -> h.scalar.updateBody(h.scalar.wireBits(changed, null), new BitSet())))
                .isSameAs(cached);
    }
}
