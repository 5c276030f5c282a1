package lookout.console.widgets;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Issue 17 item 9: causes mapped to plain words; the raw text is worth a disclosure only when it was changed. */
class PlainWordsTest {

    @Test
    void nettysNativeErrorReadsAsARefusal() {
        String raw = "java.net.PortUnreachableException: recvAddress(..) failed with error(-111)";
        assertThat(PlainWords.of(raw)).isEqualTo("Refused: nothing listens on that port");
        assertThat(PlainWords.hasDetails(raw)).isTrue();
        assertThat(PlainWords.of("upstream 192.0.2.53:53: " + raw)).isEqualTo("upstream 192.0.2.53:53: refused: nothing listens on that port");
    }

    @Test
    void eachKnownCauseHasItsWords() {
        assertThat(PlainWords.of("java.net.BindException: Address already in use"))
                .isEqualTo("The port is already in use by another program");
        assertThat(PlainWords.of("sendToAddress(..) failed: Network is unreachable"))
                .isEqualTo("The network cannot be reached from this machine");
        assertThat(PlainWords.of("PVA search to 10.0.0.255:5076: send error: sendToAddress(..) failed with error(-13)"))
                .isEqualTo("PVA search to 10.0.0.255:5076: send error: not permitted by this machine (a firewall, or a broadcast or low port without the right)");
        assertThat(PlainWords.cause("java.net.http.HttpConnectTimeoutException: HTTP connect timed out")).isEqualTo("no answer in time");
    }

    @Test
    void citationsAndClassNamesGoAndPlainTextStays() {
        assertThat(PlainWords.of("Search now refused (seed 002 §3.2)")).isEqualTo("Search now refused");
        assertThat(PlainWords.of("configuration version 2 applied")).isEqualTo("configuration version 2 applied");
        assertThat(PlainWords.hasDetails("configuration version 2 applied")).isFalse();
        assertThat(PlainWords.of(null)).isEmpty();
    }
}
