package lookout.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.pva.client.SearchLoad;

/**
 * Figures for seed 002 §8 with N searching channels: memory per channel beyond its name, and
 * datagrams per tick at steady state against N / (30 · C). Run:
 * {@code java -Xmx3g -cp bench/target/benchmarks.jar lookout.bench.PvaRingFigures [N] [L] [creation ticks]}.
 */
public final class PvaRingFigures {

    private PvaRingFigures() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int l = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        // 1: all channels created at once; 30: created evenly over the first 30 s
        int overTicks = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        String fmt = "pv:%0" + (l - 3) + "d";

        // the names alone, then the same names as channels: the difference is the per-channel cost
        List<String> names = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            names.add(String.format(fmt, i));
        }
        long withNames = usedAfterGc();
        SearchLoad load = new SearchLoad(n, names::get, overTicks);
        long withChannels = usedAfterGc();
        double perChannel = (double) (withChannels - withNames) / n;

        // saturate: 31 attempts (436 s) and a few revolutions for the cohort rule to spread the load
        long t0 = System.nanoTime();
        for (int i = 0; i < 31 * 30; i++) {
            load.tick();
        }
        long warm = System.nanoTime() - t0;
        int c = (1400 - 41) / (5 + l);
        double expected = n / (30.0 * c);
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long datagrams = 0;
        long names2 = 0;
        long bytes = 0;
        int maxTick = 0;
        int maxDatagram = 0;
        int ticks = 10 * 30;
        long cpu = 0;
        long worstTick = 0;
        for (int i = 0; i < ticks; i++) {
            long s = threads.getCurrentThreadCpuTime();
            SearchLoad.Figures f = load.tick();
            long d = threads.getCurrentThreadCpuTime() - s;
            names2 += f.names();
            cpu += d;
            worstTick = Math.max(worstTick, d);
            datagrams += f.datagrams();
            bytes += f.bytes();
            maxTick = Math.max(maxTick, f.datagrams());
            maxDatagram = Math.max(maxDatagram, f.maxDatagram());
        }
        double perTick = (double) datagrams / ticks;
        System.out.printf("channels N=%d, name length L=%d, C=%d names/datagram, created over %d tick(s)%n",
                n, l, c, overTicks);
        System.out.printf("memory per channel beyond the name: %.1f bytes (heap %d MiB names, %d MiB with channels)%n",
                perChannel, withNames >> 20, withChannels >> 20);
        System.out.printf("saturated channels after 930 ticks: %d of %d (930 ticks took %.1f s)%n",
                load.saturated(), load.size(), warm / 1e9);
        System.out.printf("steady state over %d ticks: %.1f datagrams/tick, expected N/(30C) = %.1f, deviation %+.2f %%%n",
                ticks, perTick, expected, 100 * (perTick - expected) / expected);
        StringBuilder fill = new StringBuilder();
        for (int b = 0; b < 30; b++) {
            fill.append(load.bucketSize(b)).append(' ');
        }
        System.out.printf("bucket fill: %s%n", fill.toString().trim());
        System.out.printf("names per tick: %.1f (N/30 = %.1f)%n", (double) names2 / ticks, n / 30.0);
        System.out.printf("largest tick: %d datagrams; largest datagram: %d bytes; bytes/tick %.0f%n",
                maxTick, maxDatagram, (double) bytes / ticks);
        System.out.printf("CPU per tick (thread CPU time): mean %.2f ms, worst %.2f ms%n",
                cpu / 1e6 / ticks, worstTick / 1e6);
        if (names.size() != n) {
            throw new AssertionError();
        }
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 5; i++) {
            System.gc();
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
