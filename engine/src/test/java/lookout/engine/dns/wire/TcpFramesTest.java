package lookout.engine.dns.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DNS over TCP framing (RFC 1035 §4.2.2): fixed bytes, cut at every place. */
class TcpFramesTest {

    @Test
    void aFrameIsTheLengthInTwoBytesThenTheMessage() {
        ByteBuf f = TcpFrames.frame(new byte[] {7, 8, 9});
        try {
            assertThat(ByteBufUtilBytes.of(f)).containsExactly(0, 3, 7, 8, 9);
        } finally {
            f.release();
        }
        ByteBuf longest = TcpFrames.frame(new byte[TcpFrames.MAX_MESSAGE]);
        assertThat(longest.getUnsignedShort(0)).isEqualTo(65535);
        longest.release();
        assertThatThrownBy(() -> TcpFrames.frame(new byte[65536])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void messagesComeOutWholeWhereverTheStreamIsCut() {
        byte[] stream = {0, 2, 'a', 'b', 0, 0, 0, 3, 'c', 'd', 'e'};
        for (int cut = 0; cut <= stream.length; cut++) {
            TcpFrames.Reader r = new TcpFrames.Reader();
            List<String> out = new ArrayList<>();
            for (int[] part : new int[][] {{0, cut}, {cut, stream.length}}) {
                ByteBuf in = Unpooled.wrappedBuffer(stream, part[0], part[1] - part[0]);
                r.add(ByteBufAllocator.DEFAULT, in);
                in.release();
                for (byte[] m = r.next(); m != null; m = r.next()) {
                    out.add(new String(m, java.nio.charset.StandardCharsets.US_ASCII));
                }
            }
            assertThat(out).as("cut at %d", cut).containsExactly("ab", "", "cde");
            assertThat(r.buffered()).isZero();
            r.release();
        }
    }

    @Test
    void whatIsNotWholeYetIsKeptAndGivenBackOnRelease() {
        TcpFrames.Reader r = new TcpFrames.Reader();
        ByteBuf in = Unpooled.wrappedBuffer(new byte[] {0, 9, 1, 2});
        r.add(ByteBufAllocator.DEFAULT, in);
        in.release();
        assertThat(r.next()).isNull();
        assertThat(r.buffered()).isEqualTo(4);
        r.release();
        assertThat(r.buffered()).isZero();
        r.release(); // idempotent
    }

    /** A buffer's readable bytes as ints, for readable assertions. */
    private static final class ByteBufUtilBytes {
        static int[] of(ByteBuf b) {
            int[] out = new int[b.readableBytes()];
            for (int i = 0; i < out.length; i++) {
                out[i] = b.getUnsignedByte(b.readerIndex() + i);
            }
            return out;
        }
    }
}
