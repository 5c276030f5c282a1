package lookout.console.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import org.junit.jupiter.api.Test;

class EventsViewModelTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static EngineEvent notice(long millis, Subsystem sub, Severity sev, String msg) {
        return new EngineEvent.Notice(T0.plusMillis(millis), sub, sev, msg);
    }

    @Test
    void aBurstIsFoldedIntoOneSummaryRowUpdatedInPlace() {
        EventsViewModel vm = new EventsViewModel();
        List<EngineEvent> burst = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            burst.add(notice(i, Subsystem.RESOLVER, i % 2 == 0 ? Severity.WARNING : Severity.INFO, "upstream " + i));
        }
        vm.onEvents(burst.subList(0, 250));
        EventRow summary = vm.rows().get(FloodGuard.PASS);
        vm.onEvents(burst.subList(250, 500));

        assertThat(vm.rows()).hasSize(FloodGuard.PASS + 1);
        assertThat(vm.rows().get(FloodGuard.PASS)).isSameAs(summary);
        assertThat(summary.summary()).isTrue();
        assertThat(summary.count()).isEqualTo(500 - FloodGuard.PASS);
        assertThat(summary.severity()).isEqualTo(Severity.WARNING);
        assertThat(summary.message()).contains("490 more RESOLVER events", "245 WARNING", "245 INFO", "last: upstream 499");
    }

    @Test
    void aDeadUpstreamIsFoldedAsTheLogFoldsIt() {
        EventsViewModel vm = new EventsViewModel();
        // one dead upstream under load: a demotion renewed every 5 ms for 10 s (2 000 events), its
        // mark running out now and then, other events in between
        List<EngineEvent> batch = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            long ms = i * 5L;
            batch.add(new EngineEvent.UpstreamDemoted(T0.plusMillis(ms), "127.0.0.1:53", "timeout",
                    T0.plusMillis(ms + 30_000), i > 0));
            if (i % 500 == 250) {
                batch.add(new EngineEvent.UpstreamRestored(T0.plusMillis(ms + 1), "127.0.0.1:53", "mark expired"));
                batch.add(notice(ms + 2, Subsystem.CONFIG, Severity.NOTICE, "between " + i));
            }
        }
        vm.onEvents(batch.subList(0, 1000));
        vm.onEvents(batch.subList(1000, batch.size()));
        vm.onEvents(List.of(new EngineEvent.UpstreamRestored(T0.plusSeconds(70), "127.0.0.1:53", "NOERROR reply")));

        List<EventRow> upstream = vm.rows().stream().filter(r -> r.message().contains("127.0.0.1:53")).toList();
        assertThat(upstream).extracting(EventRow::severity, EventRow::message).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Severity.WARNING,
                        "upstream 127.0.0.1:53 failing: timeout (demoted until 2026-01-01T00:00:30Z)"),
                org.assertj.core.groups.Tuple.tuple(Severity.INFO,
                        "upstream 127.0.0.1:53 recovered after 70 s (2 000 failures)"));
        assertThat(upstream).allSatisfy(r -> assertThat(r.subsystem()).isEqualTo(Subsystem.RESOLVER));
        assertThat(upstream.get(0).at()).isEqualTo(T0);
        // everything else is shown as it came
        assertThat(vm.rows()).extracting(EventRow::message).contains("between 250", "between 750", "between 1250",
                "between 1750");
        assertThat(vm.rows()).hasSize(2 + 4);
    }

    @Test
    void aFailureThatLastsGetsOneStillFailingRowAMinute() {
        EventsViewModel vm = new EventsViewModel();
        List<EngineEvent> batch = new ArrayList<>();
        // 3 minutes of a demotion renewed every second
        for (int s = 0; s < 180; s++) {
            batch.add(new EngineEvent.UpstreamDemoted(T0.plusSeconds(s), "192.0.2.53:53", "timeout",
                    T0.plusSeconds(s + 30), s > 0));
        }
        vm.onEvents(batch);
        assertThat(vm.rows()).extracting(EventRow::message).containsExactly(
                "upstream 192.0.2.53:53 failing: timeout (demoted until 2026-01-01T00:00:30Z)",
                "upstream 192.0.2.53:53 still failing: 60 timeouts in the last 60 s",
                "upstream 192.0.2.53:53 still failing: 60 timeouts in the last 60 s");
        assertThat(vm.rows().get(1).summary()).isTrue();
        assertThat(vm.rows().get(1).severity()).isEqualTo(Severity.WARNING);
    }

    @Test
    void otherSubsystemsAndLaterWindowsAreNotFolded() {
        EventsViewModel vm = new EventsViewModel();
        List<EngineEvent> batch = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            batch.add(notice(i, Subsystem.RESOLVER, Severity.INFO, "r" + i));
        }
        batch.add(notice(20, Subsystem.PVA_CLIENT, Severity.INFO, "pva"));
        batch.add(notice(1500, Subsystem.RESOLVER, Severity.INFO, "after the burst"));
        vm.onEvents(batch);
        assertThat(vm.rows()).extracting(EventRow::message)
                .contains("pva", "after the burst")
                .filteredOn(m -> m.contains("folded")).hasSize(1);
        assertThat(vm.rows()).hasSize(10 + 1 + 1 + 1);
    }

    @Test
    void filterByTextAndSeverity() {
        EventsViewModel vm = new EventsViewModel();
        vm.onEvents(List.of(
                notice(0, Subsystem.CONFIG, Severity.NOTICE, "configuration version 2 applied"),
                notice(2000, Subsystem.RESOLVER, Severity.WARNING, "upstream 192.0.2.53 demoted: timeout"),
                notice(4000, Subsystem.PVA_CLIENT, Severity.ERROR, "duplicate PV name ring:demo:1")));
        vm.minimumSeverityProperty().set(Severity.WARNING);
        assertThat(vm.visibleRows()).extracting(EventRow::subsystem).containsExactly(Subsystem.RESOLVER, Subsystem.PVA_CLIENT);
        vm.filterTextProperty().set("demoted");
        assertThat(vm.visibleRows()).extracting(EventRow::subsystem).containsExactly(Subsystem.RESOLVER);
        vm.filterTextProperty().set("pva_client");
        assertThat(vm.visibleRows()).extracting(EventRow::subsystem).containsExactly(Subsystem.PVA_CLIENT);
    }

    @Test
    void csvQuotesFieldsAndHasAHeader() {
        EventsViewModel vm = new EventsViewModel();
        vm.onEvents(List.of(notice(0, Subsystem.CONFIG, Severity.WARNING, "rejected: a.conf:3:7: expected \"=>\", got ,")));
        String csv = vm.toCsv();
        String[] lines = csv.split("\r\n");
        assertThat(lines[0]).isEqualTo("time_utc,subsystem,severity,count,message,engine_text");
        assertThat(lines[1]).endsWith(",CONFIG,WARNING,1,\"rejected: a.conf:3:7: expected \"\"=>\"\", got ,\",");
        // issue 17 item 10: the time in UTC, and saying so, whatever this machine's zone
        assertThat(lines[1]).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{3})?Z,.*");
        assertThat(lines).hasSize(2);
    }

    /** Issue 17 item 9: a Java exception's text is exported in plain words, the engine's own text beside it. */
    @Test
    void csvSaysAnExceptionInPlainWordsAndKeepsTheEnginesText() {
        EventsViewModel vm = new EventsViewModel();
        String raw = "upstream 192.0.2.53:53 failed: java.net.PortUnreachableException: recvAddress(..) failed with error(-111)";
        vm.onEvents(List.of(notice(0, Subsystem.RESOLVER, Severity.WARNING, raw)));
        String[] lines = vm.toCsv().split("\r\n");
        assertThat(lines[1]).contains(",upstream 192.0.2.53:53 failed: refused: nothing listens on that port," + raw);
    }

    /** Issue 17 item 11: events of earlier runs (the engine's journal) come first, under a line saying so. */
    @Test
    void earlierEventsAreShownFirstUnderALineThatSaysSo() {
        EventsViewModel vm = new EventsViewModel();
        vm.onEvents(List.of(notice(5000, Subsystem.CONFIG, Severity.INFO, "this run")));
        vm.restore(List.of(notice(0, Subsystem.RESOLVER, Severity.WARNING, "an earlier run")), "/var/lib/lookout/events.log");
        assertThat(vm.rows()).extracting(EventRow::message).containsExactly("an earlier run",
                "— the events above are from before this console started (kept in /var/lib/lookout/events.log) —", "this run");
    }

    @Test
    void oldestRowsAreDroppedBeyondTheCap() {
        EventsViewModel vm = new EventsViewModel();
        List<EngineEvent> batch = new ArrayList<>();
        // one event every 2 s: never a burst, so every event is its own row
        for (int i = 0; i < EventsViewModel.MAX_ROWS + 5; i++) {
            batch.add(notice(i * 2000L, Subsystem.ENGINE, Severity.INFO, "e" + i));
        }
        vm.onEvents(batch);
        assertThat(vm.rows()).hasSize(EventsViewModel.MAX_ROWS);
        assertThat(vm.rows().get(0).message()).isEqualTo("e5");
    }
}
