package lookout.engine.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lookout.engine.config.ServiceTypeConfig;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * gdnsd's {@code admin_state} file (libgdnsd/mon.c {@code admin_process_hash},
 * {@code gdnsd_mon_parse_sttl}): {@code "GLOB" => STATE[/TTL]}, STATE {@code UP} or {@code DOWN}
 * in any case, TTL 0 to 2^28 − 1 (the maximum when left out); keys are fnmatch(3) globs without
 * flags over monitor names {@code TARGET/SERVICE_TYPE}; entries apply in file order, so later
 * ones win; one bad entry rejects the whole file.
 *
 * <p>There is no clock here: an entry's TTL is the TTL its state carries into DNS answers, not a
 * lifetime — a forced state lasts until its entry leaves the file, so nothing "expires".
 */
class AdminStateTest {

    private static final List<String> MONITORS = List.of("192.0.2.1/up", "192.0.2.1/web_check", "192.0.2.2/web_check",
            "192.0.20.1/up", "2001:db8::abc/web_check", "lb01.example.org./my_cn_check");

    private static AdminState parse(String text) {
        return AdminState.parse(text, "admin_state");
    }

    @Test
    void aStateWithoutTtlIsForcedWithTheLargestTtl() {
        AdminState s = parse("\"192.0.2.1/up\" => DOWN\n");

        AdminState.Entry e = s.entries().get(0);
        assertThat(e.glob()).isEqualTo("192.0.2.1/up");
        assertThat(e.down()).isTrue();
        assertThat(e.ttl()).isNull();
        assertThat(e.effectiveTtl()).isEqualTo((1L << 28) - 1).isEqualTo(ServiceTypeConfig.TTL_MAX);
        assertThat(e.value()).isEqualTo("DOWN");
    }

    @Test
    void aStateMayCarryItsTtl() {
        AdminState s = parse("\"192.0.2.1/up\" => UP/30\n\"192.0.2.2/up\" => DOWN/0\n");

        assertThat(s.entries()).extracting(AdminState.Entry::down).containsExactly(false, true);
        assertThat(s.entries()).extracting(AdminState.Entry::effectiveTtl).containsExactly(30L, 0L);
        assertThat(s.entries()).extracting(AdminState.Entry::value).containsExactly("UP/30", "DOWN/0");
    }

    @Test
    void theStateIsReadInAnyCase() {
        // gdnsd: strncasecmp
        assertThat(AdminState.parseValue("g", "up").down()).isFalse();
        assertThat(AdminState.parseValue("g", "Down/5").down()).isTrue();
        assertThat(AdminState.parseValue("g", "dOwN").ttl()).isNull();
    }

    @Test
    void theTtlRunsFromZeroToTwoToThe28MinusOne() {
        assertThat(AdminState.parseValue("g", "UP/0").ttl()).isZero();
        assertThat(AdminState.parseValue("g", "UP/268435455").ttl()).isEqualTo(268_435_455L);
        assertThat(AdminState.parseValue("g", "UP/268435456")).isNull();
        assertThat(AdminState.parseValue("g", "UP/99999999999")).isNull();
    }

    @Test
    void anythingElseIsNotAState() {
        for (String bad : List.of("", "MAYBE", "U", "UPP", "DOWNX", "UP/", "UP/x", "UP/1x", "UP 30", "UP/-1", "UP/1.5",
                "/30", "DOWN//3")) {
            assertThat(AdminState.parseValue("g", bad)).as("'%s'", bad).isNull();
        }
    }

    @Test
    void oneBadEntryRejectsTheWholeFileWithGdnsdsMessage() {
        String text = "\"192.0.2.1/up\" => DOWN\n\"192.0.2.2/up\" => SIDEWAYS\n";

        assertThatThrownBy(() -> parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("value for '192.0.2.2/up' must be of the form STATE[/TTL]")
                .hasMessageContaining("0 - 268435455");
    }

    @Test
    void aValueThatIsNotASimpleStringIsRejected() {
        assertThatThrownBy(() -> parse("\"192.0.2.1/up\" => [ DOWN ]\n"))
                .hasMessageContaining("value for '192.0.2.1/up' must be a simple string!");
    }

    @Test
    void aFileThatIsNotVscfIsRejected() {
        assertThatThrownBy(() -> parse("\"192.0.2.1/up\" => {\n")).hasMessageContaining("admin_state: Loading file");
    }

    @Test
    void anEmptyFileForcesNothing() {
        assertThat(parse("# nothing forced\n").entries()).isEmpty();
        assertThat(AdminState.empty().resolve(MONITORS)).isEmpty();
    }

    @Test
    void aStarMatchesAnyRunOfCharactersIncludingTheSlash() {
        // fnmatch(glob, desc, 0): without FNM_PATHNAME a '*' crosses '/'
        AdminState s = parse("\"192.0.2.*\" => DOWN\n");

        assertThat(s.resolve(MONITORS).keySet())
                .containsExactlyInAnyOrder("192.0.2.1/up", "192.0.2.1/web_check", "192.0.2.2/web_check");
    }

    @Test
    void aGlobPerServiceTypeMatchesEveryAddressWithIt() {
        AdminState s = parse("\"*/web_check\" => DOWN/60\n");

        assertThat(s.resolve(MONITORS).keySet())
                .containsExactlyInAnyOrder("192.0.2.1/web_check", "192.0.2.2/web_check", "2001:db8::abc/web_check");
    }

    @Test
    void dotsInAGlobAreLiteral() {
        assertThat(parse("\"192.0.2.*/*\" => DOWN\n").resolve(List.of("192.0.20.1/up", "192x0.2.1/up", "192.0.2.9/up")).keySet())
                .containsExactly("192.0.2.9/up");
        assertThat(parse("\"lb01.example.org./my_cn_check\" => DOWN\n")
                .resolve(List.of("lb01.example.org./my_cn_check", "lb01xexample.org./my_cn_check")).keySet())
                .containsExactly("lb01.example.org./my_cn_check");
    }

    @Test
    void questionMarksAndBracketsMatchOneCharacter() {
        List<String> names = List.of("192.0.2.1/up", "192.0.2.2/up", "192.0.2.3/up", "192.0.2.10/up");

        assertThat(parse("\"192.0.2.?/up\" => DOWN\n").resolve(names).keySet())
                .containsExactlyInAnyOrder("192.0.2.1/up", "192.0.2.2/up", "192.0.2.3/up");
        assertThat(parse("\"192.0.2.[13]/up\" => DOWN\n").resolve(names).keySet())
                .containsExactlyInAnyOrder("192.0.2.1/up", "192.0.2.3/up");
        assertThat(parse("\"192.0.2.[!13]/up\" => DOWN\n").resolve(names).keySet()).containsExactly("192.0.2.2/up");
        assertThat(parse("\"192.0.2.[1-2]*/up\" => DOWN\n").resolve(names).keySet())
                .containsExactlyInAnyOrder("192.0.2.1/up", "192.0.2.2/up", "192.0.2.10/up");
    }

    @Test
    void aBackslashMakesTheNextCharacterLiteral() {
        AdminState s = AdminState.empty().with(new AdminState.Entry("odd\\*name/up", true, null));

        assertThat(s.resolve(List.of("odd*name/up", "oddXname/up")).keySet()).containsExactly("odd*name/up");
    }

    @Test
    void laterEntriesWin() {
        AdminState specificLast = parse("\"192.0.2.*/*\" => DOWN\n\"192.0.2.1/web_check\" => UP/10\n");
        AdminState specificFirst = parse("\"192.0.2.1/web_check\" => UP/10\n\"192.0.2.*/*\" => DOWN\n");

        Map<String, AdminState.Entry> a = specificLast.resolve(MONITORS);
        assertThat(a.get("192.0.2.1/web_check").down()).isFalse();
        assertThat(a.get("192.0.2.1/web_check").ttl()).isEqualTo(10L);
        assertThat(a.get("192.0.2.2/web_check").down()).isTrue();
        assertThat(a.get("192.0.2.1/up").down()).isTrue();

        Map<String, AdminState.Entry> b = specificFirst.resolve(MONITORS);
        assertThat(b.get("192.0.2.1/web_check").down()).isTrue();
        assertThat(b.get("192.0.2.1/web_check").ttl()).isNull();
    }

    @Test
    void monitorsNoEntryMatchesAreNotForced() {
        Map<String, AdminState.Entry> r = parse("\"192.0.2.1/*\" => DOWN\n").resolve(MONITORS);

        assertThat(r).doesNotContainKeys("192.0.2.2/web_check", "192.0.20.1/up", "lb01.example.org./my_cn_check");
    }

    @Test
    void globsThatMatchNoMonitorAreReported() {
        AdminState s = parse("\"192.0.2.1/*\" => DOWN\n\"198.51.100.*/*\" => UP\n\"*/nope\" => DOWN\n");

        assertThat(s.unmatched(MONITORS)).containsExactly("198.51.100.*/*", "*/nope");
    }

    @Test
    void forcingAGlobAgainMovesItLastSoItWins() {
        AdminState s = parse("\"192.0.2.1/up\" => UP\n\"*\" => DOWN\n");
        assertThat(s.resolve(MONITORS).get("192.0.2.1/up").down()).isTrue();

        AdminState again = s.with(new AdminState.Entry("192.0.2.1/up", false, 5L));

        assertThat(again.entries()).extracting(AdminState.Entry::glob).containsExactly("*", "192.0.2.1/up");
        assertThat(again.resolve(MONITORS).get("192.0.2.1/up").down()).isFalse();
        assertThat(again.resolve(MONITORS).get("192.0.2.1/up").ttl()).isEqualTo(5L);
        assertThat(s.entries()).as("immutable").hasSize(2).extracting(AdminState.Entry::glob).containsExactly("192.0.2.1/up", "*");
    }

    @Test
    void releasingAGlobRemovesExactlyThatEntry() {
        AdminState s = parse("\"192.0.2.*/*\" => DOWN\n\"192.0.2.1/up\" => UP\n");

        AdminState released = s.without("192.0.2.1/up");

        assertThat(released.entries()).extracting(AdminState.Entry::glob).containsExactly("192.0.2.*/*");
        assertThat(released.resolve(MONITORS).get("192.0.2.1/up").down()).isTrue();
        assertThat(s.without("192.0.2.*").entries()).as("a different glob, though it reads alike").hasSize(2);
    }

    // ------------------------------------------------------------------ properties

    @Provide
    Arbitrary<List<AdminState.Entry>> entries() {
        Arbitrary<String> glob = Arbitraries.strings().withChars("ab1.:/*?[]!\\\"# =>{},;$").ofMinLength(1).ofMaxLength(10);
        Arbitrary<Long> ttl = Arbitraries.oneOf(Arbitraries.just(null),
                Arbitraries.longs().between(0, ServiceTypeConfig.TTL_MAX));
        return Combinators.combine(glob, Arbitraries.of(true, false), ttl).as(AdminState.Entry::new)
                .list().ofMaxSize(6).uniqueElements(AdminState.Entry::glob);
    }

    /** What Lookout writes (force/release) reads back as the same entries in the same order. */
    @Property(tries = 500)
    void theRenderedFileParsesToTheSameEntries(@ForAll("entries") List<AdminState.Entry> entries) {
        AdminState s = new AdminState(entries);

        AdminState back = AdminState.parse(s.render(), "admin_state");

        assertThat(back.entries()).isEqualTo(entries);
    }

    /** Each monitor gets the last entry whose glob matches it, and only those monitors appear. */
    @Property(tries = 500)
    void eachMonitorGetsTheLastEntryThatMatchesIt(@ForAll("entries") List<AdminState.Entry> entries) {
        List<String> monitors = new ArrayList<>(MONITORS);
        monitors.addAll(List.of("ab/1", "a.b/b", "*/?", "[a]/x"));

        Map<String, AdminState.Entry> r = new AdminState(entries).resolve(monitors);

        for (String m : monitors) {
            AdminState.Entry last = null;
            for (AdminState.Entry e : entries) {
                if (AdminState.resolvePattern(e.glob()).matcher(m).matches()) {
                    last = e;
                }
            }
            assertThat(r.get(m)).as("%s", m).isEqualTo(last);
        }
    }
}
