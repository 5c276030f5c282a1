package lookout.engine.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * Files that are either wholly old or wholly new, whatever kills the process: the new content goes
 * to a temporary file in the same directory, is {@code fsync}ed, renamed over the target (a
 * rename within one file system is atomic, POSIX {@code rename(2)}), and the directory is
 * {@code fsync}ed so that the rename itself survives a power cut. A killed writer leaves at most
 * a temporary file ({@code .NAME.tmp-HEX}), which {@link #removeStaleTemporaries} clears.
 */
public final class AtomicFiles {

    /** Owner read and write only: tokens, the audit log, the state files. */
    public static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private static final SecureRandom NAMES = new SecureRandom();

    private AtomicFiles() {
    }

    /** A prepared write: the temporary file holds the new content, synced; nothing is replaced yet. */
    public static final class Pending {
        private final Path target;
        private final Path temporary;

        private Pending(Path target, Path temporary) {
            this.target = target;
            this.temporary = temporary;
        }

        public Path target() {
            return target;
        }

        /** Renames the temporary file over the target and syncs the directory. */
        public void commit() throws IOException {
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                abort();
                throw new IOException("cannot replace " + target + " atomically on this file system", e);
            } catch (IOException e) {
                abort();
                throw e;
            }
            syncDirectory(target.toAbsolutePath().getParent());
        }

        /** Drops the temporary file; the target stays as it was. */
        public void abort() {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException e) {
                // a stale temporary is cleared at the next start
            }
        }
    }

    /**
     * Writes {@code bytes} to a temporary file beside {@code target}, synced, ready to
     * {@link Pending#commit}. The temporary file is created with {@code permissions} (null: those
     * of the target when it exists, else owner-only), never widened afterwards.
     */
    public static Pending prepare(Path target, byte[] bytes, Set<PosixFilePermission> permissions) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        Files.createDirectories(dir);
        Set<PosixFilePermission> perms = permissions;
        if (perms == null) {
            perms = Files.exists(abs) && posix() ? Files.getPosixFilePermissions(abs) : OWNER_ONLY;
        }
        byte[] r = new byte[6];
        NAMES.nextBytes(r);
        Path tmp = dir.resolve("." + abs.getFileName() + ".tmp-" + HexFormat.of().formatHex(r));
        try (FileChannel ch = posix()
                ? FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attribute(perms))
                : FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        if (posix() && permissions == null && Files.exists(abs)) {
            // the umask may have narrowed the creation mode; the target's own mode is the one to keep
            Files.getFileAttributeView(tmp, PosixFileAttributeView.class).setPermissions(perms);
        }
        return new Pending(abs, tmp);
    }

    /** {@link #prepare} and {@link Pending#commit} in one. */
    public static void write(Path target, byte[] bytes, Set<PosixFilePermission> permissions) throws IOException {
        prepare(target, bytes, permissions).commit();
    }

    /** Removes {@code .NAME.tmp-*} files a killed writer left beside {@code target}. */
    public static void removeStaleTemporaries(Path target) {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        String prefix = "." + abs.getFileName() + ".tmp-";
        try (var files = Files.newDirectoryStream(dir, f -> f.getFileName().toString().startsWith(prefix))) {
            for (Path f : files) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // harmless: a stale temporary only takes space
        }
    }

    /** fsync of a directory (its entries: a rename or a new file in it), where the platform allows it. */
    public static void syncDirectory(Path dir) throws IOException {
        if (dir == null) {
            return;
        }
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some platforms cannot open a directory for reading (Windows); Linux can. A failure
            // there is not a failure of the write itself, which is already in place.
            if (posix()) {
                throw e;
            }
        }
    }

    /** Creates {@code dir} (and parents) readable by its owner only when it is new. */
    public static void createPrivateDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        if (posix()) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(dir);
        }
    }

    static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    private static FileAttribute<Set<PosixFilePermission>> attribute(Set<PosixFilePermission> perms) {
        return PosixFilePermissions.asFileAttribute(perms);
    }
}
