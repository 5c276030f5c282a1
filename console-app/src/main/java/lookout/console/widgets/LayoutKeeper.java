package lookout.console.widgets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import javafx.animation.PauseTransition;
import javafx.beans.property.Property;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumnBase;
import javafx.scene.control.TitledPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeTableView;
import javafx.stage.Stage;
import javafx.util.Duration;

/**
 * Keeps a {@link Layout} in step with the window: the stage's bounds and maximised state, each
 * table's column order and widths (tables by id, columns by id), and named string properties (the
 * pane, the theme, filters). Restores them when asked, and writes the file a second after the
 * last change (and on {@link #flush}), on the writer executor, never on the UI thread — so a
 * console that is killed rather than closed has its layout anyway.
 *
 * <p>Concurrency: UI thread only, but for the writes handed to {@code writer}.
 */
public final class LayoutKeeper {

    private final Layout layout;
    private final Executor writer;
    private final PauseTransition debounce = new PauseTransition(Duration.seconds(1));
    private boolean restoring;
    /** After {@link #close}: nothing more is recorded or written (the window is gone). */
    private boolean closed;

    public LayoutKeeper(Layout layout, Executor writer) {
        this.layout = layout;
        this.writer = writer;
        debounce.setOnFinished(e -> flush());
    }

    public Layout layout() {
        return layout;
    }

    /** The saved window bounds, or null. */
    public Windows.Bounds savedBounds() {
        double w = layout.number("window.width", -1);
        double h = layout.number("window.height", -1);
        if (w <= 0 || h <= 0) {
            return null;
        }
        return new Windows.Bounds(layout.number("window.x", 0), layout.number("window.y", 0), w, h,
                Boolean.parseBoolean(layout.get("window.maximized", "false")));
    }

    /** Follows the stage's bounds from now on (not while maximised: the size to come back to is kept). */
    public void follow(Stage stage) {
        Runnable bounds = () -> {
            if (!stage.isShowing() || stage.isIconified()) {
                return;
            }
            boolean max = stage.isMaximized();
            boolean changed = put("window.maximized", Boolean.toString(max));
            if (!max) {
                changed |= put("window.x", num(stage.getX()));
                changed |= put("window.y", num(stage.getY()));
                changed |= put("window.width", num(stage.getWidth()));
                changed |= put("window.height", num(stage.getHeight()));
            }
            if (changed) {
                changedNow();
            }
        };
        stage.xProperty().addListener((o, a, b) -> bounds.run());
        stage.yProperty().addListener((o, a, b) -> bounds.run());
        stage.widthProperty().addListener((o, a, b) -> bounds.run());
        stage.heightProperty().addListener((o, a, b) -> bounds.run());
        stage.maximizedProperty().addListener((o, a, b) -> bounds.run());
        stage.showingProperty().addListener((o, a, b) -> bounds.run());
    }

    private static String num(double d) {
        return Long.toString(Math.round(d));
    }

    /** Restores then follows a string property under {@code key} (a filter, the pane, the theme). */
    public void keep(String key, Property<String> p) {
        String saved = layout.get(key);
        if (saved != null) {
            restoring = true;
            try {
                p.setValue(saved);
            } finally {
                restoring = false;
            }
        }
        p.addListener((o, a, b) -> {
            if (put(key, b)) {
                changedNow();
            }
        });
    }

    /** Records {@code value} under {@code key} (for values without a property). */
    public void record(String key, String value) {
        if (put(key, value)) {
            changedNow();
        }
    }

    public void table(TableView<?> t) {
        columns(t.getId(), t.getColumns());
    }

    public void table(TreeTableView<?> t) {
        columns(t.getId(), t.getColumns());
    }

    /** Restores the order and widths saved for table {@code id}, then follows them. */
    private <C extends TableColumnBase<?, ?>> void columns(String id, ObservableList<C> columns) {
        if (id == null) {
            return;
        }
        String key = "table." + id + ".columns";
        String saved = layout.get(key);
        if (saved != null) {
            Map<String, C> byId = new LinkedHashMap<>();
            for (C c : columns) {
                if (c.getId() != null) {
                    byId.put(c.getId(), c);
                }
            }
            List<C> order = new ArrayList<>();
            for (String part : saved.split(",")) {
                String[] kv = part.split(":", 2);
                C c = byId.remove(kv[0]);
                if (c == null) {
                    continue;
                }
                order.add(c);
                if (kv.length == 2) {
                    try {
                        double w = Double.parseDouble(kv[1]);
                        if (w >= c.getMinWidth() && w < 5000) {
                            c.setPrefWidth(w);
                        }
                    } catch (NumberFormatException e) {
                        // a damaged entry: that column keeps its width
                    }
                }
            }
            order.addAll(byId.values()); // columns added since the layout was saved go last
            order.addAll(columns.stream().filter(c -> c.getId() == null).toList());
            if (order.size() == columns.size() && !order.equals(columns)) {
                columns.setAll(order);
            }
        }
        Runnable record = () -> {
            StringBuilder sb = new StringBuilder();
            for (C c : columns) {
                if (c.getId() != null) {
                    sb.append(sb.length() == 0 ? "" : ",").append(c.getId()).append(':').append(Math.round(c.getWidth()));
                }
            }
            if (put(key, sb.toString())) {
                changedNow();
            }
        };
        columns.addListener((ListChangeListener<C>) ch -> record.run());
        for (C c : columns) {
            c.widthProperty().addListener((o, a, b) -> record.run());
        }
    }

    private boolean put(String key, String value) {
        return !restoring && !closed && layout.put(key, value);
    }

    private void changedNow() {
        if (layout.kept()) {
            debounce.playFromStart();
        }
    }

    /** Writes the layout now (off the UI thread). */
    public void flush() {
        debounce.stop();
        if (!layout.kept() || closed) {
            return;
        }
        Map<String, String> copy = layout.snapshot();
        execute(() -> {
            try {
                Layout.write(layout.file(), copy);
            } catch (java.io.IOException | RuntimeException e) {
                System.getLogger("lookout.console").log(System.Logger.Level.DEBUG, "layout not saved: " + e.getMessage());
            }
        });
    }

    private void execute(Runnable write) {
        try {
            writer.execute(write);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the writer has stopped: the console is closing and wrote its last layout already
        }
    }

    /** Writes the layout one last time; from then on nothing is recorded. */
    public void close() {
        flush();
        closed = true;
    }

    /**
     * Keeps every table (columns), split (dividers), tab pane (the selected tab) and collapsible
     * titled pane (folded or not) with an id under {@code root}. Walks the controls' own
     * structure — split items, tab contents, titled and scroll panes' content — so that what sits
     * in a tab not shown yet, or in a control whose skin does not exist yet, is kept too.
     */
    public void keepUnder(Node root) {
        List<Node> all = new ArrayList<>();
        walk(root, all);
        for (Node n : all) {
            if (n.getId() == null) {
                continue;
            }
            if (n instanceof TableView<?> t) {
                table(t);
            } else if (n instanceof TreeTableView<?> t) {
                table(t);
            } else if (n instanceof SplitPane sp) {
                split(sp);
            } else if (n instanceof TabPane tp) {
                tabs(tp);
            } else if (n instanceof TitledPane tp && tp.isCollapsible()) {
                folding(tp);
            }
        }
    }

    private static void walk(Node n, List<Node> out) {
        walk(n, out, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
    }

    private static void walk(Node n, List<Node> out, java.util.Set<Node> seen) {
        if (n == null || !seen.add(n)) {
            return;
        }
        out.add(n);
        if (n instanceof SplitPane sp) {
            sp.getItems().forEach(i -> walk(i, out, seen));
        } else if (n instanceof TabPane tp) {
            tp.getTabs().forEach(t -> walk(t.getContent(), out, seen));
        } else if (n instanceof TitledPane tp) {
            walk(tp.getContent(), out, seen);
        } else if (n instanceof ScrollPane sc) {
            walk(sc.getContent(), out, seen);
        }
        if (n instanceof javafx.scene.Parent p) {
            p.getChildrenUnmodifiable().forEach(c -> walk(c, out, seen));
        }
    }

    /**
     * Keeps the divider positions of split {@code s} (by id) as the operator leaves them: saved
     * when a divider is let go, and set again whenever the split changes size — a split's first
     * layout passes (and a window too small for its sides' minimum sizes) clamp positions set
     * before, and they would stay clamped.
     */
    public void split(SplitPane s) {
        String key = "split." + s.getId() + ".dividers";
        Runnable apply = () -> {
            double[] p = positions(layout.get(key), s.getDividers().size());
            if (p != null) {
                s.setDividerPositions(p);
            }
        };
        apply.run();
        javafx.beans.InvalidationListener resized = o -> {
            if (s.getWidth() > 0 && s.getHeight() > 0) {
                javafx.application.Platform.runLater(apply);
            }
        };
        s.widthProperty().addListener(resized);
        s.heightProperty().addListener(resized);
        s.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_RELEASED, e -> {
            StringBuilder sb = new StringBuilder();
            for (SplitPane.Divider d : s.getDividers()) {
                sb.append(sb.length() == 0 ? "" : ",").append(String.format(java.util.Locale.ROOT, "%.4f", d.getPosition()));
            }
            if (put(key, sb.toString())) {
                changedNow();
            }
        });
    }

    /** The {@code n} positions saved as {@code saved}, or null when there are none or they are damaged. */
    private static double[] positions(String saved, int n) {
        if (saved == null) {
            return null;
        }
        String[] parts = saved.split(",");
        if (parts.length != n) {
            return null;
        }
        double[] p = new double[n];
        try {
            for (int i = 0; i < n; i++) {
                p[i] = Double.parseDouble(parts[i]);
                if (!(p[i] > 0 && p[i] < 1)) {
                    return null;
                }
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return p;
    }

    /** Restores whether the collapsible {@code pane} (by id) is folded, then follows it. */
    public void folding(TitledPane pane) {
        String key = "titled." + pane.getId() + ".expanded";
        String saved = layout.get(key);
        if (saved != null) {
            pane.setExpanded(Boolean.parseBoolean(saved));
        }
        pane.expandedProperty().addListener((o, a, b) -> {
            if (put(key, Boolean.toString(b))) {
                changedNow();
            }
        });
    }

    /** Restores the tab selected in {@code tabs} (by the tab's id), then follows the selection. */
    public void tabs(TabPane tabs) {
        String key = "tabs." + tabs.getId() + ".selected";
        String saved = layout.get(key);
        if (saved != null) {
            tabs.getTabs().stream().filter(t -> saved.equals(t.getId())).findFirst()
                    .ifPresent(t -> tabs.getSelectionModel().select(t));
        }
        tabs.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null && b.getId() != null && put(key, b.getId())) {
                changedNow();
            }
        });
    }
}
