package lookout.console.widgets;

import java.util.List;

/**
 * The answer to "why?" about one thing (a PV, a DNS name, a pool address's odds): the facts it
 * rests on, in order, and a plain diagnosis at the end ("no server on 10.0.0.255:5076 claims it;
 * 3 servers are online there"), with what to check where it fits. Built by a pane's view model
 * from what the engine reports; drawn by {@link WhyPanel}.
 *
 * @param title     what it is about ("PV ring:demo:1")
 * @param diagnosis the conclusion, one or two sentences
 * @param level     how abnormal the conclusion is (NORMAL: all is as it should be)
 * @param facts     what the conclusion rests on, in the order they are read
 * @param checks    what an operator could check or do next (may be empty)
 */
public record Why(String title, String diagnosis, Indicator.Level level, List<Fact> facts, List<String> checks) {

    /** One fact: what ("Searched", "Replies") and what the engine says of it. */
    public record Fact(String label, String value) {
    }

    public Why {
        facts = List.copyOf(facts);
        checks = List.copyOf(checks);
    }

    /** The whole answer as text (the panel's Copy). */
    public String text() {
        StringBuilder sb = new StringBuilder(title).append('\n');
        for (Fact f : facts) {
            sb.append("  ").append(f.label()).append(": ").append(f.value()).append('\n');
        }
        sb.append("Diagnosis: ").append(diagnosis).append('\n');
        for (String c : checks) {
            sb.append("  check: ").append(c).append('\n');
        }
        return sb.toString();
    }
}
