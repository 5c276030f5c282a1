package lookout.console.widgets;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The operator's layout and preferences, kept per user across restarts: the window's size,
 * position and maximised state, the pane shown, each table's column order and widths, the theme
 * and the filters. A flat set of keys in {@code $XDG_CONFIG_HOME/lookout/console.properties}
 * (default {@code ~/.config/lookout/}); written whole to a temporary file and moved into place, so
 * a console killed while saving leaves the previous file. A file that cannot be read is a fresh
 * start, never an error.
 *
 * <p>Concurrency: the values are the UI thread's; {@link #snapshot()} hands a copy to the thread
 * that writes. No toolkit class.
 */
public final class Layout {

    private final Path file;
    private final Map<String, String> values = new TreeMap<>();

    private Layout(Path file) {
        this.file = file;
    }

    /** No file: nothing kept (tests, a second window). */
    public static Layout none() {
        return new Layout(null);
    }

    /** The user's file (read now; missing or unreadable: empty). */
    public static Layout forUser(Map<String, String> env) {
        String xdg = env.get("XDG_CONFIG_HOME");
        String home = env.getOrDefault("HOME", System.getProperty("user.home", "."));
        Path dir = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(home, ".config");
        return at(dir.resolve("lookout").resolve("console.properties"));
    }

    /** The layout kept in {@code file} (read now). */
    public static Layout at(Path file) {
        Layout l = new Layout(file);
        if (file != null && Files.isReadable(file)) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(r);
                for (String k : p.stringPropertyNames()) {
                    l.values.put(k, p.getProperty(k));
                }
            } catch (IOException | IllegalArgumentException e) {
                l.values.clear(); // a damaged file is a fresh start
            }
        }
        return l;
    }

    public Path file() {
        return file;
    }

    public boolean kept() {
        return file != null;
    }

    public String get(String key) {
        return values.get(key);
    }

    public String get(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    public double number(String key, double fallback) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            double d = Double.parseDouble(v);
            return Double.isFinite(d) ? d : fallback;
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** Sets (or with null, removes) a value; true when it changed. */
    public boolean put(String key, String value) {
        String old = value == null ? values.remove(key) : values.put(key, value);
        return !java.util.Objects.equals(old, value);
    }

    public Map<String, String> snapshot() {
        return Map.copyOf(values);
    }

    /** Writes {@code values} to {@code file} (blocking: not on the UI thread). */
    public static void write(Path file, Map<String, String> values) throws IOException {
        if (file == null) {
            return;
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Properties p = new Properties();
        p.putAll(values);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(w, "Lookout console layout (written by the console; safe to delete)");
        }
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
