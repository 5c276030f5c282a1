package lookout.engine.dns;

/**
 * One ended transaction, kept raw: traces are built only when someone looks (a snapshot, the
 * resolve command), so the hot path formats nothing.
 *
 * @param result  {@code NOERROR}, {@code TC}, {@code timeout} ...
 * @param detail  what more there is to say about it ({@code no matching reply within 2 s}), or null
 * @param spent   whether it spent one of the question's three attempts (seed 000 §4.6.4)
 * @param demoted whether it demoted its server (seed 000 §4.6.3)
 */
record AttemptRecord(Attempt attempt, String result, String detail, long endedAt, boolean spent, boolean demoted) {

    /** The result as a trace shows it: {@code timeout: no matching reply within 2 s} (put together only when shown). */
    String shown() {
        return detail == null ? result : result + ": " + detail;
    }
}
