package lookout.engine.dns;

/**
 * One ended transaction, kept raw: traces are built only when someone looks (a snapshot, the
 * resolve command), so the hot path formats nothing.
 *
 * @param result  {@code NOERROR}, {@code TC}, {@code timeout: no matching reply within 2 s} ...
 * @param spent   whether it spent one of the question's three attempts (seed 000 §4.6.4)
 * @param demoted whether it demoted its server (seed 000 §4.6.3)
 */
record AttemptRecord(Attempt attempt, String result, long endedAt, boolean spent, boolean demoted) {
}
