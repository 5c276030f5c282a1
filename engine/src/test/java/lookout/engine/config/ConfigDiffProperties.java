package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import lookout.engine.config.vscf.Position;
import lookout.engine.config.vscf.VNode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The diff lists exactly the keys that changed: one edit in a generated tree, one change. */
class ConfigDiffProperties {

    private static final Position P = new Position("gen", 1, 1);

    @Property(tries = 200)
    void aTreeAgainstItselfHasNoChanges(@ForAll("trees") VNode.Hash tree) {
        assertThat(ConfigDiffer.compare(tree, tree)).isEmpty();
    }

    @Property(tries = 200)
    void oneChangedValueIsExactlyOneChangeAtItsPath(@ForAll("trees") VNode.Hash tree,
                                                   @ForAll @IntRange(min = 0, max = 1000) int pick) {
        List<List<String>> paths = new ArrayList<>();
        entryPaths(tree, new ArrayList<>(), paths);
        if (paths.isEmpty()) {
            return;
        }
        List<String> path = paths.get(pick % paths.size());
        VNode old = get(tree, path);
        VNode changed = new VNode.Scalar(old instanceof VNode.Scalar s ? s.value() + "~changed" : "changed", false, P);
        VNode.Hash edited = (VNode.Hash) replace(tree, path, 0, changed);

        List<ConfigDiff.Change> changes = ConfigDiffer.compare(tree, edited);

        assertThat(changes).singleElement().satisfies(c -> {
            assertThat(c.path()).isEqualTo(String.join(".", path));
            assertThat(c.kind()).isEqualTo(ConfigDiff.Kind.CHANGED);
            assertThat(c.section()).isEqualTo(path.get(0));
        });
    }

    @Property(tries = 200)
    void oneRemovedKeyIsExactlyOneRemoval(@ForAll("trees") VNode.Hash tree,
                                          @ForAll @IntRange(min = 0, max = 1000) int pick) {
        List<List<String>> paths = new ArrayList<>();
        entryPaths(tree, new ArrayList<>(), paths);
        if (paths.isEmpty()) {
            return;
        }
        List<String> path = paths.get(pick % paths.size());
        VNode.Hash edited = (VNode.Hash) replace(tree, path, 0, null);
        assertThat(ConfigDiffer.compare(tree, edited)).singleElement().satisfies(c -> {
            assertThat(c.path()).isEqualTo(String.join(".", path));
            assertThat(c.kind()).isEqualTo(ConfigDiff.Kind.REMOVED);
        });
        assertThat(ConfigDiffer.compare(edited, tree)).singleElement().satisfies(c -> {
            assertThat(c.path()).isEqualTo(String.join(".", path));
            assertThat(c.kind()).isEqualTo(ConfigDiff.Kind.ADDED);
        });
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<VNode.Hash> trees() {
        return new VscfRoundTripProperties().trees();
    }

    /** Key paths of every hash entry, through nested hashes only (a list is one value). */
    private static void entryPaths(VNode.Hash h, List<String> prefix, List<List<String>> out) {
        for (VNode.Entry e : h.entries()) {
            List<String> p = new ArrayList<>(prefix);
            p.add(e.key());
            out.add(p);
            if (e.value() instanceof VNode.Hash inner) {
                entryPaths(inner, p, out);
            }
        }
    }

    private static VNode get(VNode.Hash h, List<String> path) {
        VNode v = h.get(path.get(0));
        return path.size() == 1 ? v : get((VNode.Hash) v, path.subList(1, path.size()));
    }

    /** A copy of {@code h} with the value at {@code path} replaced (or removed when null). */
    private static VNode replace(VNode.Hash h, List<String> path, int i, VNode value) {
        List<VNode.Entry> entries = new ArrayList<>();
        for (VNode.Entry e : h.entries()) {
            if (!e.key().equals(path.get(i))) {
                entries.add(e);
            } else if (i == path.size() - 1) {
                if (value != null) {
                    entries.add(new VNode.Entry(e.key(), e.keyPos(), value));
                }
            } else {
                entries.add(new VNode.Entry(e.key(), e.keyPos(), replace((VNode.Hash) e.value(), path, i + 1, value)));
            }
        }
        return new VNode.Hash(entries, h.pos());
    }
}
