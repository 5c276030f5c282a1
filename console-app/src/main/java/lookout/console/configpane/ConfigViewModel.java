package lookout.console.configpane;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;

/**
 * The Configuration pane without any UI toolkit: the editor text, Validate, Diff, Apply, Revert,
 * and the history of the versions applied while this console was open.
 *
 * <p>Concurrency: every method and property belongs to the UI thread. Parsing runs on
 * {@code background} (a 10 000-line file must not freeze the window) and its result comes back on
 * {@code ui}; applying goes through the {@code apply} function (the gateway), which completes on
 * the UI thread.
 */
public final class ConfigViewModel {

    /** How text becomes a configuration: {@code ConfigLoader::parse} in the console. */
    @FunctionalInterface
    public interface Parser {
        ConfigResult parse(String text, String sourceName, Path baseDir);
    }

    /** How two configurations are compared: {@code ConfigLoader::diff} in the console. */
    @FunctionalInterface
    public interface Differ {
        ConfigDiff diff(Config before, Config after);
    }

    /**
     * How the editor's text is applied: the gateway's {@code apply}, the engine's operator apply
     * (validated again, saved to its file, refused when the file was edited by hand or the text
     * would remove every service); completes on the UI thread.
     */
    @FunctionalInterface
    public interface Applier {
        CompletableFuture<ApplyOutcome> apply(ConfigResult candidate, ApplyRequest request);
    }

    /**
     * The odds a configuration's weighted pools give under the engine's current monitor and forced
     * states ({@code EngineGateway::candidateOdds}); completes on the UI thread.
     */
    @FunctionalInterface
    public interface OddsSource {
        CompletableFuture<List<PoolsSnapshot.PoolResource>> odds(Config config);
    }

    private final Parser loader;
    private final Differ differ;
    private final Executor background;
    private final Executor ui;
    private final Applier apply;
    private final OddsSource odds;
    /** Where applied versions are kept across restarts; null until the state directory is known. */
    private HistoryStore store;
    /** False until the store's earlier entries were read: an unreadable file is never overwritten. */
    private boolean storeReadable;
    private final ReadOnlyStringWrapper historyMessage = new ReadOnlyStringWrapper("History: this session only.");

    private final StringProperty text = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper runningText = new ReadOnlyStringWrapper("");
    private final ReadOnlyLongWrapper runningVersion = new ReadOnlyLongWrapper(0);
    private final ReadOnlyStringWrapper sourceName = new ReadOnlyStringWrapper(ConfigLoader.EMBEDDED_NAME);
    private final lookout.console.widgets.Note message = new lookout.console.widgets.Note();
    private final BooleanProperty busy = new SimpleBooleanProperty(false);
    private final StringProperty readOnly = new SimpleStringProperty("");
    private final ObservableList<ConfigProblem> problems = FXCollections.observableArrayList();
    private final ObservableList<String> plainDiff = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper technicalDiff = new ReadOnlyStringWrapper("");
    private final ObservableList<HistoryEntry> history = FXCollections.observableArrayList();
    private final BooleanBinding dirty;
    /** Bumped on every edit so that a slow parse of an older text is not shown as current. */
    private long generation;
    /** Bumped on every diff so that late odds land only on the diff they belong to. */
    private long diffSeq;
    /** The newest version an apply of this console made (snapshots may not show it yet). */
    private long appliedVersion;
    /** The request of the last apply, for the way past its refusal ({@link #wayPast}). */
    private ApplyRequest lastRequest = ApplyRequest.plain();

    /** The console's wiring: the engine's own parser and diff. */
    public ConfigViewModel(ConfigLoader loader, Executor background, Executor ui,
                           Applier apply) {
        this(loader::parse, ConfigLoader::diff, background, ui, apply, null);
    }

    /** The console's wiring with odds before → after in the diff. */
    public ConfigViewModel(ConfigLoader loader, Executor background, Executor ui,
                           Applier apply, OddsSource odds) {
        this(loader::parse, ConfigLoader::diff, background, ui, apply, odds);
    }

    public ConfigViewModel(Parser parser, Differ differ, Executor background, Executor ui,
                           Applier apply) {
        this(parser, differ, background, ui, apply, null);
    }

    /** {@code odds} may be null: the diff then says no odds. */
    public ConfigViewModel(Parser parser, Differ differ, Executor background, Executor ui,
                           Applier apply, OddsSource odds) {
        this.odds = odds;
        this.loader = Objects.requireNonNull(parser);
        this.differ = Objects.requireNonNull(differ);
        this.background = background;
        this.ui = ui;
        this.apply = apply;
        this.dirty = Bindings.createBooleanBinding(() -> !text.get().equals(runningText.get()), text, runningText);
        text.addListener((o, a, b) -> generation++);
    }

    // ------------------------------------------------------------------ properties

    public StringProperty textProperty() {
        return text;
    }

    public ReadOnlyStringProperty runningTextProperty() {
        return runningText.getReadOnlyProperty();
    }

    public ReadOnlyLongProperty runningVersionProperty() {
        return runningVersion.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty sourceNameProperty() {
        return sourceName.getReadOnlyProperty();
    }

    /** One line saying what the last action did ("3 errors", "version 4 applied", ...). */
    public ReadOnlyStringProperty messageProperty() {
        return message.textProperty();
    }

    /** The last action's message as a note that clears itself after a while (the view's timer). */
    public lookout.console.widgets.Note messageNote() {
        return message;
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy;
    }

    /** Why Apply is not this console's to do (a viewer's token), or empty: Validate and Diff still work. */
    public StringProperty readOnlyProperty() {
        return readOnly;
    }

    public BooleanBinding dirtyProperty() {
        return dirty;
    }

    public ObservableList<ConfigProblem> problems() {
        return problems;
    }

    public ObservableList<String> plainDiff() {
        return plainDiff;
    }

    public ReadOnlyStringProperty technicalDiffProperty() {
        return technicalDiff.getReadOnlyProperty();
    }

    /** Applied versions, newest first: this session's, then those kept from earlier runs. */
    public ObservableList<HistoryEntry> history() {
        return history;
    }

    // ------------------------------------------------------------------ inputs

    /**
     * The console was opened on a file that did not load: the editor holds its text and its
     * problems are listed; the engine is not running yet and Apply starts it.
     */
    public void showUnstarted(String name, String fileText, List<ConfigProblem> loadProblems) {
        sourceName.set(name);
        runningText.set("");
        text.set(fileText);
        problems.setAll(loadProblems);
        message.say("Not running: " + count(loadProblems.size(), "error") + " in " + name
                + ". Fix them and Apply to start the engine.");
    }

    /** A new snapshot: follows the running version; an unedited editor follows the running text. */
    public void onSnapshot(EngineSnapshot s) {
        ConfigStatus c = s.config();
        if (c == null || c.version() == runningVersion.get()) {
            return;
        }
        boolean following = !dirty.get();
        runningVersion.set(c.version());
        sourceName.set(c.sourceName());
        runningText.set(c.text());
        if (following) {
            text.set(c.text());
        }
        List<HistoryEntry> next = new java.util.ArrayList<>(history);
        next.add(0, new HistoryEntry(c.version(), c.appliedAt(), c.sha256(), c.sourceName(), c.text()));
        history.setAll(collapse(next));
        persistHistory();
    }

    // ------------------------------------------------------------------ history on disk

    /**
     * Keeps the history in {@code store} from now on: what it holds from earlier runs is read (on
     * the background executor) and put after the versions seen this session; every new version is
     * written back. A store that cannot be read is left alone (never overwritten) and said.
     */
    public void useHistoryStore(HistoryStore s) {
        if (s == null || store == s) {
            return;
        }
        store = s;
        storeReadable = false;
        background.execute(() -> {
            List<HistoryEntry> old;
            String error = null;
            try {
                old = s.load();
            } catch (java.io.IOException | RuntimeException e) {
                old = List.of();
                error = e.getMessage();
            }
            List<HistoryEntry> loaded = old;
            String err = error;
            ui.execute(() -> {
                if (store != s) {
                    return;
                }
                if (err != null) {
                    historyMessage.set("History not kept: " + err);
                    return;
                }
                storeReadable = true;
                List<HistoryEntry> merged = new java.util.ArrayList<>(history);
                merged.addAll(loaded);
                history.setAll(collapse(merged));
                historyMessage.set("History kept in " + s.file());
                persistHistory();
            });
        });
    }

    /** Where the history is kept, or why it is not. */
    public ReadOnlyStringProperty historyMessageProperty() {
        return historyMessage.getReadOnlyProperty();
    }

    /**
     * Newest first, at most {@link HistoryStore#LIMIT}; of consecutive entries with the same text
     * (hash) only the newest stays, so restarting on an unchanged file does not fill the history.
     */
    static List<HistoryEntry> collapse(List<HistoryEntry> newestFirst) {
        List<HistoryEntry> out = new java.util.ArrayList<>();
        for (HistoryEntry e : newestFirst) {
            if (out.size() == HistoryStore.LIMIT) {
                break;
            }
            if (!out.isEmpty() && sameText(out.get(out.size() - 1), e)) {
                continue;
            }
            out.add(e);
        }
        return out;
    }

    private static boolean sameText(HistoryEntry newer, HistoryEntry older) {
        if (newer.sha256() != null && !newer.sha256().isEmpty() && older.sha256() != null && !older.sha256().isEmpty()) {
            return newer.sha256().equals(older.sha256());
        }
        return newer.text().equals(older.text());
    }

    private void persistHistory() {
        HistoryStore s = store;
        if (s == null || !storeReadable) {
            return;
        }
        List<HistoryEntry> copy = List.copyOf(history);
        background.execute(() -> {
            try {
                s.save(copy);
            } catch (java.io.IOException | RuntimeException e) {
                String m = e.getMessage();
                ui.execute(() -> historyMessage.set("History not saved: " + m));
            }
        });
    }

    // ------------------------------------------------------------------ actions

    /** Parses and validates the editor's text; fills {@link #problems()}. */
    public CompletableFuture<ConfigResult> validate() {
        long gen = generation;
        String candidate = text.get();
        busy.set(true);
        return parseAsync(candidate).thenApply(r -> {
            busy.set(false);
            if (gen == generation) {
                problems.setAll(r.problems());
                message.say(r.ok() ? "Valid: no errors." : count(r.problems().size(), "error") + " — nothing applied.");
            }
            return r;
        });
    }

    /** Validates, then compares the candidate with the running configuration. */
    public CompletableFuture<ConfigDiff> diff() {
        return diffTexts(runningText.get(), text.get(), "the running configuration");
    }

    /** Compares a history entry with the running configuration (or the editor when nothing runs). */
    public CompletableFuture<ConfigDiff> compare(HistoryEntry entry) {
        return diffTexts(entry.text(), runningText.get(), "version " + entry.version());
    }

    private CompletableFuture<ConfigDiff> diffTexts(String beforeText, String afterText, String what) {
        busy.set(true);
        CompletableFuture<ConfigResult> before = parseAsync(beforeText);
        CompletableFuture<ConfigResult> after = parseAsync(afterText);
        return before.thenCombine(after, (b, a) -> new ConfigResult[] {b, a}).thenCompose(ba -> {
            ConfigDiff d = describeDiff(ba[0], ba[1], what);
            if (d == null || odds == null || !OddsDiff.touchesPools(d)) {
                busy.set(false);
                return CompletableFuture.completedFuture(d);
            }
            // odds before → after, computed by the engine off the UI thread; the diff completes
            // with them so that Apply's confirmation shows them
            List<String> words = List.copyOf(plainDiff);
            long seq = diffSeq;
            CompletableFuture<List<PoolsSnapshot.PoolResource>> now = safeOdds(ba[0].config());
            CompletableFuture<List<PoolsSnapshot.PoolResource>> then = safeOdds(ba[1].config());
            return now.thenCombine(then, (x, y) -> OddsDiff.describe(x, y))
                    .handle((lines, err) -> {
                        busy.set(false);
                        List<String> all = new java.util.ArrayList<>(words);
                        if (err != null) {
                            Throwable cause = err instanceof java.util.concurrent.CompletionException && err.getCause() != null
                                    ? err.getCause() : err;
                            all.add("odds before → after not available: " + cause.getMessage());
                        } else {
                            all.addAll(lines);
                        }
                        if (seq == diffSeq) { // a newer diff is not overwritten by these odds
                            plainDiff.setAll(all);
                        }
                        return d;
                    });
        });
    }

    private CompletableFuture<List<PoolsSnapshot.PoolResource>> safeOdds(Config c) {
        try {
            return odds.odds(c);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private ConfigDiff describeDiff(ConfigResult b, ConfigResult a, String what) {
        diffSeq++;
        {
            if (!a.ok()) {
                problems.setAll(a.problems());
                plainDiff.setAll("The candidate has " + count(a.problems().size(), "error") + "; no diff.");
                technicalDiff.set("");
                message.say(count(a.problems().size(), "error") + " — fix before diffing.");
                return null;
            }
            if (!b.ok()) {
                problems.clear();
                plainDiff.setAll("Nothing is running yet: applying starts the engine on this configuration.");
                technicalDiff.set("");
                return null;
            }
            problems.clear();
            ConfigDiff d = differ.diff(b.config(), a.config());
            List<String> words = PlainDiff.describe(d);
            plainDiff.setAll(words);
            technicalDiff.set(String.join("\n", d.changes().stream().map(Object::toString).toList()));
            // counted as listed: one line per change an operator reads (a list edit is one line per element)
            message.say(d.isEmpty() ? "No difference from " + what + "."
                    : count(words.size(), "change") + " against " + what + ".");
            return d;
        }
    }

    /**
     * Validates and applies, against the version the editor shows (an apply by someone else in
     * between is refused: {@link ApplyOutcome.Status#VERSION_MISMATCH}). Problems: nothing
     * applied, they are listed. Completes with null when nothing was asked of the engine.
     */
    public CompletableFuture<ApplyOutcome> apply() {
        long expected = Math.max(runningVersion.get(), appliedVersion);
        return apply(expected > 0 ? ApplyRequest.plain().expecting(expected) : ApplyRequest.plain());
    }

    /** {@link #apply()} with these options (the way past a refusal: {@link #wayPast}). */
    public CompletableFuture<ApplyOutcome> apply(ApplyRequest request) {
        if (!readOnly.get().isEmpty()) {
            message.say("Not applied: " + readOnly.get());
            return CompletableFuture.completedFuture(null);
        }
        return validate().thenCompose(r -> {
            if (!r.ok()) {
                return CompletableFuture.completedFuture(null);
            }
            busy.set(true);
            message.say("Applying…");
            lastRequest = request;
            return apply.apply(r, request).handle((res, err) -> {
                busy.set(false);
                if (err != null) {
                    Throwable cause = err instanceof java.util.concurrent.CompletionException && err.getCause() != null
                            ? err.getCause() : err;
                    message.say("Apply failed: " + lookout.console.widgets.PlainWords.of(cause.getMessage()));
                    return null;
                }
                describe(res);
                return res;
            });
        });
    }

    /**
     * What became of an apply, in the message line (short: it shares a tool bar with the buttons;
     * a refusal's whole text is the engine's {@link ApplyOutcome#message()}, which the way past it
     * shows) and the problems list.
     */
    /** "no effective change", or the changes counted as the diff lists them. */
    private static String changes(lookout.engine.config.ConfigDiff d) {
        return d.isEmpty() ? "no effective change" : count(PlainDiff.describe(d).size(), "change");
    }

    private void describe(ApplyOutcome res) {
        boolean started = runningVersion.get() == 0; // nothing ran: the apply started the engine
        switch (res.status()) {
            case APPLIED -> {
                appliedVersion = Math.max(appliedVersion, res.version());
                String done = "Version " + res.version() + " applied (" + changes(res.diff()) + ")";
                if (res.saved() != null) {
                    message.say(done + ", saved to " + res.saved() + (res.backup() == null ? ""
                            : " (the previous file kept as " + res.backup().getFileName() + ")") + ".");
                } else if (started) {
                    message.say("Engine started on version " + res.version() + ".");
                } else if (res.message().contains("NOT saved")) {
                    message.say(done + " but NOT saved: " + res.message().substring(res.message().indexOf("NOT saved") + 11));
                } else if (sourceName.get() == null || sourceName.get().startsWith("<")) {
                    message.say(done + " in memory only: the embedded default has no file to save it to.");
                } else {
                    message.say(done + " in memory only: the engine has no configuration file to save it to.");
                }
            }
            case VALID -> message.say("Valid: " + changes(res.diff()) + "; nothing applied.");
            case INVALID -> {
                problems.setAll(res.problems());
                message.say("Rejected: " + count(res.problems().size(), "error") + ", running version "
                        + res.version() + " kept.");
            }
            case VERSION_MISMATCH -> message.say("Not applied: version " + res.version() + " runs now (applied"
                    + " meanwhile from elsewhere). Diff against it, then Apply again.");
            case EDITED_ON_DISK -> message.say("Not applied: the configuration file was changed on disk since the engine"
                    + " loaded it.");
            case WOULD_REMOVE_EVERYTHING -> message.say("Not applied: this configuration would remove every service.");
            case FAILED, UNWRITABLE, NOT_RUNNING -> message.say("Not applied: " + res.message() + " (version "
                    + res.version() + " runs).");
        }
    }

    /**
     * The way past a refusal that an operator may override, or null: a file edited on disk is
     * overwritten ({@link ApplyRequest#force}), a text that removes every service applied anyway
     * ({@link ApplyRequest#confirmEmpty}); the options of the refused apply otherwise stay.
     */
    public ApplyRequest wayPast(ApplyOutcome refused) {
        if (refused == null) {
            return null;
        }
        return switch (refused.status()) {
            case EDITED_ON_DISK -> lastRequest.forced();
            case WOULD_REMOVE_EVERYTHING -> lastRequest.confirmingEmpty();
            default -> null;
        };
    }

    /** Puts the running text back into the editor. */
    public void revert() {
        text.set(runningText.get());
        problems.clear();
        plainDiff.clear();
        technicalDiff.set("");
        message.say("Reverted to running version " + runningVersion.get() + ".");
    }

    /**
     * Loads an older version into the editor; it then goes through the normal
     * validate → diff → apply path (nothing is applied behind the operator's back).
     */
    public void rollBackTo(HistoryEntry entry) {
        text.set(entry.text());
        problems.clear();
        message.say("Version " + entry.version() + " loaded into the editor: Diff, then Apply to roll back.");
    }

    /** Where the caret goes for a problem. */
    public int caretIndexOf(ConfigProblem p) {
        return TextPositions.indexOf(text.get(), p.line(), p.column());
    }

    private CompletableFuture<ConfigResult> parseAsync(String candidate) {
        String name = sourceName.get();
        Path base = baseDir(name);
        CompletableFuture<ConfigResult> f = new CompletableFuture<>();
        background.execute(() -> {
            ConfigResult r;
            try {
                r = loader.parse(candidate, name, base);
            } catch (RuntimeException e) {
                r = new ConfigResult(null, List.of(new ConfigProblem(name, 1, 1, "",
                        "the configuration parser failed: " + e)));
            }
            ConfigResult result = r;
            ui.execute(() -> f.complete(result));
        });
        return f;
    }

    static Path baseDir(String sourceName) {
        if (sourceName == null || sourceName.startsWith("<")) {
            return Path.of("").toAbsolutePath();
        }
        Path parent = Path.of(sourceName).toAbsolutePath().getParent();
        return parent != null ? parent : Path.of("").toAbsolutePath();
    }

    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
