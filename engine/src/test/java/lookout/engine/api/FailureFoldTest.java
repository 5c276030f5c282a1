package lookout.engine.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Logging by state: WARNING once, DEBUG while it persists, a summary a minute, INFO on recovery. */
class FailureFoldTest {

    private static final long S = 1_000_000_000L;

    private final List<String> lines = new ArrayList<>();
    private final FailureFold<String> fold = new FailureFold<>((level, m) -> lines.add(level + " " + m),
            FailureFold.MINUTE, k -> k);

    private List<String> at(Level level) {
        return lines.stream().filter(l -> l.startsWith(level + " ")).toList();
    }

    @Test
    void aRepeatedFailureIsAWarningOnceThenDebugThenASummaryAMinuteThenOneRecoveryLine() {
        long t0 = 5 * S;
        assertThat(fold.failed("127.0.0.1:53", "timeout", "no reply within 2 s", t0)).isTrue();
        for (int i = 1; i <= 1532; i++) {
            fold.failed("127.0.0.1:53", "timeout", null, t0 + i * 30_000_000L); // every 30 ms, 46 s in all
        }
        assertThat(at(Level.WARNING)).containsExactly("WARNING 127.0.0.1:53 failing: timeout (no reply within 2 s)");
        assertThat(at(Level.DEBUG)).hasSize(1532);
        // the first failure after a minute sums up the minute
        assertThat(fold.failed("127.0.0.1:53", "refusal", null, t0 + 60 * S)).isTrue();
        assertThat(at(Level.WARNING)).hasSize(2).last()
                .isEqualTo("WARNING 127.0.0.1:53 still failing: 1 532 timeouts, 1 refusal in the last 60 s");
        // and not again within the next minute
        assertThat(fold.failed("127.0.0.1:53", "timeout", null, t0 + 119 * S)).isFalse();
        assertThat(fold.failures("127.0.0.1:53")).isEqualTo(1 + 1532 + 1 + 1);
        assertThat(fold.succeeded("127.0.0.1:53", t0 + 133 * S)).isTrue();
        assertThat(at(Level.INFO)).containsExactly("INFO 127.0.0.1:53 recovered after 2 min 13 s (1 535 failures)");
        // recovered: a success says nothing more, and the next failure is a WARNING again
        assertThat(fold.succeeded("127.0.0.1:53", t0 + 134 * S)).isFalse();
        assertThat(fold.failed("127.0.0.1:53", "timeout", null, t0 + 135 * S)).isTrue();
        assertThat(at(Level.WARNING)).hasSize(3);
    }

    @Test
    void keysFoldApart() {
        fold.failed("a", "timeout", null, 0);
        fold.failed("b", "timeout", null, 0);
        fold.failed("a", "timeout", null, S);
        assertThat(at(Level.WARNING)).containsExactly("WARNING a failing: timeout", "WARNING b failing: timeout");
        assertThat(fold.failingCount()).isEqualTo(2);
        fold.forget("a");
        assertThat(fold.isFailing("a")).isFalse();
        assertThat(fold.succeeded("a", 2 * S)).isFalse();
        assertThat(at(Level.INFO)).isEmpty();
    }

    @Test
    void summariesFollowTheClockAcrossItsWrapAround() {
        long nearEnd = Long.MAX_VALUE - 30 * S;
        fold.failed("k", "timeout", null, nearEnd);
        fold.failed("k", "timeout", null, nearEnd + 59 * S); // wrapped: a negative value, 59 s later
        assertThat(at(Level.WARNING)).hasSize(1);
        fold.failed("k", "timeout", null, nearEnd + 61 * S);
        assertThat(at(Level.WARNING)).hasSize(2).last().isEqualTo("WARNING k still failing: 2 timeouts in the last 61 s");
        fold.succeeded("k", nearEnd + 3 * 3600 * S + 5 * 60 * S);
        assertThat(at(Level.INFO)).containsExactly("INFO k recovered after 3 h 5 min (3 failures)");
    }

    @Test
    void groupingAndDurationsReadTheSameInEveryLocale() {
        assertThat(FailureFold.group(0)).isEqualTo("0");
        assertThat(FailureFold.group(999)).isEqualTo("999");
        assertThat(FailureFold.group(1000)).isEqualTo("1 000");
        assertThat(FailureFold.group(1234567)).isEqualTo("1 234 567");
        assertThat(FailureFold.duration(59 * S + 999_999_999L)).isEqualTo("59 s");
        assertThat(FailureFold.duration(120 * S)).isEqualTo("2 min");
        assertThat(FailureFold.duration(-5)).isEqualTo("0 s");
    }
}
