package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.List;
import lookout.engine.config.PvaConfig.PvaAddress;
import org.junit.jupiter.api.Test;

class IgnoreListTest {

    @Test
    void portZeroMatchesAnyPort() {
        IgnoreList l = IgnoreList.of(List.of(new PvaAddress("127.0.0.7", 0), new PvaAddress("127.0.0.8", 5076)));
        assertThat(l.matches(new InetSocketAddress("127.0.0.7", 1234))).isTrue();
        assertThat(l.matches(new InetSocketAddress("127.0.0.7", 5076))).isTrue();
        assertThat(l.matches(new InetSocketAddress("127.0.0.8", 5076))).isTrue();
        assertThat(l.matches(new InetSocketAddress("127.0.0.8", 5077))).isFalse();
        assertThat(l.matches(new InetSocketAddress("127.0.0.9", 5076))).isFalse();
    }

    @Test
    void mappedSourceMatchesIpv4Entry() throws Exception {
        IgnoreList l = IgnoreList.of(List.of(new PvaAddress("127.0.0.7", 0)));
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        mapped[12] = 127;
        mapped[15] = 7;
        // InetAddress.getByAddress collapses mapped addresses itself; build an Inet6Address explicitly
        var v6 = java.net.Inet6Address.getByAddress(null, mapped, -1);
        assertThat(l.matches(new InetSocketAddress(v6, 9))).isTrue();
        assertThat(l.matches(new InetSocketAddress("::1", 9))).isFalse();
    }

    @Test
    void hostNamesAreNotLookedUp() {
        assertThat(IgnoreList.of(List.of(new PvaAddress("example.invalid", 0))).isEmpty()).isTrue();
    }
}
