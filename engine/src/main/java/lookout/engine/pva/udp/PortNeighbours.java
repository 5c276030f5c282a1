package lookout.engine.pva.udp;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Who else listens on a UDP port of this host: the sockets on that port in the kernel's tables
 * ({@code /proc/net/udp} and {@code /proc/net/udp6}, this network namespace's) that are not this
 * process's own (their inodes are not among {@code /proc/self/fd}'s sockets). Seed 002 §5's
 * forwarding exists for those others only.
 *
 * <p>{@link #parse} is pure; {@link #others} reads the files (a few kilobytes, in memory) and is
 * called on the engine loop every few seconds and on the engine's own bind changes.
 */
final class PortNeighbours {

    private PortNeighbours() {
    }

    private static final Path[] TABLES = {Path.of("/proc/net/udp"), Path.of("/proc/net/udp6")};
    private static final Path OWN_FDS = Path.of("/proc/self/fd");

    /** What a table says: for every socket, its local port and its inode. */
    record Socket(int port, long inode) {
    }

    /**
     * The sockets of one {@code /proc/net/udp}-format table: a header line, then per socket
     * {@code sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...}, the
     * local address as {@code HEXADDR:HEXPORT}. Lines that do not read so are skipped.
     */
    static List<Socket> parse(String table) {
        List<Socket> out = new ArrayList<>();
        for (String line : table.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 10 || !f[0].endsWith(":")) {
                continue; // the header, or not a socket line
            }
            int colon = f[1].lastIndexOf(':');
            try {
                int port = Integer.parseInt(f[1].substring(colon + 1), 16);
                long inode = Long.parseLong(f[9]);
                out.add(new Socket(port, inode));
            } catch (NumberFormatException | IndexOutOfBoundsException e) {
                // not a socket line
            }
        }
        return out;
    }

    /** Sockets on {@code port} not among {@code own} (inodes), in {@code tables}. */
    static int count(List<Socket> sockets, int port, Set<Long> own) {
        int n = 0;
        for (Socket s : sockets) {
            if (s.port() == port && s.inode() != 0 && !own.contains(s.inode())) {
                n++;
            }
        }
        return n;
    }

    /** Sockets other processes have on {@code port} now, or -1 when this host does not say (not Linux). */
    static int others(int port) {
        if (!Files.isReadable(TABLES[0])) {
            return -1;
        }
        try {
            List<Socket> all = new ArrayList<>();
            for (Path t : TABLES) {
                if (Files.isReadable(t)) {
                    all.addAll(parse(Files.readString(t)));
                }
            }
            return count(all, port, ownInodes());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The inodes of this process's sockets ({@code socket:[N]} links in {@code /proc/self/fd}). */
    static Set<Long> ownInodes() throws IOException {
        Set<Long> own = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(OWN_FDS)) {
            for (Path fd : fds) {
                String link;
                try {
                    link = Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    continue; // closed meanwhile (the listing's own descriptor, among others)
                }
                if (link.toLowerCase(Locale.ROOT).startsWith("socket:[") && link.endsWith("]")) {
                    try {
                        own.add(Long.parseLong(link.substring(8, link.length() - 1)));
                    } catch (NumberFormatException e) {
                        // not a socket inode
                    }
                }
            }
        }
        return own;
    }
}
