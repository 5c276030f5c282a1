package lookout.engine.config;

import java.util.List;
import lookout.engine.config.vscf.Position;

/**
 * A level-two set of a weighted address family. In grouped mode it is a named address group
 * (seed 001 "THE GROUPED ... CASE"); in ungrouped mode each item is a group of one, exactly as
 * gdnsd stores it (all four cases share one code path).
 *
 * @param name  the group's key (in ungrouped mode, the item's label)
 * @param items one to 64 items, in configuration order
 * @param pos   where the group starts
 */
public record WeightedGroup(String name, List<WeightedItem> items, Position pos) {
    public WeightedGroup {
        items = List.copyOf(items);
    }

    /** The sum of the configured weights. */
    public long weight() {
        long sum = 0;
        for (WeightedItem i : items) {
            sum += i.weight();
        }
        return sum;
    }

    /** The largest configured weight. */
    public int maxWeight() {
        int max = 0;
        for (WeightedItem i : items) {
            max = Math.max(max, i.weight());
        }
        return max;
    }
}
