package lookout.engine.dns;

import java.time.Duration;
import java.util.Arrays;

/**
 * One upstream address's record: transactions sent and failed, replies, and a window of the last
 * {@value #WINDOW} reply times (send → reply, TC replies included) for p50/p99 at snapshot time.
 */
final class UpstreamStats {

    /* Concurrency: engine loop only — written by ResolverAccounting, read by ResolverStatus there. */

    static final int WINDOW = 512;

    long sent;
    long failed;
    long replies;
    /** Scheduler nanoTime of the last NOERROR/NXDOMAIN reply / failed attempt; meaningful once succeeded / failedOnce. */
    long lastSuccessNanos;
    long lastFailureNanos;
    boolean succeeded;
    boolean failedOnce;
    private final long[] window = new long[WINDOW];

    void replied(long nanos) {
        window[(int) (replies++ % window.length)] = nanos;
    }

    Duration percentile(double p) {
        int n = (int) Math.min(replies, window.length);
        if (n == 0) {
            return Duration.ZERO;
        }
        long[] copy = Arrays.copyOf(window, n);
        Arrays.sort(copy);
        int idx = (int) Math.ceil(p * n) - 1;
        return Duration.ofNanos(copy[Math.max(0, Math.min(n - 1, idx))]);
    }
}
