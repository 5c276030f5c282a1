package lookout.engine.api;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The trace of one question, as the console's resolve box shows it: the search candidates, every
 * upstream attempt (seed 000 §4.6) and the final answer.
 *
 * @param name       the name asked, fully qualified
 * @param type       the query type mnemonic ({@code A}, {@code AAAA}, {@code TYPE65} ...)
 * @param client     who asked ({@code 127.0.0.1:40000/udp}, or {@code console})
 * @param startedAt  when the question arrived
 * @param candidates the names tried, in order (one unless search domains applied)
 * @param attempts   upstream transactions in order
 * @param source     where the answer came from: {@code upstream}, {@code cache}, {@code zone},
 *                   {@code synthetic}, or {@code none} (unavailable, refused)
 * @param rcode      the response code given to the client ({@code NOERROR}, {@code SERVFAIL} ...)
 * @param outcome    {@code answered}, {@code unavailable}, {@code refused} (in-flight ceiling)
 * @param answer     the answer records in presentation form
 * @param elapsed    time from question to answer
 * @param summary    one line for lists
 */
public record ResolveTrace(String name, String type, String client, Instant startedAt, List<String> candidates,
                           List<Attempt> attempts, String source, String rcode, String outcome,
                           List<String> answer, Duration elapsed, String summary) {

    public ResolveTrace {
        candidates = List.copyOf(candidates);
        attempts = List.copyOf(attempts);
        answer = List.copyOf(answer);
    }

    /**
     * One upstream transaction.
     *
     * @param candidate the name asked upstream
     * @param server    {@code ip:port}
     * @param transport {@code udp} or {@code tcp}
     * @param result    {@code NOERROR}, {@code NXDOMAIN}, {@code TC}, or the failure
     *                  ({@code timeout}, {@code SERVFAIL}, {@code malformed: ...}, {@code local_resource: ...})
     * @param sentAt    offset from the question's start
     * @param elapsed   how long the transaction took
     * @param spent     whether it spent one of the three attempts (a candidate's NXDOMAIN does not)
     * @param demoted   whether it demoted the server
     */
    public record Attempt(String candidate, String server, String transport, String result, Duration sentAt,
                          Duration elapsed, boolean spent, boolean demoted) {
    }
}
