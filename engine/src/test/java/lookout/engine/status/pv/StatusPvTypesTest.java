package lookout.engine.status.pv;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.BitSet;
import java.util.List;
import lookout.engine.pva.pvdata.PvType;
import lookout.engine.pva.pvdata.PvWriter;
import lookout.engine.pva.pvdata.TypeCodec;
import lookout.engine.pva.pvdata.ValueCodec;
import lookout.engine.pva.pvserve.HostedPv;
import lookout.engine.pva.pvserve.PvHost;
import lookout.engine.pva.pvserve.PvServeLimits;
import lookout.engine.testing.VirtualScheduler;
import org.epics.pva.data.PVAStringArray;
import org.epics.pva.data.PVAStructure;
import org.epics.pva.data.PVATypeRegistry;
import org.junit.jupiter.api.Test;

/**
 * Every structure the engine publishes, as an independent decoder reads it: each status PV's type
 * and its whole value, and a partial update, encoded by Lookout and decoded by core-pva 4.7.3;
 * and every bit set stays under the 56 bits where core-pva and PVXS read the same bytes
 * (see {@link lookout.engine.pva.pvdata.BitSets}).
 */
class StatusPvTypesTest {

    static ByteBuffer bytes(java.util.function.Consumer<PvWriter> w) {
        ByteBuf b = Unpooled.buffer();
        w.accept(new PvWriter(b));
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        return ByteBuffer.wrap(out);
    }

    @Test
    void everyStatusPvDecodesInCorePva() throws Exception {
        try (VirtualScheduler clock = new VirtualScheduler()) {
            PvHost host = new PvHost(clock, PvServeLimits.DEFAULT);
            var readings = new StatusModel().read(StatusModelTest.snapshot(
                    StatusModelTest.resolver(3, 0, StatusModelTest.scope("corp", false, true, false)),
                    StatusModelTest.pools(true), StatusModelTest.pva(1, 2), List.of(), null), 0, 10L << 20);
            List<HostedPv> pvs = clock.call(() -> {
                new StatusPublisher(host, "T:", readings, Instant.parse("2026-01-01T00:00:00Z"), 0, 512);
                return host.published();
            });
            assertThat(pvs).hasSize(StatusPvCatalog.ALL.size());
            for (HostedPv pv : pvs) {
                PvType.Struct t = pv.type();
                assertThat(t.bits()).as(pv.name()).isLessThanOrEqualTo(56);
                PVATypeRegistry reg = new PVATypeRegistry();
                PVAStructure s = (PVAStructure) reg.decodeType("", bytes(w -> TypeCodec.encode(t, w)));
                assertThat(s.getStructureName()).isEqualTo(t.id());
                ByteBuffer value = bytes(w -> ValueCodec.encode(t, pv.value(), w));
                s.decode(reg, value);
                assertThat(value.remaining()).as(pv.name()).isZero();
                if (t.id().endsWith("NTTable:1.0")) {
                    PVAStringArray labels = s.get("labels");
                    assertThat(labels.get()).isEqualTo(pv.value()[0]);
                } else {
                    assertThat(s.get("value").toString()).contains(String.valueOf(pv.value()[0]));
                }
                // a partial update: value and timeStamp
                BitSet bits = new BitSet();
                bits.set(t.bitOf(t.indexOf("value")));
                bits.set(t.bitOf(t.indexOf("timeStamp")));
                ByteBuffer part = bytes(w -> ValueCodec.encodeSelected(t, pv.value(), bits, w));
                BitSet read = org.epics.pva.data.PVABitSet.decodeBitSet(part);
                assertThat(read).isEqualTo(bits);
                s.decodeElements(read, reg, part);
                assertThat(part.remaining()).as(pv.name()).isZero();
            }
        }
    }
}
