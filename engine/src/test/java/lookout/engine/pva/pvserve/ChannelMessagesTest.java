package lookout.engine.pva.pvserve;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.HexFormat;
import java.util.function.Consumer;
import lookout.engine.pva.pvdata.PvStatus;
import lookout.engine.pva.pvdata.PvType;
import lookout.engine.pva.pvdata.ScalarKind;
import org.junit.jupiter.api.Test;

/**
 * The server's replies with fixed bytes: header CA 02 C0 (server, big-endian) and the command,
 * then each layout of the pvAccess protocol as PVXS writes it.
 */
class ChannelMessagesTest {

    private static String hex(Consumer<ByteBuf> write) {
        ByteBuf b = Unpooled.buffer();
        write.accept(b);
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        return HexFormat.of().withUpperCase().formatHex(out);
    }

    private static String n(String s) {
        return s.replace(" ", "");
    }

    @Test
    void createChannelRepliesCarryCidSidAndStatus() {
        assertThat(hex(b -> ChannelMessages.createChannel(b, 0x11223344, 5, PvStatus.OK)))
                .isEqualTo(n("CA02C007 00000009 11223344 00000005 FF"));
        assertThat(hex(b -> ChannelMessages.createChannel(b, 1, -1, PvStatus.error("no"))))
                .isEqualTo(n("CA02C007 0000000D 00000001 FFFFFFFF 02 026E6F 00"));
    }

    @Test
    void destroyChannelIsSidThenCid() {
        assertThat(hex(b -> ChannelMessages.destroyChannel(b, 5, 7))).isEqualTo(n("CA02C008 00000008 00000005 00000007"));
    }

    @Test
    void initRepliesCarryTheTypeOnlyWhenOk() {
        PvType t = PvType.scalar(ScalarKind.DOUBLE);
        assertThat(hex(b -> ChannelMessages.init(b, ChannelMessages.CMD_MONITOR, 9, PvStatus.OK, t)))
                .isEqualTo(n("CA02C00D 00000007 00000009 08 FF 43"));
        assertThat(hex(b -> ChannelMessages.init(b, ChannelMessages.CMD_GET, 9, PvStatus.error("x"), t)))
                .isEqualTo(n("CA02C00A 00000009 00000009 08 02 0178 00"));
    }

    @Test
    void aRefusalIsIoidSubcommandAndStatus() {
        assertThat(hex(b -> ChannelMessages.status(b, ChannelMessages.CMD_PUT, 3, 0x08, PvStatus.error("ro"))))
                .isEqualTo(n("CA02C00B 0000000A 00000003 08 02 02726F 00"));
    }

    @Test
    void aMonitorUpdateIsIoidSubcommandZeroAndTheBody() {
        assertThat(hex(b -> ChannelMessages.monitorUpdate(b, 2, new byte[] {1, 2, 0x11, 0})))
                .isEqualTo(n("CA02C00D 00000009 00000002 00 01021100"));
    }

    @Test
    void getFieldIsIoidStatusAndType() {
        assertThat(hex(b -> ChannelMessages.getField(b, 4, PvStatus.OK, PvType.scalar(ScalarKind.STRING))))
                .isEqualTo(n("CA02C011 00000006 00000004 FF 60"));
        assertThat(hex(b -> ChannelMessages.getField(b, 4, PvStatus.error("no"), null)))
                .isEqualTo(n("CA02C011 00000009 00000004 02 026E6F 00"));
    }
}
