package lookout.console.pools;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import javafx.collections.ListChangeListener;
import javafx.scene.control.TreeItem;

/**
 * The view's mirror of the view model's row tree: one {@link TreeItem} per {@link PoolRow}, made
 * once and kept while the row is in the tree, its children following the row's children list. The
 * view model stays free of toolkit classes; selection and expansion survive updates because the
 * items are not replaced.
 *
 * <p>Concurrency: UI thread only, like the rows it mirrors.
 */
final class RowTree {

    private final Map<PoolRow, TreeItem<PoolRow>> items = new IdentityHashMap<>();

    /** The tree item of {@code root}, mirroring it and everything below it from now on. */
    TreeItem<PoolRow> mirror(PoolRow root) {
        return item(root);
    }

    private TreeItem<PoolRow> item(PoolRow row) {
        TreeItem<PoolRow> existing = items.get(row);
        if (existing != null) {
            return existing;
        }
        TreeItem<PoolRow> t = new TreeItem<>(row);
        t.setExpanded(row.expandedAtFirst);
        items.put(row, t);
        follow(row, t);
        row.children.addListener((ListChangeListener<PoolRow>) c -> follow(row, t));
        return t;
    }

    private void follow(PoolRow row, TreeItem<PoolRow> t) {
        List<TreeItem<PoolRow>> now = new ArrayList<>(row.children.size());
        for (PoolRow child : row.children) {
            now.add(item(child));
        }
        for (TreeItem<PoolRow> old : t.getChildren()) {
            if (!row.children.contains(old.getValue())) {
                forget(old);
            }
        }
        t.getChildren().setAll(now);
    }

    private void forget(TreeItem<PoolRow> t) {
        items.remove(t.getValue());
        t.getChildren().forEach(this::forget);
    }
}
