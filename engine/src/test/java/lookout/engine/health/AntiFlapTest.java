package lookout.engine.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AntiFlapTest {

    /**
     * An independent statement of gdnsd's rules, by history rather than counters: the first
     * result sets the state; DOWN goes UP after up_thresh consecutive passes; UP goes DOWN after
     * down_thresh failures counted since the last clean point (entering UP, or ok_thresh
     * consecutive passes while some failure is on record).
     */
    static boolean[] reference(boolean[] results, int up, int ok, int downT) {
        boolean[] states = new boolean[results.length]; // true = DOWN after each result
        boolean down = !results[0];
        states[0] = down;
        int passRun = 0;
        int failsSinceClean = 0;
        for (int i = 1; i < results.length; i++) {
            boolean r = results[i];
            if (down) {
                passRun = r ? passRun + 1 : 0;
                if (passRun == up) {
                    down = false;
                    passRun = 0;
                    failsSinceClean = 0;
                }
            } else {
                if (r) {
                    if (failsSinceClean > 0) {
                        passRun++;
                        if (passRun == ok) {
                            failsSinceClean = 0;
                            passRun = 0;
                        }
                    }
                } else {
                    passRun = 0;
                    failsSinceClean++;
                    if (failsSinceClean == downT) {
                        down = true;
                        failsSinceClean = 0;
                    }
                }
            }
            states[i] = down;
        }
        return states;
    }

    @Test
    void everySequenceUpToLength16MatchesTheReference() {
        int[][] thresholds = {{3, 2, 2}, {1, 1, 1}, {2, 3, 4}, {4, 1, 3}};
        int length = 16;
        long checked = 0;
        for (int[] t : thresholds) {
            for (int bits = 0; bits < (1 << length); bits++) {
                boolean[] results = new boolean[length];
                for (int i = 0; i < length; i++) {
                    results[i] = (bits >> i & 1) == 1;
                }
                boolean[] expect = reference(results, t[0], t[1], t[2]);
                AntiFlap f = new AntiFlap(t[0], t[1], t[2], 10);
                for (int i = 0; i < length; i++) {
                    boolean before = f.down();
                    boolean changed = f.record(results[i]);
                    assertThat(f.down()).isEqualTo(expect[i]);
                    assertThat(changed).isEqualTo(before != f.down());
                    long need = f.down() ? t[0] - f.successes() : t[2] - f.failures();
                    assertThat(f.ttl()).isEqualTo(10 * need);
                    assertThat(need).isBetween(1L, (long) Math.max(t[0], t[2]));
                    checked++;
                }
            }
        }
        assertThat(checked).isEqualTo(4L * 16 * 65536);
    }

    @Test
    void gdnsdDefaultsCountExactly() {
        AntiFlap f = new AntiFlap(20, 10, 10, 10);
        assertThat(f.ttl()).isEqualTo(268435455L); // no result yet: gdnsd's maximum, UP
        assertThat(f.down()).isFalse();
        f.record(true);
        assertThat(f.ttl()).isEqualTo(100); // 10 s x 10 failures still needed
        for (int i = 1; i <= 9; i++) {
            assertThat(f.record(false)).isFalse();
            assertThat(f.failures()).isEqualTo(i);
            assertThat(f.ttl()).isEqualTo(10L * (10 - i));
        }
        assertThat(f.record(false)).isTrue();
        assertThat(f.down()).isTrue();
        assertThat(f.ttl()).isEqualTo(200);
        for (int i = 1; i <= 19; i++) {
            assertThat(f.record(true)).isFalse();
        }
        assertThat(f.record(false)).isFalse(); // a failure resets the run
        assertThat(f.successes()).isZero();
        for (int i = 1; i <= 19; i++) {
            f.record(true);
        }
        assertThat(f.down()).isTrue();
        assertThat(f.ttl()).isEqualTo(10);
        assertThat(f.record(true)).isTrue();
        assertThat(f.down()).isFalse();
        // ok_thresh: 9 failures, 10 passes clear the history, then 9 more failures stay UP
        for (int i = 0; i < 9; i++) {
            f.record(false);
        }
        for (int i = 0; i < 10; i++) {
            f.record(true);
        }
        assertThat(f.failures()).isZero();
        for (int i = 0; i < 9; i++) {
            f.record(false);
        }
        assertThat(f.down()).isFalse();
        // but 9 passes do not clear it: the 10th failure lands
        for (int i = 0; i < 9; i++) {
            f.record(true);
        }
        assertThat(f.record(false)).isTrue();
    }

    @Test
    void firstResultSetsTheStateDirectly() {
        AntiFlap f = new AntiFlap(20, 10, 10, 10);
        assertThat(f.record(false)).isTrue();
        assertThat(f.down()).isTrue();
        assertThat(f.ttl()).isEqualTo(200);
    }
}
