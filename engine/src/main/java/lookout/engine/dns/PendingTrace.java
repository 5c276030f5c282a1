package lookout.engine.dns;

import lookout.engine.dns.answer.Answer;

/**
 * A finished question waiting to be turned into a {@link lookout.engine.api.ResolveTrace}: its
 * story, the answer given (null: SERVFAIL), where the answer came from ({@code zone},
 * {@code cache}, {@code upstream}, {@code synthetic}, {@code none}) and how it ended.
 */
record PendingTrace(Resolution question, Answer answer, String source, String outcome, long endedAt) {
}
