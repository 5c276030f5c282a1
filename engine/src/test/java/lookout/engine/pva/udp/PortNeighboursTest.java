package lookout.engine.pva.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Who else listens on a port: the kernel's tables read, this process's own sockets left out. */
class PortNeighboursTest {

    static final String UDP = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
            12842: 0100007F:13D4 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 6804011 2 000000004fb17a16 0
            12843: 00000000:13D4 00000000:0000 07 00000000:00000000 00:00000000 00000000  1000        0 6804012 2 000000004fb17a17 0
            12844: 0100007F:13D5 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 6804013 2 000000004fb17a18 0
            12845: 800000E0:13D4 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 0 2 000000004fb17a19 0
            garbage line
            """;
    static final String UDP6 = """
              sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
             1103: 0000000000000000FFFF00000100007F:13D4 00000000000000000000000000000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 6875170 2 00000000a4023661 0
            """;

    @Test
    void readsPortsAndInodesOfBothTables() {
        List<PortNeighbours.Socket> v4 = PortNeighbours.parse(UDP);
        assertThat(v4).containsExactly(new PortNeighbours.Socket(5076, 6804011), new PortNeighbours.Socket(5076, 6804012),
                new PortNeighbours.Socket(5077, 6804013), new PortNeighbours.Socket(5076, 0));
        assertThat(PortNeighbours.parse(UDP6)).containsExactly(new PortNeighbours.Socket(5076, 6875170));
        assertThat(PortNeighbours.parse("")).isEmpty();
    }

    @Test
    void countsOthersOnThePortOnly() {
        List<PortNeighbours.Socket> all = new java.util.ArrayList<>(PortNeighbours.parse(UDP));
        all.addAll(PortNeighbours.parse(UDP6));
        assertThat(PortNeighbours.count(all, 5076, Set.of())).isEqualTo(3);
        // our own sockets are not others; an inode 0 (a socket being torn down) is no one
        assertThat(PortNeighbours.count(all, 5076, Set.of(6804011L, 6875170L))).isEqualTo(1);
        assertThat(PortNeighbours.count(all, 5077, Set.of(6804013L))).isZero();
    }

    @Test
    void aSocketOfThisProcessIsOwnOneOfAnotherIsNot() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/net/udp")), "no /proc/net/udp here");
        try (DatagramSocket mine = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            int port = mine.getLocalPort();
            assertThat(PortNeighbours.others(port)).isZero();
            // another process on the same port
            Process other = new ProcessBuilder("python3", "-c", String.join("\n",
                    "import socket, sys, time",
                    "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)",
                    "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)",
                    "s.bind(('127.0.0.2', " + port + "))",
                    "print('bound', flush=True)",
                    "sys.stdin.read()")).redirectErrorStream(true).start();
            try {
                String line = new java.io.BufferedReader(new java.io.InputStreamReader(other.getInputStream())).readLine();
                Assumptions.assumeTrue("bound".equals(line), "python3 could not bind: " + line);
                int seen = PortNeighbours.others(port);
                for (int i = 0; i < 20 && seen != 1; i++) { // bounded: 2 s
                    Thread.sleep(100);
                    seen = PortNeighbours.others(port);
                }
                assertThat(seen).as("sockets of others on port %d; the table:%n%s%nours: %s", port,
                        Files.readString(Path.of("/proc/net/udp")), PortNeighbours.ownInodes()).isEqualTo(1);
            } finally {
                other.getOutputStream().close();
                other.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
                other.destroyForcibly();
            }
            assertThat(PortNeighbours.others(port)).isZero();
        }
    }
}
