package lookout.console.widgets;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * A table's rows kept in step with a snapshot list by key: existing rows are updated in place,
 * new keys appended, vanished keys removed — the item list is never replaced (STYLE: a table keeps
 * its selection, scroll position and sort while the data moves).
 *
 * @param <K> key (a server's GUID and endpoint, a channel's name)
 * @param <S> snapshot record
 * @param <R> row with properties
 */
public final class KeyedRows<K, S, R> {

    private final ObservableList<R> rows = FXCollections.observableArrayList();
    private final Map<K, R> byKey = new HashMap<>();
    private final Map<R, K> keyOf = new HashMap<>();
    private final Function<S, K> key;
    private final Function<S, R> create;
    private final BiConsumer<R, S> update;

    public KeyedRows(Function<S, K> key, Function<S, R> create, BiConsumer<R, S> update) {
        this.key = key;
        this.create = create;
        this.update = update;
    }

    public ObservableList<R> rows() {
        return rows;
    }

    public R get(K k) {
        return byKey.get(k);
    }

    /** Brings the rows in line with {@code items}; returns how many rows were added or removed. */
    public int sync(List<S> items) {
        Set<K> seen = new HashSet<>(items.size() * 2);
        List<R> added = new ArrayList<>();
        for (S item : items) {
            K k = key.apply(item);
            if (!seen.add(k)) {
                continue; // a duplicate key in one snapshot: first one wins
            }
            R row = byKey.get(k);
            if (row == null) {
                row = create.apply(item);
                byKey.put(k, row);
                keyOf.put(row, k);
                added.add(row);
            }
            update.accept(row, item);
        }
        int removed = 0;
        if (byKey.size() - added.size() > 0 && seen.size() < byKey.size()) {
            List<R> gone = new ArrayList<>();
            for (Map.Entry<K, R> e : byKey.entrySet()) {
                if (!seen.contains(e.getKey())) {
                    gone.add(e.getValue());
                }
            }
            for (R r : gone) {
                byKey.remove(keyOf.remove(r));
            }
            Set<R> goneSet = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            goneSet.addAll(gone);
            rows.removeIf(goneSet::contains);
            removed = gone.size();
        }
        if (!added.isEmpty()) {
            rows.addAll(added);
        }
        return added.size() + removed;
    }
}
