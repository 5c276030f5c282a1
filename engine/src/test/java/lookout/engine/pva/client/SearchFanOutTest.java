package lookout.engine.pva.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.net.NetError;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.SearchDatagramBuilder;
import lookout.engine.seams.PvaPorts;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fan-out of search datagrams, without sockets: every destination gets each datagram (the
 * Unicast flag for a genuine unicast address only), and send failures are logged by state per
 * destination in virtual time — WARNING once with the cause, DEBUG while they go on, a summary at
 * most once a minute, INFO when a later search to that destination leaves — where a flag set once
 * had made every later failure DEBUG and never said the destination worked again.
 */
class SearchFanOutTest {

    static final InetSocketAddress BROADCAST = new InetSocketAddress(address("10.0.0.255"), 5076);
    static final InetSocketAddress UNICAST = new InetSocketAddress(address("10.0.0.7"), 5076);
    static final NetError UNREACHABLE = new NetError(NetError.ENETUNREACH, "Network is unreachable", null);

    final VirtualScheduler clock = new VirtualScheduler();
    final ClientCounters counters = new ClientCounters();
    final List<String> lines = new ArrayList<>();
    final List<String> sent = new ArrayList<>();
    final SearchFanOut fanOut = new SearchFanOut(clock, new NameServers(clock, null, null), counters,
            (level, message) -> lines.add(level + " " + message));

    SearchFanOutTest() {
        fanOut.via(new PvaPorts.Port() {
            @Override
            public int port() {
                return 40000;
            }

            @Override
            public List<String> bound() {
                return List.of();
            }

            @Override
            public boolean send(ByteBuf data, InetSocketAddress to) {
                boolean unicast = (data.getByte(SearchDatagramBuilder.FLAGS_OFFSET) & Pva.SEARCH_UNICAST) != 0;
                sent.add(to.getAddress().getHostAddress() + (unicast ? " unicast" : " broadcast"));
                data.release();
                return true;
            }

            @Override
            public boolean reply(ByteBuf data, InetSocketAddress to, InetAddress from) {
                data.release();
                return false;
            }

            @Override
            public boolean forwarding() {
                return false;
            }

            @Override
            public boolean forward(ByteBuf datagram, InetAddress origin) {
                datagram.release();
                return false;
            }

            @Override
            public void close() {
            }
        });
        fanOut.destinations(List.of(new Destination(BROADCAST, false), new Destination(UNICAST, true)));
    }

    @AfterEach
    void closeClock() {
        clock.close();
    }

    static InetAddress address(String literal) {
        return lookout.engine.net.HostPort.literal(literal);
    }

    List<String> at(Level level) {
        return lines.stream().filter(l -> l.startsWith(level + " ")).toList();
    }

    @Test
    void everyDestinationGetsEachDatagramFlaggedForWhatItIs() {
        ByteBuf d = Unpooled.buffer();
        new SearchDatagramBuilder(40000).start(d);
        fanOut.datagram(d, 0);
        assertThat(sent).containsExactly("10.0.0.255 broadcast", "10.0.0.7 unicast");
        assertThat(d.getByte(SearchDatagramBuilder.FLAGS_OFFSET) & Pva.SEARCH_UNICAST).as("the original untouched").isZero();
        d.release();
    }

    @Test
    void aFailingDestinationIsLoggedOnceSummedUpAMinuteOnAndItsRecoveryToo() {
        fanOut.failed(BROADCAST, UNREACHABLE);
        assertThat(at(Level.WARNING)).containsExactly(
                "WARNING PVA search to 10.0.0.255:5076 failing: send error (Network is unreachable)");
        for (int i = 0; i < 30; i++) {
            clock.advance(Duration.ofSeconds(1));
            fanOut.failed(BROADCAST, UNREACHABLE);
        }
        assertThat(at(Level.WARNING)).hasSize(1);
        assertThat(at(Level.DEBUG)).hasSize(30);
        // the other destination works all along: nothing about it
        fanOut.sent(UNICAST);
        clock.advance(Duration.ofSeconds(31));
        fanOut.failed(BROADCAST, UNREACHABLE);
        assertThat(at(Level.WARNING)).hasSize(2).last()
                .isEqualTo("WARNING PVA search to 10.0.0.255:5076 still failing: 31 send errors in the last 61 s");
        assertThat(fanOut.failing(BROADCAST)).isTrue();

        clock.advance(Duration.ofSeconds(9));
        fanOut.sent(BROADCAST);
        assertThat(at(Level.INFO)).containsExactly("INFO PVA search to 10.0.0.255:5076 recovered after 70 s (32 failures)");
        assertThat(fanOut.failing(BROADCAST)).isFalse();
        assertThat(counters.sendErrors).isEqualTo(32);

        // failing again later is news again
        fanOut.failed(BROADCAST, UNREACHABLE);
        assertThat(at(Level.WARNING)).hasSize(3);
        assertThat(lines).noneMatch(l -> l.contains("10.0.0.7"));
    }

    @Test
    void aDestinationNoLongerListedIsForgottenAndSocketErrorsAreNotSearches() {
        fanOut.failed(UNICAST, UNREACHABLE);
        fanOut.destinations(List.of(new Destination(BROADCAST, false)));
        assertThat(fanOut.failing(UNICAST)).isFalse();
        fanOut.failed(null, UNREACHABLE);
        assertThat(counters.sendErrors).isEqualTo(1);
        assertThat(at(Level.WARNING)).hasSize(1);
    }
}
