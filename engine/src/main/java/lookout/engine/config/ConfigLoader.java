package lookout.engine.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.config.vscf.IncludeResolver;
import lookout.engine.config.vscf.Position;
import lookout.engine.config.vscf.VNode;
import lookout.engine.config.vscf.VscfParser;
import lookout.engine.config.vscf.VscfSyntaxException;

/**
 * Parses and validates configuration text (gdnsd's vscf syntax) into a {@link Config}, or into
 * the list of problems, each with FILE:LINE:COLUMN, the key path and what was expected. Never
 * throws for bad input: parse → bind every section → cross-section checks ({@link ConfigChecks}).
 *
 * <p>Paths in the file ({@code zones} files, {@code $include}, {@code state_dir}) are relative to
 * the directory of the file that holds them; {@code ~/} is the user's home directory.
 */
public final class ConfigLoader {

    /** Name used in errors for the embedded default configuration. */
    public static final String EMBEDDED_NAME = "<embedded default>";

    /** The top-level sections, in the order SPEC lists them. */
    public static final List<String> SECTIONS = ConfigDiffer.SECTIONS;

    static final List<String> PLUGINS = List.of("weighted");
    static final List<String> ZONE_KEYS = List.of("file", "text");

    private final Map<String, String> environment;
    /** The user's home: {@code ~} in paths, and {@code ~/.lookout} for the embedded default's state. */
    private final Path home;

    /**
     * @param environment where {@code EPICS_PVA_*} variables are read when a key is absent, and
     *                    {@code HOME} (the user's home; the working directory without one)
     */
    public ConfigLoader(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
        String h = this.environment.get("HOME");
        this.home = (h == null || h.isBlank() ? Path.of("") : Path.of(h)).toAbsolutePath().normalize();
    }

    public Map<String, String> environment() {
        return environment;
    }

    /** Parses {@code text} named {@code name}; relative paths resolve against {@code baseDir}. */
    public ConfigResult parse(String text, String name, Path baseDir) {
        if (text == null) {
            text = "";
        }
        if (name == null) {
            name = "<text>";
        }
        Path base = (baseDir == null ? Path.of("") : baseDir).toAbsolutePath().normalize();
        ConfigProblems problems = new ConfigProblems();
        Config config = null;
        try {
            config = bind(text, name, base, problems);
        } catch (RuntimeException | StackOverflowError e) {
            // Never throw for any input: an unexpected failure is one more problem to show.
            problems.add(new Position(name, 1, 1), "", "internal error while reading the configuration: " + e);
        }
        if (!problems.isEmpty() || config == null) {
            if (problems.isEmpty()) {
                problems.add(new Position(name, 1, 1), "", "the configuration could not be built");
            }
            return new ConfigResult(null, problems.list());
        }
        return new ConfigResult(config, List.of());
    }

    /** Reads and parses a file; an unreadable file is one problem at line 1, column 1. */
    public ConfigResult load(Path file) {
        String name = file.toString();
        String text;
        try {
            text = ConfigFiles.readUtf8(file);
        } catch (IOException | RuntimeException e) {
            return new ConfigResult(null, List.of(new ConfigProblem(name, 1, 1, "",
                    "cannot read the configuration file: " + describe(e))));
        }
        Path abs = file.toAbsolutePath().normalize();
        return parse(text, name, abs.getParent());
    }

    /** The embedded default: loopback only, demo zone with a weighted pool, own PVA server on. */
    public ConfigResult embeddedDefault() {
        return parse(embeddedDefaultText(), EMBEDDED_NAME, lookoutHome());
    }

    /** The text of the embedded default configuration (the console's editor starts from it). */
    public static String embeddedDefaultText() {
        try (InputStream in = ConfigLoader.class.getResourceAsStream("default.conf")) {
            if (in == null) {
                throw new IllegalStateException("default.conf is missing from the engine module");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the embedded default configuration", e);
        }
    }

    /** {@code ~/.lookout}: where the embedded default keeps its state. */
    Path lookoutHome() {
        return home.resolve(".lookout");
    }

    /**
     * True when {@code candidate} gives every service what an empty file would: no section any
     * service uses is there (an empty, comment-only or truncated file). A reload of such a text
     * would take the zones, pools, PVA and the status endpoint away at once, so the engine refuses
     * it unless confirmed, and {@code --check-config} reports it.
     */
    public boolean servesNothing(Config candidate) {
        ConfigResult empty = parse("", candidate.source().name(), candidate.source().baseDir());
        if (!empty.ok()) {
            return false;
        }
        Config e = empty.config();
        return java.util.Objects.equals(candidate.resolver(), e.resolver())
                && candidate.zones().equals(e.zones())
                && java.util.Objects.equals(candidate.weighted(), e.weighted())
                && java.util.Objects.equals(candidate.pva(), e.pva())
                && java.util.Objects.equals(candidate.status(), e.status());
    }

    /** The one-line reason {@link #servesNothing} gives, for refusals and {@code --check-config}. */
    public static String servesNothingMessage() {
        return "the configuration configures no service (no resolver, zones, plugins, pva or status section "
                + "of its own): an empty or truncated file? Applying it would stop answering DNS, pools and PVA "
                + "and close the status endpoint";
    }

    /** Added, removed and changed keys, per section. */
    public static ConfigDiff diff(Config before, Config after) {
        return ConfigDiffer.diff(before, after);
    }

    // ------------------------------------------------------------------ binding

    private Config bind(String text, String name, Path base, ConfigProblems problems) {
        VNode.Hash root;
        try {
            root = VscfParser.parse(text, name, includes(name, base));
        } catch (VscfSyntaxException e) {
            problems.add(e.position(), e.path(), e.path().isEmpty() ? e.getMessage() : e.path() + ": " + e.getMessage());
            return null;
        }
        Bind.knownKeys(root, "", SECTIONS, problems);

        ResolverConfig resolver = ResolverBinder.bind(root.get("resolver"), problems);
        Map<String, ZoneConfig> zones = zones(root.get("zones"), name, base, problems);

        VNode.Hash serviceSection = null;
        if (root.get("service_types") != null) {
            serviceSection = Bind.hash(root.get("service_types"), "service_types", problems);
        }
        Map<String, ServiceTypeConfig> serviceTypes = Map.of();
        try {
            serviceTypes = ServiceTypeConfig.bindAll(serviceSection, problems);
        } catch (RuntimeException e) {
            problems.add(at(root, "service_types"), "service_types", "service_types: internal error: " + e);
        }
        WeightedConfig weighted = plugins(root, serviceTypes, problems);

        VNode.Entry pvaEntry = root.entry("pva");
        Position envPos = pvaEntry != null ? pvaEntry.keyPos() : new Position(name, 1, 1);
        PvaConfig pva = PvaBinder.bind(root.get("pva"), envPos, environment, problems);
        StatusConfig status = StatusBinder.bind(root.get("status"), v -> {
            String where = v.pos().file().equals(name) ? null : v.pos().file();
            return resolve(v.value(), where == null ? base : parentOf(where, base));
        }, problems);
        Path stateDir = stateDir(root.get("state_dir"), name, base, problems);
        if (!problems.isEmpty()) {
            return null;
        }
        Config config = new Config(ConfigSource.of(name, base, text), resolver, zones, serviceTypes, weighted, pva,
                status, stateDir);
        // Cross-section checks only see a candidate whose sections all bound cleanly; on a partly
        // bound one they would report errors that are only echoes of the first.
        for (ConfigCheck check : ConfigChecks.all()) {
            try {
                check.check(config, problems);
            } catch (RuntimeException e) {
                problems.add(new Position(name, 1, 1), "", "internal error in check "
                        + check.getClass().getSimpleName() + ": " + e);
            }
        }
        return problems.isEmpty() ? config : null;
    }

    private static Position at(VNode.Hash root, String key) {
        VNode.Entry e = root.entry(key);
        return e != null ? e.keyPos() : root.pos();
    }

    private static WeightedConfig plugins(VNode.Hash root, Map<String, ServiceTypeConfig> serviceTypes,
                                          ConfigProblems problems) {
        VNode.Hash weightedStanza = null;
        VNode node = root.get("plugins");
        if (node != null) {
            VNode.Hash h = Bind.hash(node, "plugins", problems);
            if (h != null) {
                for (VNode.Entry e : h.entries()) {
                    if (e.key().equals("weighted")) {
                        weightedStanza = Bind.hash(e.value(), "plugins.weighted", problems);
                    } else if (ConfigProblems.closest(e.key(), PLUGINS) != null) {
                        problems.unknownKey(e, "plugins", PLUGINS);
                    } else {
                        problems.add(e.keyPos(), "plugins." + e.key(), "plugins." + e.key() + ": plugin '" + e.key()
                                + "' is not supported; expected 'weighted' (the only gdnsd plugin Lookout implements)");
                    }
                }
            }
        }
        try {
            return WeightedConfig.bind(weightedStanza, serviceTypes, problems);
        } catch (RuntimeException e) {
            problems.add(at(root, "plugins"), "plugins.weighted", "plugins.weighted: internal error: " + e);
            return WeightedConfig.empty();
        }
    }

    /**
     * {@code zones => { name => path }}, {@code name => { file => path }} or
     * {@code name => { text => "...zone file text..." }} (inline, the zone's lines in a quoted
     * string).
     */
    private Map<String, ZoneConfig> zones(VNode node, String name, Path base, ConfigProblems p) {
        Map<String, ZoneConfig> out = new LinkedHashMap<>();
        if (node == null) {
            return out;
        }
        VNode.Hash h = Bind.hash(node, "zones", p);
        if (h == null) {
            return out;
        }
        for (VNode.Entry e : h.entries()) {
            String path = "zones." + e.key();
            String origin;
            try {
                origin = Addresses.domain(e.key());
            } catch (IllegalArgumentException ex) {
                p.add(e.keyPos(), path, path + ": expected a zone name, found '" + e.key() + "': " + ex.getMessage());
                continue;
            }
            if (out.containsKey(origin)) {
                p.add(e.keyPos(), path, path + ": zone '" + origin + "' is defined twice; expected each zone once");
                continue;
            }
            VNode.Scalar file = null;
            VNode.Scalar inline = null;
            if (e.value() instanceof VNode.Scalar s) {
                file = s;
            } else if (e.value() instanceof VNode.Hash zh) {
                Bind.knownKeys(zh, path, ZONE_KEYS, p);
                if (zh.get("file") != null) {
                    file = Bind.scalar(zh.get("file"), path + ".file", "a file path", p);
                }
                if (zh.get("text") != null) {
                    inline = Bind.scalar(zh.get("text"), path + ".text", "the zone's text in a quoted string", p);
                }
                if (zh.get("file") != null && zh.get("text") != null) {
                    p.add(zh, path, path + ": expected either 'file' or 'text', not both");
                    continue;
                }
                if (zh.get("file") == null && zh.get("text") == null) {
                    p.add(zh, path, path + ": expected 'file => path' or 'text => \"zone text\"'");
                    continue;
                }
            } else {
                Bind.expected(p, e.value(), path, "a zone file path or { file => path } or { text => \"...\" }");
                continue;
            }
            if (inline != null) {
                String where = inline.pos().file().equals(name) ? null : inline.pos().file();
                String dir = (where == null ? base : parentOf(where, base)).toString();
                out.put(origin, new ZoneConfig(origin, inline.pos().file(), inline.value(), inline.pos().line(), dir,
                        zoneIncludes(inline.value(), dir)));
            } else if (file != null) {
                String where = file.pos().file().equals(name) ? null : file.pos().file();
                Path f;
                try {
                    f = resolve(file.value(), where == null ? base : parentOf(where, base));
                } catch (InvalidPathException ex) {
                    p.add(file, path, path + ": expected a file path, found '" + file.value() + "'");
                    continue;
                }
                try {
                    String text = ConfigFiles.readUtf8(f);
                    String dir = ZoneConfig.directoryOf(f.toString());
                    out.put(origin, new ZoneConfig(origin, f.toString(), text, 1, dir, zoneIncludes(text, dir)));
                } catch (IOException | RuntimeException ex) {
                    p.add(file, path, path + ": expected a readable zone file, cannot read '" + f + "': " + describe(ex));
                }
            }
        }
        return out;
    }

    /** {@code state_dir}: relative to the file's directory; absent: {@code state} beside the file. */
    private Path stateDir(VNode node, String name, Path base, ConfigProblems p) {
        if (node == null) {
            return base.resolve("state");
        }
        VNode.Scalar s = Bind.scalar(node, "state_dir", "a directory path", p);
        if (s == null) {
            return base.resolve("state");
        }
        if (s.value().isEmpty()) {
            p.add(s, "state_dir", "state_dir: expected a directory path, found ''");
            return base.resolve("state");
        }
        try {
            String where = s.pos().file().equals(name) ? null : s.pos().file();
            return resolve(s.value(), where == null ? base : parentOf(where, base));
        } catch (InvalidPathException e) {
            p.add(s, "state_dir", "state_dir: expected a directory path, found '" + s.value() + "'");
            return base.resolve("state");
        }
    }

    // ------------------------------------------------------------------ files

    private Path resolve(String path, Path dir) {
        if (path.equals("~")) {
            return home;
        }
        if (path.startsWith("~/")) {
            return home.resolve(path.substring(2)).normalize();
        }
        return dir.resolve(path).toAbsolutePath().normalize();
    }

    private static Path parentOf(String file, Path fallback) {
        Path parent = Path.of(file).toAbsolutePath().getParent();
        return parent == null ? fallback : parent;
    }

    private IncludeResolver includes(String topName, Path base) {
        return (path, includingFile, at) -> {
            Path f;
            try {
                f = resolve(path, includingFile.equals(topName) ? base : parentOf(includingFile, base));
            } catch (InvalidPathException e) {
                throw new VscfSyntaxException(at, "expected a file path after $include, found '" + path + "'");
            }
            try {
                return new IncludeResolver.Included(f.toString(), ConfigFiles.readUtf8(f));
            } catch (IOException | RuntimeException e) {
                throw new VscfSyntaxException(at, "cannot read included file '" + f + "': " + describe(e));
            }
        };
    }

    /**
     * The files a zone text's {@code $INCLUDE} lines name, and theirs, read now (the zone parser
     * does no I/O; see {@link ZoneConfig#includes}). A directive starts its line (RFC 1035 §5.1);
     * a file that cannot be read is kept with the reason, for the parser to report at its line.
     * Each file is read once, which also ends cycles here (the parser reports them).
     */
    static Map<String, ZoneConfig.Include> zoneIncludes(String text, String directory) {
        Map<String, ZoneConfig.Include> out = new java.util.HashMap<>();
        collectIncludes(text, directory, out);
        return out;
    }

    private static void collectIncludes(String text, String directory, Map<String, ZoneConfig.Include> out) {
        for (String line : text.split("\n", -1)) {
            if (line.length() < 9 || !line.regionMatches(true, 0, "$INCLUDE", 0, 8)
                    || !Character.isWhitespace(line.charAt(8))) {
                continue;
            }
            String rest = line.substring(9).strip();
            String name;
            if (rest.startsWith("\"")) {
                int end = rest.indexOf('"', 1);
                name = end < 0 ? rest.substring(1) : rest.substring(1, end);
            } else {
                int end = 0;
                while (end < rest.length() && !Character.isWhitespace(rest.charAt(end)) && rest.charAt(end) != ';') {
                    end++;
                }
                name = rest.substring(0, end);
            }
            if (name.isEmpty()) {
                continue;
            }
            String path = ZoneConfig.includePath(directory, name);
            if (out.containsKey(path) || out.size() >= 256) {
                continue;
            }
            try {
                String included = ConfigFiles.readUtf8(Path.of(path));
                out.put(path, new ZoneConfig.Include(included, null));
                collectIncludes(included, ZoneConfig.directoryOf(path), out);
            } catch (IOException | RuntimeException e) {
                out.put(path, new ZoneConfig.Include(null, describe(e)));
            }
        }
    }

        private static String describe(Exception e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof IOException) {
            String m = e.getMessage();
            return m == null ? e.getClass().getSimpleName() : m;
        }
        return e.toString();
    }
}
