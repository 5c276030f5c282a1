package lookout.console.remote;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.testing.VirtualScheduler;

/**
 * An engine for the client tests: virtual time, loopback only, ephemeral or freshly free ports,
 * a three-address weighted pool ({@code pool}: a 10, b 5, c 1 on 127.0.0.11–13), no PVA server;
 * optionally its real HTTP status listener.
 */
public final class TestEngine implements AutoCloseable {

    public static final String POOLS = """
            plugins => {
              weighted => {
                up_thresh => 0.25
                pool => {
                  a = [ 127.0.0.11, 10 ]
                  b = [ 127.0.0.12, 5 ]
                  c = [ 127.0.0.13, 1 ]
                }
              }
            }
            """;

    public final VirtualScheduler clock = new VirtualScheduler();
    public final Engine engine;
    public final Path dir;
    public final Path file;
    public final String text;
    public final int statusPort;

    private TestEngine(Path dir, boolean statusListener, String extra) throws IOException {
        this.dir = dir;
        this.statusPort = statusListener ? freeTcpPort() : 0;
        this.text = config(statusPort, extra);
        this.file = dir.resolve("lookout.conf");
        Files.writeString(file, text);
        ConfigResult r = new ConfigLoader(Map.of()).parse(text, file.toString(), dir);
        if (!r.ok()) {
            throw new IllegalStateException("test configuration: " + r.problems());
        }
        engine = Engines.create(EngineOptions.forTest(clock, new Random(1), dir.resolve("state")));
        engine.start(r.config());
    }

    /** An engine on the pools configuration; {@code statusListener}: with its own HTTP status endpoint. */
    public static TestEngine start(Path dir, boolean statusListener) throws IOException {
        return new TestEngine(dir, statusListener, "");
    }

    public URI statusUrl() {
        return URI.create("http://127.0.0.1:" + statusPort);
    }

    /** The test configuration; {@code extra} goes at the end (line numbers above it stay). */
    public static String config(int statusPort, String extra) {
        return """
            # Lookout client test configuration
            resolver => {
              listen => [ 127.0.0.1:0 ]
            }
            %spva => {
              addr_list => [ 127.0.0.1 ]
              auto_addr_list => false
              auto_beacon_addr_list => false
              beacon_addr_list => [ ]
              broadcast_port => %d
              server_port => %d
              server => { enable => false }
            }
            %s%s""".formatted(POOLS, freeUdpPort(), freeUdpPort(),
                statusPort > 0 ? "status => { listen => 127.0.0.1:" + statusPort + " }\n" : "", extra);
    }

    public static int freeUdpPort() {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static int freeTcpPort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        engine.stop();
        clock.close();
    }
}
