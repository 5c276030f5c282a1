package lookout.console.configpane;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;
import lookout.engine.config.ConfigSource;
import org.junit.jupiter.api.Test;

/**
 * The pane's logic without a toolkit. The parser here is a stand-in with one rule (a {@code !!}
 * is an error at its line and column) so that these tests pin the view model, not the
 * configuration language; the FX test runs the engine's real parser.
 */
class ConfigViewModelTest {

    private final List<ConfigResult> applied = new ArrayList<>();
    private final List<ApplyRequest> requests = new ArrayList<>();
    private ApplyOutcome nextResult;

    private static ConfigResult fakeParse(String text, String name, Path base) {
        List<ConfigProblem> problems = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int col = lines[i].indexOf("!!");
            if (col >= 0) {
                problems.add(new ConfigProblem(name, i + 1, col + 1, "x", "unexpected '!!'"));
            }
        }
        return problems.isEmpty()
                ? new ConfigResult(new Config(ConfigSource.of(name, base, text), null, Map.of(), Map.of(), null, null, null, null), List.of())
                : new ConfigResult(null, problems);
    }

    /** Line-by-line diff: each changed line is one change. */
    private static ConfigDiff fakeDiff(Config a, Config b) {
        String[] x = a.source().text().split("\n", -1);
        String[] y = b.source().text().split("\n", -1);
        List<ConfigDiff.Change> changes = new ArrayList<>();
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String before = i < x.length ? x[i] : null;
            String after = i < y.length ? y[i] : null;
            if (before == null) {
                changes.add(new ConfigDiff.Change("s", "line" + (i + 1), ConfigDiff.Kind.ADDED, null, after));
            } else if (after == null) {
                changes.add(new ConfigDiff.Change("s", "line" + (i + 1), ConfigDiff.Kind.REMOVED, before, null));
            } else if (!before.equals(after)) {
                changes.add(new ConfigDiff.Change("s", "line" + (i + 1), ConfigDiff.Kind.CHANGED, before, after));
            }
        }
        return new ConfigDiff(changes);
    }

    private ConfigViewModel vm() {
        return new ConfigViewModel(ConfigViewModelTest::fakeParse, ConfigViewModelTest::fakeDiff, Runnable::run, Runnable::run, (r, request) -> {
            applied.add(r);
            requests.add(request);
            return CompletableFuture.completedFuture(nextResult);
        });
    }

    /** With the text's real SHA-256, as the engine reports it. */
    private static EngineSnapshot snapshot(long version, String text) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return snapshot(version, text, java.util.HexFormat.of().formatHex(d), 1);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static EngineSnapshot snapshot(long version, String text, String hashPart) {
        return snapshot(version, text, hashPart, 32);
    }

    private static EngineSnapshot snapshot(long version, String text, String hashPart, int times) {
        ConfigStatus cs = new ConfigStatus(version, hashPart.repeat(times), "/etc/lookout.conf",
                Instant.parse("2026-01-01T00:00:00Z").plusSeconds(version), text, null);
        return new EngineSnapshot(EngineState.RUNNING, Instant.now(), Instant.now(), cs, null, null, null, null,
                List.of(), List.of());
    }

    @Test
    void theEditorFollowsTheRunningTextUntilEdited() {
        ConfigViewModel vm = vm();
        vm.onSnapshot(snapshot(1, "a = 1\n"));
        assertThat(vm.textProperty().get()).isEqualTo("a = 1\n");
        assertThat(vm.dirtyProperty().get()).isFalse();

        vm.textProperty().set("a = 2\n");
        vm.onSnapshot(snapshot(2, "a = 3\n"));
        assertThat(vm.textProperty().get()).as("an edit is never overwritten").isEqualTo("a = 2\n");
        assertThat(vm.runningTextProperty().get()).isEqualTo("a = 3\n");
        assertThat(vm.history()).extracting(HistoryEntry::version).containsExactly(2L, 1L);
    }

    @Test
    void validateListsProblemsWithLineAndColumnAndTheCaretGoesThere() {
        ConfigViewModel vm = vm();
        vm.onSnapshot(snapshot(1, "a = 1\nb = 2\n"));
        vm.textProperty().set("a = 1\nb = !!2\n");
        ConfigResult r = vm.validate().join();
        assertThat(r.ok()).isFalse();
        assertThat(vm.problems()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(2);
            assertThat(p.column()).isEqualTo(5);
        });
        int caret = vm.caretIndexOf(vm.problems().get(0));
        assertThat(vm.textProperty().get().substring(caret)).startsWith("!!2");
        assertThat(vm.messageProperty().get()).contains("1 error", "nothing applied");
    }

    @Test
    void applyWithProblemsAppliesNothing() {
        ConfigViewModel vm = vm();
        vm.onSnapshot(snapshot(1, "a = 1\n"));
        vm.textProperty().set("!!\n");
        assertThat(vm.apply().join()).isNull();
        assertThat(applied).isEmpty();
        assertThat(vm.problems()).hasSize(1);
    }

    private static ApplyOutcome outcome(ApplyOutcome.Status status, long version, String message, String saved,
                                        String backup, ConfigDiff.Change... changes) {
        return new ApplyOutcome(status, version, new ConfigDiff(List.of(changes)), List.of(), message, "ab", "cd",
                saved == null ? null : Path.of(saved), backup == null ? null : Path.of(backup));
    }

    private static final ConfigDiff.Change CHANGE = new ConfigDiff.Change("s", "line1", ConfigDiff.Kind.CHANGED, "a = 1",
            "a = 2");

    @Test
    void applyValidTextReportsTheNewVersionAndWhereItWasSaved() {
        ConfigViewModel vm = vm();
        vm.onSnapshot(snapshot(1, "a = 1\n"));
        vm.textProperty().set("a = 2\n");
        nextResult = outcome(ApplyOutcome.Status.APPLIED, 2, "configuration version 2 applied and saved", "/etc/lookout.conf",
                "/var/lib/lookout/backups/lookout.conf.1", CHANGE);
        ApplyOutcome r = vm.apply().join();
        assertThat(r.applied()).isTrue();
        assertThat(applied).singleElement().satisfies(c -> assertThat(c.config().source().text()).isEqualTo("a = 2\n"));
        assertThat(requests).as("against the version the editor shows").containsExactly(ApplyRequest.plain().expecting(1));
        assertThat(vm.messageProperty().get()).isEqualTo("Version 2 applied (1 change), saved to /etc/lookout.conf"
                + " (the previous file kept as lookout.conf.1).");

        // applied again before a snapshot shows version 2: against version 2
        vm.textProperty().set("a = 3\n");
        nextResult = outcome(ApplyOutcome.Status.APPLIED, 3, "applied", "/etc/lookout.conf", null, CHANGE);
        vm.apply().join();
        assertThat(requests.get(1)).isEqualTo(ApplyRequest.plain().expecting(2));
    }

    @Test
    void theEmbeddedDefaultAppliesInMemoryAndSaysSo() {
        ConfigViewModel vm = vm();
        vm.onSnapshot(new EngineSnapshot(EngineState.RUNNING, Instant.now(), Instant.now(), new ConfigStatus(1, "ab".repeat(32),
                "<embedded default>", Instant.now(), "a = 1\n", null), null, null, null, null, List.of(), List.of()));
        vm.textProperty().set("a = 2\n");
        nextResult = outcome(ApplyOutcome.Status.APPLIED, 2, "configuration version 2 applied in memory only", null, null, CHANGE);
        vm.apply().join();
        assertThat(vm.messageProperty().get()).isEqualTo("Version 2 applied (1 change) in memory only: the embedded default"
                + " has no file to save it to.");
    }

    @Test
    void anApplyThatStartedTheEngineSaysSoAndOneNotSavedSaysWhy() {
        ConfigViewModel vm = vm();
        vm.showUnstarted("/etc/lookout.conf", "a = 1\n", List.of());
        nextResult = outcome(ApplyOutcome.Status.APPLIED, 7, "engine started on /etc/lookout.conf (version 7)", null, null);
        vm.apply().join();
        assertThat(requests).containsExactly(ApplyRequest.plain());
        assertThat(vm.messageProperty().get()).isEqualTo("Engine started on version 7.");

        vm.onSnapshot(snapshot(7, "a = 1\n"));
        vm.textProperty().set("a = 2\n");
        nextResult = outcome(ApplyOutcome.Status.APPLIED, 8, "configuration version 8 applied but NOT saved: /etc/lookout.conf:"
                + " permission denied; the file still holds the previous configuration", null, null, CHANGE);
        vm.apply().join();
        assertThat(vm.messageProperty().get()).isEqualTo("Version 8 applied (1 change) but NOT saved: /etc/lookout.conf:"
                + " permission denied; the file still holds the previous configuration");
    }

    @Test
    void aRejectionFromTheEngineIsListed() {
        ConfigViewModel vm = vm();
        vm.onSnapshot(snapshot(1, "a = 1\n"));
        vm.textProperty().set("a = 2\n");
        nextResult = new ApplyOutcome(ApplyOutcome.Status.INVALID, 1, null,
                List.of(new ConfigProblem("/etc/lookout.conf", 1, 5, "a", "cross-check failed")), "1 problem", null, null,
                null, null);
        vm.apply().join();
        assertThat(vm.problems()).extracting(ConfigProblem::message).containsExactly("cross-check failed");
        assertThat(vm.messageProperty().get()).contains("Rejected", "running version 1 kept");
    }

    @Test
    void aFileEditedOnDiskOrATextThatRemovesEverythingHasAWayPastAndTheOthersNone() {
        ConfigViewModel vm = vm();
        vm.onSnapshot(snapshot(4, "a = 1\n"));
        vm.textProperty().set("a = 2\n");
        nextResult = outcome(ApplyOutcome.Status.EDITED_ON_DISK, 4, "/etc/lookout.conf was changed on disk since the engine"
                + " loaded it (sha256 on disk cd, running ab)", null, null);
        ApplyOutcome edited = vm.apply().join();
        assertThat(vm.messageProperty().get()).isEqualTo("Not applied: the configuration file was changed on disk since the"
                + " engine loaded it.");
        ApplyRequest overwrite = vm.wayPast(edited);
        assertThat(overwrite).isEqualTo(ApplyRequest.plain().expecting(4).forced());
        nextResult = outcome(ApplyOutcome.Status.APPLIED, 5, "applied", "/etc/lookout.conf", null, CHANGE);
        vm.apply(overwrite).join();
        assertThat(requests).last().isEqualTo(new ApplyRequest(false, true, false, 4L));
        assertThat(vm.messageProperty().get()).startsWith("Version 5 applied");

        nextResult = outcome(ApplyOutcome.Status.WOULD_REMOVE_EVERYTHING, 5, "the configuration configures no service", null, null);
        ApplyOutcome empty = vm.apply().join();
        assertThat(vm.messageProperty().get()).isEqualTo("Not applied: this configuration would remove every service.");
        assertThat(vm.wayPast(empty)).isEqualTo(ApplyRequest.plain().expecting(5).confirmingEmpty());

        for (ApplyOutcome.Status st : List.of(ApplyOutcome.Status.VERSION_MISMATCH, ApplyOutcome.Status.FAILED,
                ApplyOutcome.Status.UNWRITABLE, ApplyOutcome.Status.NOT_RUNNING)) {
            nextResult = outcome(st, 6, "no", null, null);
            assertThat(vm.wayPast(vm.apply().join())).as(st.name()).isNull();
        }
        assertThat(vm.messageProperty().get()).isEqualTo("Not applied: no (version 6 runs).");
        nextResult = outcome(ApplyOutcome.Status.VERSION_MISMATCH, 6, "no", null, null);
        vm.apply().join();
        assertThat(vm.messageProperty().get()).isEqualTo("Not applied: version 6 runs now (applied meanwhile from elsewhere)."
                + " Diff against it, then Apply again.");
    }

    @Test
    void diffSaysWhatChangesAndRevertRestoresTheRunningText() {
        ConfigViewModel vm = vm();
        vm.onSnapshot(snapshot(1, "a = 1\nb = 2\n"));
        vm.textProperty().set("a = 1\nb = 3\n");
        ConfigDiff d = vm.diff().join();
        assertThat(d.changes()).hasSize(1);
        assertThat(vm.plainDiff()).containsExactly("line2 changed b = 2 → b = 3");
        assertThat(vm.technicalDiffProperty().get()).isEqualTo("~ line2: b = 2 -> b = 3");
        vm.revert();
        assertThat(vm.textProperty().get()).isEqualTo("a = 1\nb = 2\n");
        assertThat(vm.dirtyProperty().get()).isFalse();
    }

    @Test
    void rollBackLoadsAnOlderVersionWithoutApplyingIt() {
        ConfigViewModel vm = vm();
        vm.onSnapshot(snapshot(1, "a = 1\n"));
        vm.onSnapshot(snapshot(2, "a = 2\n"));
        HistoryEntry v1 = vm.history().get(1);
        ConfigDiff d = vm.compare(v1).join();
        assertThat(d.changes()).singleElement().satisfies(c -> {
            assertThat(c.before()).isEqualTo("a = 1");
            assertThat(c.after()).isEqualTo("a = 2");
        });
        vm.rollBackTo(v1);
        assertThat(vm.textProperty().get()).isEqualTo("a = 1\n");
        assertThat(applied).isEmpty();
    }

    @Test
    void unstartedShowsTheFileAndItsProblems() {
        ConfigViewModel vm = vm();
        vm.showUnstarted("/etc/bad.conf", "x !!\n", List.of(new ConfigProblem("/etc/bad.conf", 1, 3, "", "bad")));
        assertThat(vm.textProperty().get()).isEqualTo("x !!\n");
        assertThat(vm.problems()).hasSize(1);
        assertThat(vm.messageProperty().get()).contains("Not running", "1 error", "Apply to start");
    }
    @Test
    void theHistorySurvivesARestartAndAnOldVersionCanBeComparedAndRolledBackTo(@org.junit.jupiter.api.io.TempDir Path state)
            throws Exception {
        HistoryStore store = new HistoryStore(state);
        ConfigViewModel first = vm();
        first.useHistoryStore(store);
        first.onSnapshot(snapshot(1, "a = 1\n", "11"));
        first.onSnapshot(snapshot(2, "a = 2\n", "22"));
        assertThat(store.load()).extracting(HistoryEntry::text).containsExactly("a = 2\n", "a = 1\n");

        // restart: the engine counts from 1 again, on the text last applied
        ConfigViewModel second = vm();
        second.onSnapshot(snapshot(1, "a = 2\n", "22"));
        second.useHistoryStore(new HistoryStore(state));
        assertThat(second.history()).as("the unchanged text is one entry, the newest")
                .extracting(HistoryEntry::version, HistoryEntry::text)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "a = 2\n"), org.assertj.core.groups.Tuple.tuple(1L, "a = 1\n"));
        assertThat(second.historyMessageProperty().get()).contains(store.file().toString());

        HistoryEntry old = second.history().get(1);
        ConfigDiff d = second.compare(old).join();
        assertThat(d.changes()).extracting(ConfigDiff.Change::before, ConfigDiff.Change::after)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a = 1", "a = 2"));
        second.rollBackTo(old);
        assertThat(second.textProperty().get()).isEqualTo("a = 1\n");
        assertThat(applied).as("rolling back applies nothing by itself").isEmpty();

        second.onSnapshot(snapshot(2, "a = 3\n", "33"));
        assertThat(store.load()).extracting(HistoryEntry::text).containsExactly("a = 3\n", "a = 2\n", "a = 1\n");
    }

    @Test
    void anUnreadableHistoryFileIsSaidAndNeverOverwritten(@org.junit.jupiter.api.io.TempDir Path state) throws Exception {
        java.nio.file.Files.writeString(state.resolve(HistoryStore.FILE_NAME), "not ours\n");
        ConfigViewModel vm = vm();
        vm.useHistoryStore(new HistoryStore(state));
        vm.onSnapshot(snapshot(1, "a = 1\n", "11"));
        assertThat(vm.historyMessageProperty().get()).startsWith("History not kept:");
        assertThat(java.nio.file.Files.readString(state.resolve(HistoryStore.FILE_NAME))).isEqualTo("not ours\n");
        assertThat(vm.history()).hasSize(1);
    }
}
