package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lookout.engine.config.vscf.IncludeResolver;
import lookout.engine.config.vscf.Position;
import lookout.engine.config.vscf.VNode;
import lookout.engine.config.vscf.VscfParser;
import lookout.engine.config.vscf.VscfPrinter;
import lookout.engine.config.vscf.VscfSyntaxException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of the vscf parser and printer, and of the loader on arbitrary input. */
class VscfRoundTripProperties {

    private static final Position NOWHERE = new Position("gen", 0, 0);

    @Property(tries = 500)
    void printedTreeParsesToTheSameTree(@ForAll("trees") VNode.Hash tree) throws VscfSyntaxException {
        String text = VscfPrinter.print(tree);
        VNode.Hash parsed = VscfParser.parse(text, "printed.conf");
        assertThat(same(tree, parsed)).as("round trip of:\n%s", text).isTrue();
        assertThat(VscfPrinter.print(parsed)).isEqualTo(text);
    }

    @Property(tries = 300)
    void inlineFormParsesToTheSameValue(@ForAll("trees") VNode.Hash tree) throws VscfSyntaxException {
        String text = "x => " + VscfPrinter.inline(tree);
        VNode.Hash parsed = VscfParser.parse(text, "inline.conf");
        assertThat(same(tree, parsed.get("x"))).as("round trip of:\n%s", text).isTrue();
    }

    /** Parse-and-validate never throws, whatever the text (gdnsd-ish fragments and noise). */
    @Property(tries = 1000)
    void loaderNeverThrows(@ForAll("noise") String text) {
        ConfigResult r = new ConfigLoader(Map.of()).parse(text, "noise.conf", null);
        assertThat(r.ok() || !r.problems().isEmpty()).isTrue();
        for (var p : r.problems()) {
            assertThat(p.line()).isPositive();
            assertThat(p.column()).isPositive();
        }
    }

    @Property(tries = 1000)
    void parserFailsOnlyWithASyntaxError(@ForAll("noise") String text) {
        try {
            VscfParser.parseDocument(text, "noise.conf", IncludeResolver.NONE);
        } catch (VscfSyntaxException e) {
            assertThat(e.position().line()).isBetween(1, (int) text.chars().filter(c -> c == '\n').count() + 1);
        }
    }

    @Provide
    Arbitrary<String> noise() {
        Arbitrary<String> tokens = Arbitraries.of("{", "}", "[", "]", "=>", "=", ",", "\"", "\\", "\\123", "\\999",
                "#c\n", ";c\n", "\n", " ", "$include{x}", "$", "resolver", "pva", "zones", "listen", "127.0.0.1:53",
                "true", "servers", "scopes", "watch", "status", "state_dir", "plugins", "weighted", "x", "1");
        return Arbitraries.oneOf(tokens.list().ofMaxSize(40).map(l -> String.join("", l)),
                Arbitraries.strings().ofMaxLength(60));
    }

    @Provide
    Arbitrary<VNode.Hash> trees() {
        return hash(3);
    }

    private Arbitrary<VNode> node(int depth) {
        if (depth <= 0) {
            return scalar().map(s -> s);
        }
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, scalar().map(s -> (VNode) s)),
                net.jqwik.api.Tuple.of(1, array(depth - 1).map(a -> (VNode) a)),
                net.jqwik.api.Tuple.of(1, hash(depth - 1).map(h -> (VNode) h)));
    }

    private Arbitrary<VNode.Scalar> scalar() {
        Arbitrary<VNode.Scalar> bare = Arbitraries.strings().withChars("abcXYZ0189._:/@!*+->%~")
                .ofMinLength(1).ofMaxLength(12).map(s -> new VNode.Scalar(s, false, NOWHERE));
        Arbitrary<VNode.Scalar> quoted = Arbitraries.strings().ofMaxLength(12)
                .map(s -> new VNode.Scalar(s, true, NOWHERE));
        Arbitrary<VNode.Scalar> tricky = Arbitraries.strings().withChars("\"\\\n\r\t #;,=>{}[]$\u0000\u007f\u00e9")
                .ofMaxLength(8).map(s -> new VNode.Scalar(s, true, NOWHERE));
        return Arbitraries.oneOf(bare, quoted, tricky);
    }

    private Arbitrary<VNode.Array> array(int depth) {
        return node(depth).list().ofMaxSize(4).map(items -> new VNode.Array(items, NOWHERE));
    }

    private Arbitrary<VNode.Hash> hash(int depth) {
        Arbitrary<String> keys = Arbitraries.oneOf(
                Arbitraries.strings().withChars("abcxyz_019.-").ofMinLength(1).ofMaxLength(8),
                Arbitraries.strings().ofMaxLength(6));
        return node(depth).list().ofMaxSize(4).flatMap(values -> keys.list().uniqueElements().ofSize(values.size())
                .map(ks -> {
                    List<VNode.Entry> entries = new ArrayList<>();
                    for (int i = 0; i < values.size(); i++) {
                        entries.add(new VNode.Entry(ks.get(i), NOWHERE, values.get(i)));
                    }
                    return new VNode.Hash(entries, NOWHERE);
                }));
    }

    /** Same value and same quoting, positions aside. */
    static boolean same(VNode a, VNode b) {
        if (a instanceof VNode.Scalar x && b instanceof VNode.Scalar y) {
            return x.value().equals(y.value()) && x.quoted() == y.quoted();
        }
        if (a instanceof VNode.Array x && b instanceof VNode.Array y) {
            if (x.items().size() != y.items().size()) {
                return false;
            }
            for (int i = 0; i < x.items().size(); i++) {
                if (!same(x.items().get(i), y.items().get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof VNode.Hash x && b instanceof VNode.Hash y) {
            if (x.entries().size() != y.entries().size()) {
                return false;
            }
            for (int i = 0; i < x.entries().size(); i++) {
                VNode.Entry ex = x.entries().get(i);
                VNode.Entry ey = y.entries().get(i);
                if (!ex.key().equals(ey.key()) || !same(ex.value(), ey.value())) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }
}
