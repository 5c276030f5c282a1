package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import lookout.engine.config.vscf.IncludeResolver;
import lookout.engine.config.vscf.Position;
import lookout.engine.config.vscf.VNode;
import lookout.engine.config.vscf.VscfParser;
import lookout.engine.config.vscf.VscfSyntaxException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The vscf grammar as gdnsd 3.8's libgdnsd/vscf.rl has it. */
class VscfParserTest {

    private static VNode.Hash parse(String text) throws VscfSyntaxException {
        return VscfParser.parse(text, "t.conf");
    }

    private static String scalar(VNode v) {
        return ((VNode.Scalar) v).value();
    }

    @Test
    void keepsTheLineAndColumnOfEveryKeyAndValue() throws Exception {
        VNode.Hash root = parse("# comment\nresolver => {\n  listen = [ 127.0.0.1:53, \"::1\" ]\n}\n");
        VNode.Entry resolver = root.entry("resolver");
        assertThat(resolver.keyPos()).isEqualTo(new Position("t.conf", 2, 1));
        assertThat(resolver.value().pos()).isEqualTo(new Position("t.conf", 2, 13));
        VNode.Entry listen = ((VNode.Hash) resolver.value()).entry("listen");
        assertThat(listen.keyPos()).isEqualTo(new Position("t.conf", 3, 3));
        VNode.Array items = (VNode.Array) listen.value();
        assertThat(items.pos()).isEqualTo(new Position("t.conf", 3, 12));
        assertThat(items.items().get(0).pos()).isEqualTo(new Position("t.conf", 3, 14));
        assertThat(items.items().get(1).pos()).isEqualTo(new Position("t.conf", 3, 28));
        assertThat(((VNode.Scalar) items.items().get(1)).quoted()).isTrue();
    }

    @Test
    void separatorsAreOptionalAndBothArrowsWork() throws Exception {
        VNode.Hash a = parse("a => 1, b = 2 c=>3\nd=[x y,z] e={f=g,}, ");
        assertThat(a.keys()).containsExactly("a", "b", "c", "d", "e");
        assertThat(((VNode.Array) a.get("d")).items()).extracting(VscfParserTest::scalar).containsExactly("x", "y", "z");
        assertThat(scalar(((VNode.Hash) a.get("e")).get("f"))).isEqualTo("g");
    }

    @Test
    void hashAndSemicolonStartComments() throws Exception {
        VNode.Hash a = parse("a => 1 # one\n; a whole line\nb => 2 ;two\n");
        assertThat(a.keys()).containsExactly("a", "b");
        assertThat(scalar(a.get("a"))).isEqualTo("1");
    }

    @Test
    void bareStringsTakeEverythingButTheSpecialCharacters() throws Exception {
        VNode.Hash a = parse("x => 2001:db8::ABC/64!*@%~>.-_\ny => a>b");
        assertThat(scalar(a.get("x"))).isEqualTo("2001:db8::ABC/64!*@%~>.-_");
        assertThat(scalar(a.get("y"))).isEqualTo("a>b");
    }

    @Test
    void escapesFollowGdnsdsDnsUnescape() throws Exception {
        VNode.Hash a = parse("a => \"q\\\"uo\\\\te\\065\\010\" b => x\\ y\\,z\\#w c => \"multi\nline\" \"\" => empty");
        assertThat(scalar(a.get("a"))).isEqualTo("q\"uo\\teA\n");
        assertThat(scalar(a.get("b"))).isEqualTo("x y,z#w");
        assertThat(scalar(a.get("c"))).isEqualTo("multi\nline");
        assertThat(scalar(a.get(""))).isEqualTo("empty");
    }

    @Test
    void aQuotedStringSpanningLinesKeepsLaterPositionsRight() throws Exception {
        VNode.Hash a = parse("a => \"1\n2\n3\"\nb => x");
        assertThat(a.entry("b").keyPos()).isEqualTo(new Position("t.conf", 4, 1));
    }

    @Test
    void carriageReturnsAreWhitespace() throws Exception {
        VNode.Hash a = parse("a => 1\r\nb => { c => 2 }\r\n");
        assertThat(scalar(a.get("a"))).isEqualTo("1");
        assertThat(a.entry("b").keyPos()).isEqualTo(new Position("t.conf", 2, 1));
    }

    @Test
    void aTopLevelListIsADocumentButNotAConfiguration() throws Exception {
        VNode doc = VscfParser.parseDocument(" [ a, b ] ", "t.conf", IncludeResolver.NONE);
        assertThat(doc).isInstanceOf(VNode.Array.class);
        assertThatThrownBy(() -> parse("[ a ]")).isInstanceOf(VscfSyntaxException.class)
                .hasMessageContaining("top level");
    }

    @Test
    void emptyTextIsAnEmptyHash() throws Exception {
        assertThat(parse("").entries()).isEmpty();
        assertThat(parse("  # nothing\n").entries()).isEmpty();
    }

    @Test
    void includesMergeIntoAHashOrStandAsAValue(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pva.conf"), "auto_addr_list => false\nwatch => [ a ]\n");
        Files.writeString(dir.resolve("more.conf"), "state_dir => st\n");
        Path main = dir.resolve("main.conf");
        Files.writeString(main, "pva => $include{pva.conf}\n$include{\"more.conf\"}\n");
        ConfigResult r = new ConfigLoader(Map.of()).load(main);
        assertThat(r.problems()).isEmpty();
        assertThat(r.config().pva().watch()).containsExactly("a");
        assertThat(r.config().pva().autoAddrList()).isFalse();
        assertThat(r.config().stateDir()).isEqualTo(dir.resolve("st"));
    }

    @Test
    void anErrorInAnIncludedFileNamesThatFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("bad.conf"), "watch => [ a\n");
        Path main = dir.resolve("main.conf");
        Files.writeString(main, "pva => $include{bad.conf}\n");
        ConfigResult r = new ConfigLoader(Map.of()).load(main);
        assertThat(r.problems()).hasSize(1);
        assertThat(r.problems().get(0).toString()).isEqualTo(dir.resolve("bad.conf")
                + ":2:1: watch: expected ']' to close the list opened at line 1, column 10, found end of file");
    }

    @Test
    void anIncludeLoopStops(@TempDir Path dir) throws Exception {
        Path main = dir.resolve("loop.conf");
        Files.writeString(main, "$include{loop.conf}\n");
        ConfigResult r = new ConfigLoader(Map.of()).load(main);
        assertThat(r.problems()).singleElement().satisfies(p ->
                assertThat(p.message()).contains("nested deeper than " + VscfParser.MAX_INCLUDE_DEPTH));
    }

    @Test
    void deepNestingIsAnErrorNotAStackOverflow() {
        String deep = "a => " + "[".repeat(100_000);
        assertThatThrownBy(() -> parse(deep)).isInstanceOf(VscfSyntaxException.class)
                .hasMessageContaining("nested deeper than 64");
    }
}
