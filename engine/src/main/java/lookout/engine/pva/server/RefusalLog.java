package lookout.engine.pva.server;

import java.util.Map;
import lookout.engine.api.FailureFold;
import lookout.engine.pva.server.OnDemandNames.Answer;
import lookout.engine.pva.server.OnDemandNames.Limits;

/**
 * What an operator is told when the on-demand limits refuse names, by state ({@link FailureFold}):
 * per reason, a WARNING the first second names are refused (how many, who, which setting), DEBUG
 * while refusals go on, a summary at most once a minute counting the seconds that had refusals,
 * and INFO once a second passes that admitted names and refused none for that reason. Exact
 * counts by reason, and the top askers, are in the status.
 *
 * <p>Fed once a second at most, on the engine loop, with what {@link OnDemandNames#takePending}
 * gathered.
 */
final class RefusalLog {

    private final FailureFold<Answer> fold;

    RefusalLog(FailureFold.Sink sink) {
        this.fold = new FailureFold<>(sink, FailureFold.MINUTE, RefusalLog::label);
    }

    private static String label(Answer why) {
        return "PVA server, new on-demand names (" + switch (why) {
            case UNRESOLVED_LIMIT -> "unresolved limit";
            case CLIENT_SHARE -> "one client's share of the unresolved limit";
            case RATE -> "names per second";
            case CLIENT_RATE -> "one client's share of the names per second";
            default -> "clients at once";
        } + ")";
    }

    /** One period's refusals and admissions. */
    void report(OnDemandNames.Pending p, Limits l, long now) {
        for (Answer why : Answer.values()) {
            if (!why.refused()) {
                continue;
            }
            long n = p.refusals().getOrDefault(why, 0L);
            if (n > 0) {
                fold.failed(why, "busy second", detail(why, n, p.askers(), l), now);
            } else if (p.admitted() > 0 && fold.isFailing(why)) {
                fold.succeeded(why, now);
            }
        }
    }

    boolean failing(Answer why) {
        return fold.isFailing(why);
    }

    private static String detail(Answer why, long n, Map<Asker, Answer> askers, Limits l) {
        String who = who(why, askers);
        String refused = FailureFold.group(n) + (n == 1 ? " name" : " names") + " refused";
        String rule = switch (why) {
            case UNRESOLVED_LIMIT -> FailureFold.group(l.unresolved())
                    + " on-demand names are unresolved, the limit (pva.server.on_demand_limit)";
            case CLIENT_SHARE -> who + " holds " + FailureFold.group(l.perAsker())
                    + " unresolved names, one client's share (pva.server.on_demand_per_client)";
            case RATE -> "more than " + FailureFold.group(l.perSecond())
                    + " new names a second (pva.server.on_demand_rate)";
            case CLIENT_RATE -> who + " asked for more than " + Math.round(l.askerRate())
                    + " new names a second, one client's share of pva.server.on_demand_rate";
            default -> "more than " + FailureFold.group(OnDemandNames.MAX_ASKERS) + " clients are asking at once";
        };
        return refused + ": " + rule + "; refused names are not searched until a client asks again";
    }

    private static String who(Answer why, Map<Asker, Answer> askers) {
        StringBuilder b = new StringBuilder();
        int n = 0;
        for (Map.Entry<Asker, Answer> e : askers.entrySet()) {
            if (e.getValue() == why) {
                if (n < 3) {
                    b.append(n == 0 ? "" : ", ").append(e.getKey().label());
                }
                n++;
            }
        }
        if (n > 3) {
            b.append(" and others");
        }
        return n == 0 ? "a client" : b.toString();
    }
}
