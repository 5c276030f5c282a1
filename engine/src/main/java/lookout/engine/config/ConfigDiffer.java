package lookout.engine.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import lookout.engine.config.vscf.IncludeResolver;
import lookout.engine.config.vscf.VNode;
import lookout.engine.config.vscf.VscfParser;
import lookout.engine.config.vscf.VscfPrinter;
import lookout.engine.config.vscf.VscfSyntaxException;

/**
 * The diff the console shows before applying: both texts parsed again into {@link VNode} trees
 * and compared key by key. Hashes are walked; any other value that differs (a string, or a whole
 * list — a changed list is one change) is one change at its key path. Quoting and layout are not
 * changes. A section whose text is the same but whose bound value differs (a zone file edited on
 * disk, an {@code EPICS_PVA_*} variable) is reported as one change of the whole section.
 */
final class ConfigDiffer {

    private ConfigDiffer() {
    }

    /** The top-level sections, in the order SPEC lists them (here, where the diff walks them; the loader shows them). */
    static final List<String> SECTIONS = List.of("resolver", "zones", "service_types", "plugins", "pva",
            "status", "state_dir");

    static ConfigDiff diff(Config before, Config after) {
        List<ConfigDiff.Change> changes = new ArrayList<>();
        VNode.Hash a = tree(before);
        VNode.Hash b = tree(after);
        if (a != null && b != null) {
            compare(null, null, a, b, changes);
        }
        for (String section : SECTIONS) {
            boolean textChanged = changes.stream().anyMatch(c -> c.section().equals(section));
            if (!textChanged && !Objects.equals(bound(before, section), bound(after, section))) {
                changes.add(new ConfigDiff.Change(section, section, ConfigDiff.Kind.CHANGED,
                        "(effective value)", "(effective value changed: included file, zone file or environment)"));
            }
        }
        return new ConfigDiff(changes);
    }

    /**
     * A section's bound value as it takes effect: without the file positions some records carry
     * for messages (an inline zone's first line, a pool item's line and column), so that a comment
     * or a blank line above them is no change.
     */
    private static Object bound(Config c, String section) {
        return switch (section) {
            case "resolver" -> c.resolver();
            case "zones" -> c.zones() == null ? null : withoutPositions(c.zones());
            case "service_types" -> c.serviceTypes();
            case "plugins" -> c.weighted() == null ? null : withoutPositions(c.weighted());
            case "pva" -> c.pva();
            case "status" -> c.status();
            case "state_dir" -> c.stateDir();
            default -> null;
        };
    }

    private static java.util.Map<String, ZoneConfig> withoutPositions(java.util.Map<String, ZoneConfig> zones) {
        java.util.Map<String, ZoneConfig> out = new java.util.LinkedHashMap<>();
        zones.forEach((k, z) -> out.put(k, z == null ? null
                : new ZoneConfig(z.origin(), z.sourceName(), z.text(), 0, z.directory(), z.includes())));
        return out;
    }

    private static WeightedConfig withoutPositions(WeightedConfig w) {
        java.util.Map<String, WeightedResource> out = new java.util.LinkedHashMap<>();
        w.resources().forEach((k, r) -> out.put(k, r == null ? null : new WeightedResource(r.name(),
                withoutPositions(r.v4()), withoutPositions(r.v6()), withoutPositions(r.cnames()), null)));
        return new WeightedConfig(w.addressResources(), w.cnameResources(), out);
    }

    private static WeightedFamily withoutPositions(WeightedFamily f) {
        if (f == null) {
            return null;
        }
        List<WeightedGroup> groups = new ArrayList<>();
        for (WeightedGroup g : f.groups()) {
            List<WeightedItem> items = new ArrayList<>();
            for (WeightedItem i : g.items()) {
                items.add(new WeightedItem(i.label(), i.target(), i.weight(), null));
            }
            groups.add(new WeightedGroup(g.name(), items, null));
        }
        return new WeightedFamily(f.stanza(), f.kind(), f.multi(), f.grouped(), f.upThresh(), f.serviceTypes(), groups,
                f.upWeight());
    }

    /** The text's tree without following includes (their content is compared through the bound values). */
    private static VNode.Hash tree(Config c) {
        try {
            IncludeResolver empty = (path, file, at) -> new IncludeResolver.Included(path, "");
            return VscfParser.parse(c.source().text(), c.source().name(), empty);
        } catch (VscfSyntaxException e) {
            return null;
        }
    }

    /** The changes between two trees, key path by key path (package-private for tests). */
    static List<ConfigDiff.Change> compare(VNode.Hash a, VNode.Hash b) {
        List<ConfigDiff.Change> out = new ArrayList<>();
        compare(null, null, a, b, out);
        return out;
    }

    /** {@code parent} and {@code section} are null at the top level (an empty key is a key). */
    private static void compare(String parent, String section, VNode.Hash a, VNode.Hash b,
                                List<ConfigDiff.Change> out) {
        for (VNode.Entry ea : a.entries()) {
            String path = parent == null ? ea.key() : parent + "." + ea.key();
            String sec = section == null ? ea.key() : section;
            VNode vb = b.get(ea.key());
            if (vb == null) {
                out.add(new ConfigDiff.Change(sec, path, ConfigDiff.Kind.REMOVED, VscfPrinter.inline(ea.value()), null));
            } else if (ea.value() instanceof VNode.Hash ha && vb instanceof VNode.Hash hb) {
                compare(path, sec, ha, hb, out);
            } else if (!VNode.sameValue(ea.value(), vb)) {
                out.add(new ConfigDiff.Change(sec, path, ConfigDiff.Kind.CHANGED,
                        VscfPrinter.inline(ea.value()), VscfPrinter.inline(vb)));
            }
        }
        for (VNode.Entry eb : b.entries()) {
            if (a.get(eb.key()) == null) {
                String path = parent == null ? eb.key() : parent + "." + eb.key();
                String sec = section == null ? eb.key() : section;
                out.add(new ConfigDiff.Change(sec, path, ConfigDiff.Kind.ADDED, null, VscfPrinter.inline(eb.value())));
            }
        }
    }
}
