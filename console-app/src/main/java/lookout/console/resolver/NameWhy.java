package lookout.console.resolver;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.PlainWords;
import lookout.console.widgets.Why;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.ResolverSnapshot;

/**
 * "Why did this name resolve like that?": from the resolve box's trace (every attempt) and the
 * resolver's state now (scopes, demoted servers, local zones), the facts and one diagnosis line.
 * Pure.
 */
final class NameWhy {

    private NameWhy() {
    }

    static Why of(ResolveTrace t, ResolverSnapshot r) {
        List<Why.Fact> facts = new ArrayList<>();
        facts.add(new Why.Fact("Asked", t.name() + " " + t.type() + " by " + t.client()));
        if (t.candidates().size() > 1) {
            facts.add(new Why.Fact("Names tried", String.join(", ", t.candidates()) + " (search domains)"));
        }
        Map<String, List<String>> byServer = new LinkedHashMap<>();
        int i = 1;
        for (ResolveTrace.Attempt a : t.attempts()) {
            String result = PlainWords.of(a.result());
            facts.add(new Why.Fact("Attempt " + i++, a.candidate() + " to " + a.server() + " over " + a.transport() + ": "
                    + result + " after " + ResolverViewModel.ms(a.elapsed()) + (a.demoted() ? ", which demoted it" : "")
                    + (a.spent() ? "" : " (not counted against the three attempts)")));
            byServer.computeIfAbsent(a.server(), k -> new ArrayList<>()).add(result);
        }
        facts.add(new Why.Fact("Answer", t.rcode() + " from " + t.source() + " in " + ResolverViewModel.ms(t.elapsed())
                + (t.answer().isEmpty() ? ", no records" : ": " + String.join("; ", t.answer()))));
        List<String> demoted = new ArrayList<>();
        String scope = null;
        if (r != null) {
            for (ResolverSnapshot.Scope s : r.scopes()) {
                for (ResolverSnapshot.Server sv : s.servers()) {
                    if (sv.demoted()) {
                        demoted.add(sv.address() + " (scope " + s.name() + ")");
                    }
                    if (byServer.containsKey(sv.address()) && scope == null) {
                        scope = s.name();
                    }
                }
            }
            if (!demoted.isEmpty()) {
                facts.add(new Why.Fact("Demoted now", String.join(", ", demoted)));
            }
        }
        List<String> checks = new ArrayList<>();
        String diagnosis;
        Indicator.Level level = Indicator.Level.NORMAL;
        String last = t.attempts().isEmpty() ? null : t.attempts().get(t.attempts().size() - 1).server();
        switch (t.outcome()) {
            case "refused" -> {
                level = Indicator.Level.ADVISORY;
                diagnosis = "Refused at once: the resolver already had as many questions in flight as it allows"
                        + (r == null ? "" : " (" + r.inFlight() + " of " + r.inFlightCeiling() + ")")
                        + ", which happens when the upstream servers are slow or silent.";
                checks.add("the upstream servers' latency and failures on this pane");
            }
            case "unavailable" -> {
                level = Indicator.Level.ADVISORY;
                if (t.attempts().isEmpty()) {
                    diagnosis = "Unavailable: no upstream server is configured for this name (no scope's domains cover it"
                            + " and there is no default scope), and no local zone holds it.";
                    checks.add("resolver.scopes on the Configuration pane: a scope for this domain, or a default one");
                } else {
                    List<String> said = new ArrayList<>();
                    byServer.forEach((s, results) -> {
                        Map<String, Integer> counted = new LinkedHashMap<>();
                        results.forEach(x -> counted.merge(x, 1, Integer::sum));
                        List<String> parts = new ArrayList<>();
                        counted.forEach((x, n) -> parts.add(n == 1 ? x : n + " × " + x));
                        said.add(s + ": " + String.join(", ", parts));
                    });
                    diagnosis = "Unavailable: every attempt failed — " + String.join("; ", said) + ".";
                    checks.add("that " + String.join(" and ", byServer.keySet()) + " answer DNS from this host"
                            + " (a firewall, the server's port, its own upstreams)");
                }
            }
            default -> {
                switch (t.source()) {
                    case "zone" -> diagnosis = t.rcode().equals("NXDOMAIN")
                            ? "The local zone holding it says no such name (NXDOMAIN): it is not in the zone's records."
                            : t.answer().isEmpty() ? "The local zone has the name but no " + t.type() + " records (NODATA)."
                            : "Answered from a local zone (configured in zones), nothing asked upstream.";
                    case "cache" -> diagnosis = "Answered from the cache: the same question was answered upstream"
                            + " a short while ago (within its TTL).";
                    case "synthetic" -> diagnosis = "Answered by the resolver itself (a name it answers without asking"
                            + " anyone, such as localhost).";
                    default -> {
                        int failed = 0;
                        for (ResolveTrace.Attempt a : t.attempts()) {
                            if (a.spent() && !a.result().equals("NOERROR") && !a.result().equals("NXDOMAIN")) {
                                failed++;
                            }
                        }
                        String who = last == null ? "upstream" : last + (scope == null ? "" : " (scope " + scope + ")");
                        diagnosis = (t.rcode().equals("NXDOMAIN") ? "The name does not exist: " + who + " said NXDOMAIN"
                                : t.answer().isEmpty() ? "The name exists but has no " + t.type() + " records: " + who
                                        + " said so (NODATA)"
                                : "Answered by " + who)
                                + (failed > 0 ? String.format(Locale.ROOT, ", after %d failed attempt%s", failed,
                                        failed == 1 ? "" : "s") : "")
                                + ".";
                        if (failed > 0) {
                            level = Indicator.Level.ADVISORY;
                        }
                    }
                }
            }
        }
        return new Why(t.name() + " " + t.type(), diagnosis, level, facts, checks);
    }
}
