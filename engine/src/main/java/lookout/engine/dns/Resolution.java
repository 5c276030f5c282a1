package lookout.engine.dns;

import java.util.List;
import java.util.function.Consumer;
import lookout.engine.api.ResolveTrace;
import lookout.engine.dns.wire.ClientQuery;

/**
 * One client question as its trace tells it: who asked what, the search candidates, when it
 * began, and the upstream attempts as they ended. {@link Resolver}'s question state extends it
 * with what decides the next step; {@link ResolutionObserver}s read it, and the accounting fills
 * {@link #attempts} and turns a finished one into a {@link ResolveTrace}.
 */
class Resolution {

    /* Concurrency: engine loop only. The resolver makes it and extends it there; the accounting
     * fills `attempts` and builds traces from it there (the console's trace is built there too and
     * handed out as an immutable ResolveTrace). */

    final ClientQuery q;
    /** Who asked, as traces show it ({@code 127.0.0.1:5353/udp}, {@code console}). */
    final Object client;
    /** Receives the trace once the question is answered (the console's resolve box), or null. */
    final Consumer<ResolveTrace> onTrace;
    final String[] candidates;
    final long startNanos;
    /** The attempts that ended, oldest first; made on the first (most questions never go upstream). */
    List<AttemptRecord> attempts;

    Resolution(ClientQuery q, Object client, Consumer<ResolveTrace> onTrace, String[] candidates, long startNanos) {
        this.q = q;
        this.client = client;
        this.onTrace = onTrace;
        this.candidates = candidates;
        this.startNanos = startNanos;
    }
}
