package lookout.engine.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lookout.engine.config.ConfigSource;

/**
 * What the engine keeps of its configurations across restarts, in {@code STATE_DIR}: the running
 * version ({@code version}: {@code N SHA256}), and numbered copies of the configuration file as
 * it was before each write-back ({@code backups/NAME.N}, the last {@link #BACKUPS}); and the
 * write-back itself, atomic ({@link AtomicFiles}).
 *
 * <p>Concurrency: called from the threads that apply (never the engine loop); the applier
 * serialises applies, and the version file is written under this object's lock.
 */
final class ConfigStore {

    static final String VERSION_FILE = "version";
    static final String BACKUP_DIR = "backups";
    /** Numbered backups kept per configuration file. */
    static final int BACKUPS = 20;

    private static final Pattern VERSION_LINE = Pattern.compile("(\\d{1,18}) ([0-9a-f]{64})\\s*");

    private final Path stateDir;

    ConfigStore(Path stateDir) {
        this.stateDir = stateDir;
    }

    Path stateDir() {
        return stateDir;
    }

    /** Removes the temporary files a killed writer left in {@code STATE_DIR} and its backups (at start). */
    void removeStaleTemporaries() {
        AtomicFiles.removeStaleTemporaries(stateDir.resolve(VERSION_FILE));
        Path dir = stateDir.resolve(BACKUP_DIR);
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (var files = Files.newDirectoryStream(dir, f -> {
            String n = f.getFileName().toString();
            return n.startsWith(".") && n.contains(".tmp-");
        })) {
            for (Path f : files) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // harmless: a stale temporary only takes space
        }
    }

    // ---------------------------------------------------------------- version

    /**
     * The version a start on a text of hash {@code sha256} takes: the recorded one when the text is
     * the one it was recorded for (a restart on the same file), the next one otherwise, 1 on a
     * fresh state directory (or an unreadable version file).
     */
    synchronized long startVersion(String sha256) {
        Recorded r = recorded();
        if (r == null) {
            return 1;
        }
        return r.sha256.equals(sha256) ? r.version : r.version + 1;
    }

    /** Records {@code version} as running with text hash {@code sha256}. */
    synchronized void recordVersion(long version, String sha256) throws IOException {
        AtomicFiles.write(stateDir.resolve(VERSION_FILE), (version + " " + sha256 + "\n")
                .getBytes(StandardCharsets.US_ASCII), AtomicFiles.OWNER_ONLY);
    }

    private record Recorded(long version, String sha256) {
    }

    private Recorded recorded() {
        try {
            String line = Files.readString(stateDir.resolve(VERSION_FILE), StandardCharsets.US_ASCII);
            Matcher m = VERSION_LINE.matcher(line);
            if (m.matches()) {
                return new Recorded(Long.parseLong(m.group(1)), m.group(2));
            }
        } catch (IOException | RuntimeException e) {
            // absent or damaged: start over at 1
        }
        return null;
    }

    // ---------------------------------------------------------------- the configuration file

    /**
     * The file a configuration was read from: its source name when that names an existing regular
     * file (what {@code ConfigLoader.load} gives), else null (the embedded default, a text).
     */
    static Path fileOf(ConfigSource source) {
        String name = source.name();
        if (name == null || name.isEmpty() || name.startsWith("<")) {
            return null;
        }
        try {
            Path p = Path.of(name).toAbsolutePath().normalize();
            return Files.isRegularFile(p) ? p : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The file's content as it is now, or null when there is no such file. */
    static byte[] read(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * The SHA-256 that bytes of a configuration file compare by: that of their text as the loader
     * reads it (UTF-8, a leading byte-order mark dropped), so an untouched file hashes as the
     * running configuration does; bytes that are no UTF-8 text hash as bytes (and so never match).
     */
    static String sha256(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        if (!java.util.Arrays.equals(text.getBytes(StandardCharsets.UTF_8), bytes)
                && !java.util.Arrays.equals(("\uFEFF" + text).getBytes(StandardCharsets.UTF_8), bytes)) {
            return hex(bytes);
        }
        return ConfigSource.of("", null, text).sha256();
    }

    private static String hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Copies {@code previous} (the file's content before a write-back) to the next numbered backup
     * and removes the oldest beyond {@link #BACKUPS}. Returns the backup's path.
     */
    Path backup(Path file, byte[] previous) throws IOException {
        Path dir = stateDir.resolve(BACKUP_DIR);
        AtomicFiles.createPrivateDirectories(dir);
        String base = file.getFileName().toString();
        List<Long> numbers = backupNumbers(dir, base);
        long next = numbers.isEmpty() ? 1 : numbers.get(numbers.size() - 1) + 1;
        Path target = dir.resolve(base + "." + next);
        AtomicFiles.write(target, previous, AtomicFiles.OWNER_ONLY);
        numbers.add(next);
        for (int k = 0; k < numbers.size() - BACKUPS; k++) {
            Files.deleteIfExists(dir.resolve(base + "." + numbers.get(k)));
        }
        return target;
    }

    /** The numbers of {@code base}'s backups in {@code dir}, ascending. */
    static List<Long> backupNumbers(Path dir, String base) throws IOException {
        List<Long> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        String prefix = base + ".";
        try (var files = Files.newDirectoryStream(dir, f -> f.getFileName().toString().startsWith(prefix))) {
            for (Path f : files) {
                String n = f.getFileName().toString().substring(prefix.length());
                if (!n.isEmpty() && n.length() <= 18 && n.chars().allMatch(Character::isDigit)) {
                    out.add(Long.parseLong(n));
                }
            }
        }
        out.sort(null);
        return out;
    }
}
