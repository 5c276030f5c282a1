package lookout.engine.dns.listen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the kernel allows a UDP socket's receive buffer, for the operator's message. */
final class RmemMax {

    /**
     * Receive buffer one small query takes on Linux (its socket buffer's true size, about 832 bytes
     * for a datagram of up to a few hundred bytes), rounded up: how many questions a buffer holds.
     */
    static final int BYTES_PER_QUERY = 1024;

    private static final Path SYSCTL = Path.of("/proc/sys/net/core/rmem_max");

    private RmemMax() {
    }

    /** {@code net.core.rmem_max}, or -1 where it cannot be read (another OS, a restricted /proc). */
    static long read() {
        try {
            return Long.parseLong(Files.readString(SYSCTL).trim());
        } catch (IOException | NumberFormatException | SecurityException e) {
            return -1;
        }
    }
}
