package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lookout.engine.net.HostPort;
import lookout.engine.pva.wire.Guid;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SourceRegistryTest {

    static final String GUID = "0102030405060708090a0b0c";
    static final Asker CLIENT = Asker.udp(HostPort.literal("127.0.0.9"));

    final VirtualScheduler clock = new VirtualScheduler();

    @AfterEach
    void close() {
        clock.close();
    }

    /** A name-server source over {@code fr}, with the default limits, started. */
    NameServerSource source(FakeResolved fr) {
        NameServerSource s = new NameServerSource(fr, new OnDemandNames(new OnDemandNames.Limits(5000, 100, 1250,
                TimeUnit.SECONDS.toNanos(90)), clock.nanoTime()), clock);
        clock.call(() -> {
            s.start();
            return null;
        });
        return s;
    }

    /** One search by {@link #CLIENT}, then whatever it handed the engine loop. */
    SearchOperation search(SourceRegistry reg, String[] names, int[] cids) {
        SearchOperation op = reg.search(new SearchOperation(names, cids, CLIENT, false, clock.nanoTime()));
        clock.runPending();
        return op;
    }

    @Test
    void allNamesOfferedToSourcesInOrderInOneOperation() {
        SourceRegistry reg = new SourceRegistry();
        List<String> calls = new ArrayList<>();
        reg.add(new Source() {
            public String name() {
                return "first";
            }

            public void onSearch(SearchOperation op) {
                calls.add("first:" + op.size());
                op.claim(1);
            }
        });
        reg.add(new Source() {
            public String name() {
                return "second";
            }

            public void onSearch(SearchOperation op) {
                calls.add("second:" + op.size() + ":" + op.isClaimed(1));
                op.claim(1); // first claim wins
                op.claim(2);
            }
        });
        SearchOperation op = reg.search(new String[] {"a", "b", "c"}, new int[] {10, 11, 12});
        assertThat(calls).containsExactly("first:3", "second:3:true");
        assertThat(op.claimedCount()).isEqualTo(2);
        assertThat(op.groups()).hasSize(1);
        assertThat(op.groups().get(0).cids()).containsExactly(11, 12);
        assertThat(op.groups().get(0).self()).isTrue();
    }

    @Test
    void changeCountMovesWhenSourcesChange() {
        SourceRegistry reg = new SourceRegistry();
        int c0 = reg.changeCount();
        FakeResolved fr = new FakeResolved();
        NameServerSource s = source(fr);
        reg.add(s);
        int c1 = reg.changeCount();
        assertThat(c1).isNotEqualTo(c0);
        reg.remove(s);
        assertThat(reg.changeCount()).isNotEqualTo(c1);
        assertThat(reg.remove(s)).isFalse();
    }

    @Test
    void nameServerClaimsOnlyResolvedNamesAndWantsTheRest() {
        FakeResolved fr = new FakeResolved();
        NameServerSource s = source(fr);
        SourceRegistry reg = new SourceRegistry();
        reg.add(s);
        InetSocketAddress real = new InetSocketAddress("127.0.0.5", 5075);
        fr.resolve("known", GUID, real);

        SearchOperation op = search(reg, new String[] {"known", "unknown"}, new int[] {1, 2});
        assertThat(op.isClaimed(0)).isTrue();
        assertThat(op.isClaimed(1)).isFalse();
        assertThat(fr.wanted).containsExactly("unknown");
        SearchOperation.ReplyGroup g = op.groups().get(0);
        assertThat(g.endpoint()).isEqualTo(real);
        assertThat(java.util.HexFormat.of().formatHex(g.guid())).isEqualTo(GUID);

        // §4: a withdrawn resolution (server lost) is never claimed again
        fr.withdraw("known");
        SearchOperation again = search(reg, new String[] {"known"}, new int[] {1});
        assertThat(again.claimedCount()).isZero();
        assertThat(fr.wanted).containsExactly("unknown", "known");
        // asked again: known already, not wanted twice
        search(reg, new String[] {"unknown"}, new int[] {2});
        assertThat(fr.wanted).containsExactly("unknown", "known");
    }

    @Test
    void theEnginesOwnSearchesAreAnsweredButNeverWanted() {
        FakeResolved fr = new FakeResolved();
        NameServerSource s = source(fr);
        SourceRegistry reg = new SourceRegistry();
        reg.add(s);
        fr.resolve("known", GUID, new InetSocketAddress("127.0.0.5", 5075));
        SearchOperation op = reg.search(new SearchOperation(new String[] {"known", "op:pv"}, new int[] {1, 2}, CLIENT,
                true, clock.nanoTime()));
        clock.runPending();
        assertThat(op.isClaimed(0)).isTrue();
        assertThat(op.isClaimed(1)).isFalse();
        assertThat(fr.wanted).isEmpty();
        assertThat(s.ownNames()).isEqualTo(1);
    }

    @Test
    void namesOnDifferentServersGiveOneReplyEach() {
        FakeResolved fr = new FakeResolved();
        NameServerSource s = source(fr);
        SourceRegistry reg = new SourceRegistry();
        reg.add(s);
        fr.resolve("a", GUID, new InetSocketAddress("127.0.0.5", 5075));
        fr.resolve("b", "0c0b0a090807060504030201", new InetSocketAddress("127.0.0.6", 5075));
        fr.resolve("c", GUID, new InetSocketAddress("127.0.0.5", 5075));
        SearchOperation op = reg.search(new String[] {"a", "b", "c"}, new int[] {1, 2, 3});
        assertThat(op.groups()).hasSize(2);
        assertThat(op.groups().get(0).cids()).containsExactly(1, 3);
        assertThat(op.groups().get(1).cids()).containsExactly(2);
    }

    @Test
    void oneServersClaimsAreOneReplyOfTheClaimedCidsInOrder() {
        // the rule: every claim of a search for one server (equal claimants, not only one object),
        // some names unclaimed between them
        byte[] guid = java.util.HexFormat.of().parseHex(GUID);
        InetSocketAddress at = new InetSocketAddress("127.0.0.5", 5075);
        SearchOperation op = new SearchOperation(new String[] {"a", "b", "c", "d", "e"}, new int[] {10, 11, 12, 13, 14});
        op.claimFor(1, new SearchOperation.Claimant(guid.clone(), at));
        op.claimFor(3, new SearchOperation.Claimant(guid.clone(), new InetSocketAddress("127.0.0.5", 5075)));
        op.claimFor(4, guid.clone(), at);
        List<SearchOperation.ReplyGroup> groups = op.groups();
        assertThat(groups).hasSize(1);
        assertThat(groups.get(0).cids()).containsExactly(11, 13, 14);
        assertThat(groups.get(0).endpoint()).isEqualTo(at);
        assertThat(groups.get(0).server()).isEqualTo(Guid.parse(GUID));
        // every name claimed for itself: one reply of every CID
        SearchOperation self = new SearchOperation(new String[] {"a", "b"}, new int[] {20, 21});
        self.claim(0);
        self.claim(1);
        assertThat(self.groups()).singleElement().satisfies(g -> {
            assertThat(g.self()).isTrue();
            assertThat(g.server()).isNull();
            assertThat(g.cids()).containsExactly(20, 21);
        });
        // and a second server among them makes two
        op.claimFor(0, new SearchOperation.Claimant(new byte[12], at));
        assertThat(op.groups()).extracting(g -> g.cids().length).containsExactly(1, 3);
    }

    @Test
    void manyServersInOneSearchGroupInOrderOfFirstClaimAndEqualClaimantsMerge() {
        // more servers than the grouping's first table holds, each claimant a fresh object: the
        // groups are by GUID and endpoint, not by reference, in the order of first claim
        int servers = 9;
        String[] names = new String[servers * 3];
        int[] cids = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            names[i] = "n" + i;
            cids[i] = 100 + i;
        }
        SearchOperation op = new SearchOperation(names, cids);
        for (int i = 0; i < names.length; i++) {
            int server = (i * 5) % servers; // interleaved: 0 5 1 6 2 7 3 8 4 0 5 ...
            byte[] guid = new byte[12];
            guid[11] = (byte) server;
            op.claimFor(i, new SearchOperation.Claimant(guid, new InetSocketAddress("127.0.0.1", 6000 + server)));
        }
        op.claim(names.length - 1); // already claimed: first claim wins
        List<SearchOperation.ReplyGroup> groups = op.groups();
        assertThat(groups).hasSize(servers);
        assertThat(groups).extracting(g -> g.endpoint().getPort())
                .containsExactly(6000, 6005, 6001, 6006, 6002, 6007, 6003, 6008, 6004);
        for (SearchOperation.ReplyGroup g : groups) {
            int server = g.endpoint().getPort() - 6000;
            assertThat(g.guid()[11]).isEqualTo((byte) server);
            List<Integer> expected = new java.util.ArrayList<>();
            for (int i = 0; i < names.length; i++) {
                if ((i * 5) % servers == server) {
                    expected.add(100 + i);
                }
            }
            assertThat(g.cids()).containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    @Test
    void badGuidIsNeverClaimed() {
        FakeResolved fr = new FakeResolved();
        NameServerSource s = source(fr);
        SourceRegistry reg = new SourceRegistry();
        reg.add(s);
        fr.resolve("a", "xyz", new InetSocketAddress("127.0.0.5", 5075));
        assertThat(reg.search(new String[] {"a"}, new int[] {1}).claimedCount()).isZero();
    }
}
