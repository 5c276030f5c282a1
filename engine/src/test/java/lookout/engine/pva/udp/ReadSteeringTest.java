package lookout.engine.pva.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.net.IdleUdpEndpoint;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The steering of a unicast address's loops, in virtual time over loops that count what they
 * read: one loop while it keeps up, all of them once it falls behind or the kernel drops, one
 * again only after ten quiet seconds at under half the rate that spread them.
 */
class ReadSteeringTest {

    private final VirtualScheduler clock = new VirtualScheduler();

    @AfterEach
    void close() {
        clock.close();
    }

    /** A loop's socket: what it has read, the drops, and the steering asked of its group. */
    static class Loop extends IdleUdpEndpoint {
        long datagrams;
        long whole;
        long drops;
        String refuse;
        final List<Boolean> steered = new ArrayList<>();

        Loop() {
            super(new InetSocketAddress("127.0.0.1", 5076));
        }

        /** One second of reading: {@code datagrams} of them, {@code wholeBatches} of the reads full. */
        void read(long n, long wholeBatches) {
            datagrams += n;
            whole += wholeBatches;
        }

        @Override
        public String steerGroup(boolean first) {
            if (refuse != null) {
                return refuse;
            }
            steered.add(first);
            return null;
        }

        @Override
        public long[] reads() {
            return new long[] {datagrams, whole};
        }

        @Override
        public long receiveDrops() {
            return drops;
        }
    }

    private void second() {
        clock.advance(Duration.ofSeconds(1));
    }

    @Test
    void oneLoopReadsWhileItKeepsUpAndAllOnceItIsBehind() {
        Loop a = new Loop();
        Loop b = new Loop();
        ReadSteering s = ReadSteering.start(new UdpEndpoint[] {a, b}, clock, "127.0.0.1:5076");
        assertThat(s).isNotNull();
        assertThat(a.steered).containsExactly(true);
        assertThat(s.state()).startsWith("1 of 2 loops reading");
        // a busy second that keeps up (a collection's pause fills a few batches): still one loop
        for (int i = 0; i < 5; i++) {
            a.read(140_000, ReadSteering.FULL_READS_TO_SPREAD - 1);
            second();
        }
        assertThat(a.steered).containsExactly(true);
        // behind: whole batches all the second long
        a.read(150_000, 400);
        second();
        assertThat(a.steered).containsExactly(true, false);
        assertThat(s.state()).isEqualTo("2 loops reading");
        // spread, still busy, then quieter but above half the rate that spread them: stays spread
        for (int i = 0; i < 20; i++) {
            a.read(50_000, 0);
            b.read(50_000, i % 5 == 0 ? 1 : 0);
            second();
        }
        assertThat(a.steered).containsExactly(true, false);
        // below half for nine seconds, a whole batch on one loop, then ten quiet ones
        for (int i = 0; i < 9; i++) {
            a.read(30_000, 0);
            b.read(30_000, 0);
            second();
        }
        b.read(30_000, 1);
        second();
        assertThat(a.steered).containsExactly(true, false);
        for (int i = 0; i < ReadSteering.QUIET_SECONDS; i++) {
            a.read(30_000, 0);
            b.read(30_000, 0);
            second();
        }
        assertThat(a.steered).containsExactly(true, false, true);
        assertThat(s.state()).startsWith("1 of 2 loops reading");
        s.close();
        a.read(1_000_000, 1_000);
        second();
        assertThat(a.steered).as("closed: no more ticks").containsExactly(true, false, true);
    }

    @Test
    void dropsOnTheFirstSocketSpreadAtOnce() {
        Loop a = new Loop();
        Loop b = new Loop();
        ReadSteering s = ReadSteering.start(new UdpEndpoint[] {a, b}, clock, "127.0.0.1:5076");
        a.read(10_000, 0);
        second();
        assertThat(a.steered).containsExactly(true);
        a.read(10_000, 0);
        a.drops += 3;
        second();
        assertThat(a.steered).containsExactly(true, false);
        s.close();
    }

    @Test
    void oneSocketOrAKernelThatRefusesIsLeftToSpread() {
        Loop a = new Loop();
        assertThat(ReadSteering.start(new UdpEndpoint[] {a}, clock, "x")).isNull();
        Loop b = new Loop();
        a.refuse = "the kernel refused the steering program: Invalid argument (errno 22)";
        assertThat(ReadSteering.start(new UdpEndpoint[] {a, b}, clock, "x")).isNull();
        UdpEndpoint netty = new Loop() {
            @Override
            public long[] reads() {
                return null;
            }
        };
        assertThat(ReadSteering.start(new UdpEndpoint[] {new Loop(), netty}, clock, "x")).isNull();
        second();
        assertThat(a.steered).isEmpty();
    }
}
