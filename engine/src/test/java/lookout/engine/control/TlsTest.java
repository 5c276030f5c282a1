package lookout.engine.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code status.tls}: a certificate made now with openssl (nothing of it ships), served on
 * 127.0.0.1; and the configuration rule that a listener beyond loopback needs it.
 */
class TlsTest {

    @TempDir
    Path dir;

    /** A self-signed certificate for 127.0.0.1 and its PKCS#8 key, or false when openssl is missing. */
    static boolean makeCertificate(Path dir) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                    "-nodes", "-keyout", dir.resolve("key.pem").toString(), "-out", dir.resolve("cert.pem").toString(),
                    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1")
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            return false;
        }
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return p.exitValue() == 0;
    }

    private static SSLContext trusting(Path cert) throws Exception {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        try (InputStream in = new FileInputStream(cert.toFile())) {
            ks.setCertificateEntry("lookout", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(null, tmf.getTrustManagers(), null);
        return c;
    }

    @Test
    void theListenerServesTlsWithTheConfiguredCertificate() throws Exception {
        assumeTrue(makeCertificate(dir), "openssl is needed to make a test certificate");
        try (ControlHarness h = new ControlHarness(dir, "")) {
            h.stop();
            Files.writeString(h.file, Files.readString(h.file).replace("status => { listen => 127.0.0.1:0 }",
                    "status => { listen => 127.0.0.1:0, tls => { certificate => cert.pem, key => key.pem } }"));
            h.start();
            URI https = URI.create("https://127.0.0.1:" + h.base.getPort() + "/api/v1/engine");
            HttpsURLConnection c = (HttpsURLConnection) https.toURL().openConnection();
            c.setSSLSocketFactory(trusting(dir.resolve("cert.pem")).getSocketFactory());
            c.setConnectTimeout(5_000);
            c.setReadTimeout(10_000);
            assertThat(c.getResponseCode()).isEqualTo(200);
            assertThat(new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .contains("\"product\":\"lookout\"");
            // plain HTTP on the TLS port gets no answer
            assertThatThrownBy(() -> h.get("/api/v1/engine", null)).isInstanceOf(IOException.class);
        }
    }

    @Test
    void beyondLoopbackWithoutTlsIsAProblemAtTheListenValue() throws Exception {
        Path f = dir.resolve("open.conf");
        Files.writeString(f, "# open\nstatus => { listen => 0.0.0.0:9153 }\n");
        ConfigResult r = new ConfigLoader(Map.of()).load(f);
        assertThat(r.ok()).isFalse();
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.toString()).startsWith(f + ":2:23: ").contains("beyond loopback").contains("tls");
        });
    }

    @Test
    void tlsFilesAreCheckedWhereTheyAreNamed() throws Exception {
        Files.writeString(dir.resolve("cert.pem"), "-----BEGIN CERTIFICATE-----\nMII\n-----END CERTIFICATE-----\n");
        Files.writeString(dir.resolve("rsa.pem"), "-----BEGIN RSA PRIVATE KEY-----\nMII\n-----END RSA PRIVATE KEY-----\n");
        Path f = dir.resolve("tls.conf");
        Files.writeString(f, "status => {\n  listen => 0.0.0.0:9153\n  tls => { certificate => cert.pem, key => rsa.pem }\n"
                + "  tokens => { wall => { role => veiwer, file => none.token } }\n}\n");
        ConfigResult r = new ConfigLoader(Map.of()).load(f);
        assertThat(r.problems()).extracting(Object::toString).satisfiesExactlyInAnyOrder(
                p -> assertThat(p).startsWith(f + ":3:").contains("PKCS#1").contains("openssl pkcs8"),
                p -> assertThat(p).startsWith(f + ":4:").contains("did you mean 'viewer'"),
                p -> assertThat(p).startsWith(f + ":4:").contains("readable token file").contains("no such file"));
    }
}
