package lookout.console.widgets;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.beans.value.ObservableValue;
import javafx.collections.ObservableList;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Control;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableColumnBase;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableRow;
import javafx.scene.control.TreeTableView;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;

/**
 * What every table and list of the console does with its rows: Ctrl+C and a context menu "Copy"
 * (the selected rows as tab-separated text, a header line first when more than one), "Details…"
 * (Enter or a double click: every column of the row, whole, in a window of its own, with the raw
 * text behind a disclosure where the pane has one), a tooltip with the whole row (a cell cut by
 * its column's width can always be read), and the pane's own row actions ("Why?").
 *
 * <p>A column whose value is not text (an object drawn by its cell) says how it reads as text with
 * {@link #text(TableColumnBase, Function)}.
 */
public final class Rows {

    /** Column property: {@code Function<S, String>}, the cell's text for copying and details. */
    static final String TEXT = "lookout.rows.text";

    /** A row action of a pane, in the context menu (and on its key, when it has one). */
    public record Action<S>(String text, KeyCombination keys, Consumer<S> run) {
    }

    /** What is shown about one row in its details window, and the raw text behind the disclosure. */
    public interface Describer<S> {
        /** The window's title ("Event", "Upstream server 192.0.2.53"). */
        String title(S row);

        /** Raw text (an exception's own words) when the row has more than its columns say, else null. */
        default String raw(S row) {
            return null;
        }
    }

    private Rows() {
    }

    /** How {@code column}'s cells read as text (for a column whose value is the row itself, say). */
    public static <S> void text(TableColumnBase<?, ?> column, Function<S, String> text) {
        column.getProperties().put(TEXT, text);
    }

    // ------------------------------------------------------------------ tables

    public static <S> void table(TableView<S> t, Describer<S> describer, List<Action<S>> actions) {
        Grid<S> g = new Grid<>() {
            @Override
            public List<S> selected() {
                return new ArrayList<>(t.getSelectionModel().getSelectedItems());
            }

            @Override
            public List<? extends TableColumnBase<?, ?>> columns() {
                return t.getVisibleLeafColumns();
            }

            @Override
            public List<? extends TableColumnBase<?, ?>> allColumns() {
                List<TableColumnBase<?, ?>> all = new ArrayList<>();
                leaves(t.getColumns(), all);
                return all;
            }

            @Override
            @SuppressWarnings("unchecked")
            public String cell(TableColumnBase<?, ?> c, S row) {
                return cellText(c, row, ((TableColumn<S, ?>) c).getCellObservableValue(row));
            }

            @Override
            public Control control() {
                return t;
            }
        };
        install(g, describer, actions);
        t.getSelectionModel().setSelectionMode(javafx.scene.control.SelectionMode.MULTIPLE);
        var previous = t.getRowFactory();
        t.setRowFactory(tv -> {
            TableRow<S> r = previous != null ? previous.call(tv) : new TableRow<>();
            rowTooltip(r, () -> r.getItem() == null ? null : rowText(g, r.getItem(), true));
            r.setOnMouseClicked(e -> {
                if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2 && r.getItem() != null) {
                    Details.show(t, describer.title(r.getItem()), rowText(g, r.getItem(), true), describer.raw(r.getItem()));
                }
            });
            return r;
        });
    }

    private static void leaves(ObservableList<? extends TableColumnBase<?, ?>> cols, List<TableColumnBase<?, ?>> out) {
        for (TableColumnBase<?, ?> c : cols) {
            if (c.getColumns().isEmpty()) {
                out.add(c);
            } else {
                leaves(c.getColumns(), out);
            }
        }
    }

    public static <S> void tree(TreeTableView<S> t, Describer<S> describer, List<Action<S>> actions) {
        Grid<S> g = new Grid<>() {
            @Override
            public List<S> selected() {
                List<S> out = new ArrayList<>();
                for (TreeItem<S> i : t.getSelectionModel().getSelectedItems()) {
                    if (i != null && i.getValue() != null) {
                        out.add(i.getValue());
                    }
                }
                return out;
            }

            @Override
            public List<? extends TableColumnBase<?, ?>> columns() {
                return t.getVisibleLeafColumns();
            }

            @Override
            public List<? extends TableColumnBase<?, ?>> allColumns() {
                List<TableColumnBase<?, ?>> all = new ArrayList<>();
                leaves(t.getColumns(), all);
                return all;
            }

            @Override
            @SuppressWarnings("unchecked")
            public String cell(TableColumnBase<?, ?> c, S row) {
                TreeItem<S> item = find(t.getRoot(), row);
                return cellText(c, row, item == null ? null : ((TreeTableColumn<S, ?>) c).getCellObservableValue(item));
            }

            @Override
            public Control control() {
                return t;
            }
        };
        install(g, describer, actions);
        t.getSelectionModel().setSelectionMode(javafx.scene.control.SelectionMode.MULTIPLE);
        var previous = t.getRowFactory();
        t.setRowFactory(tv -> {
            TreeTableRow<S> r = previous != null ? previous.call(tv) : new TreeTableRow<>();
            rowTooltip(r, () -> r.getItem() == null ? null : rowText(g, r.getItem(), true));
            r.setOnMouseClicked(e -> {
                if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2 && r.getItem() != null) {
                    Details.show(t, describer.title(r.getItem()), rowText(g, r.getItem(), true), describer.raw(r.getItem()));
                }
            });
            return r;
        });
    }

    private static <S> TreeItem<S> find(TreeItem<S> from, S value) {
        if (from == null) {
            return null;
        }
        if (from.getValue() == value) {
            return from;
        }
        for (TreeItem<S> c : from.getChildren()) {
            TreeItem<S> f = find(c, value);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ lists

    /** Ctrl+C and "Copy" for a list of lines (the selected ones, or all when none is selected). */
    public static void list(ListView<?> l) {
        l.getSelectionModel().setSelectionMode(javafx.scene.control.SelectionMode.MULTIPLE);
        Runnable copy = () -> {
            List<?> sel = l.getSelectionModel().getSelectedItems();
            List<?> what = sel.isEmpty() ? l.getItems() : sel;
            List<String> lines = new ArrayList<>();
            for (Object o : what) {
                if (o != null) {
                    lines.add(l.getCellFactory() == null ? o.toString() : String.valueOf(o));
                }
            }
            toClipboard(String.join("\n", lines));
        };
        MenuItem item = new MenuItem("Copy");
        item.setAccelerator(COPY);
        item.setOnAction(e -> copy.run());
        l.setContextMenu(new ContextMenu(item));
        l.addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (COPY.match(e)) {
                copy.run();
                e.consume();
            }
        });
    }

    // ------------------------------------------------------------------ shared

    static final KeyCombination COPY = new KeyCodeCombination(KeyCode.C, KeyCombination.SHORTCUT_DOWN);

    private interface Grid<S> {
        List<S> selected();

        List<? extends TableColumnBase<?, ?>> columns();

        List<? extends TableColumnBase<?, ?>> allColumns();

        String cell(TableColumnBase<?, ?> c, S row);

        Control control();
    }

    private static <S> void install(Grid<S> g, Describer<S> describer, List<Action<S>> actions) {
        Control c = g.control();
        Runnable copy = () -> {
            List<S> rows = g.selected();
            if (!rows.isEmpty()) {
                toClipboard(copyText(g, rows));
            }
        };
        Consumer<S> details = row -> Details.show(c, describer.title(row), rowText(g, row, true), describer.raw(row));
        MenuItem copyItem = new MenuItem("Copy");
        copyItem.setAccelerator(COPY);
        copyItem.setOnAction(e -> copy.run());
        MenuItem detailsItem = new MenuItem("Details…");
        detailsItem.setAccelerator(new KeyCodeCombination(KeyCode.ENTER));
        detailsItem.setOnAction(e -> first(g).ifPresent(details));
        ContextMenu menu = new ContextMenu(copyItem, detailsItem);
        for (Action<S> a : actions) {
            if (menu.getItems().size() == 2) {
                menu.getItems().add(new SeparatorMenuItem());
            }
            MenuItem m = new MenuItem(a.text());
            if (a.keys() != null) {
                m.setAccelerator(a.keys());
            }
            m.setOnAction(e -> first(g).ifPresent(a.run()));
            menu.getItems().add(m);
        }
        menu.setOnShowing(e -> {
            boolean none = g.selected().isEmpty();
            for (MenuItem m : menu.getItems()) {
                m.setDisable(none);
            }
        });
        c.setContextMenu(menu);
        // on the control itself, so that Ctrl+C / Enter act only where the focus is (never another pane's)
        c.addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (COPY.match(e)) {
                copy.run();
                e.consume();
            } else if (e.getCode() == KeyCode.ENTER && !e.isShortcutDown() && !e.isAltDown() && !e.isShiftDown()) {
                first(g).ifPresent(details);
                e.consume();
            } else {
                for (Action<S> a : actions) {
                    if (a.keys() != null && a.keys().match(e)) {
                        first(g).ifPresent(a.run());
                        e.consume();
                    }
                }
            }
        });
    }

    private static <S> java.util.Optional<S> first(Grid<S> g) {
        List<S> s = g.selected();
        return s.isEmpty() ? java.util.Optional.empty() : java.util.Optional.ofNullable(s.get(0));
    }

    /** Selected rows as tab-separated text; with a header line when there is more than one. */
    private static <S> String copyText(Grid<S> g, List<S> rows) {
        StringBuilder sb = new StringBuilder();
        List<? extends TableColumnBase<?, ?>> cols = g.columns();
        if (rows.size() > 1) {
            List<String> h = new ArrayList<>();
            for (TableColumnBase<?, ?> c : cols) {
                h.add(Headers.title(c));
            }
            sb.append(String.join("\t", h)).append('\n');
        }
        for (S r : rows) {
            List<String> cells = new ArrayList<>();
            for (TableColumnBase<?, ?> c : cols) {
                cells.add(g.cell(c, r).replace('\t', ' ').replace('\n', ' '));
            }
            sb.append(String.join("\t", cells)).append('\n');
        }
        return rows.size() == 1 ? sb.toString().strip() : sb.toString();
    }

    /** "Header: value" per column (every column for details, the visible ones for a tooltip). */
    static <S> String rowText(Grid<S> g, S row, boolean all) {
        StringBuilder sb = new StringBuilder();
        for (TableColumnBase<?, ?> c : all ? g.allColumns() : g.columns()) {
            if (!c.isVisible() && !all) {
                continue;
            }
            String v = g.cell(c, row);
            String h = Headers.title(c);
            if (v.isEmpty() && h.isEmpty()) {
                continue;
            }
            if (!c.isVisible() && v.isEmpty()) {
                continue;
            }
            sb.append(h.isEmpty() ? "Note" : h).append(": ").append(v).append('\n');
        }
        return sb.toString().strip();
    }

    @SuppressWarnings("unchecked")
    private static <S> String cellText(TableColumnBase<?, ?> c, S row, ObservableValue<?> value) {
        Object f = c.getProperties().get(TEXT);
        if (f instanceof Function<?, ?> fn) {
            String s = ((Function<S, String>) fn).apply(row);
            return s == null ? "" : s;
        }
        Object v = value == null ? null : value.getValue();
        return v == null ? "" : v.toString();
    }

    private static void rowTooltip(javafx.scene.control.IndexedCell<?> r, java.util.function.Supplier<String> text) {
        Tooltip tip = new Tooltip();
        tip.setWrapText(true);
        tip.setMaxWidth(700);
        tip.setShowDelay(javafx.util.Duration.millis(700));
        tip.setOnShowing(e -> {
            String s = text.get();
            tip.setText(s == null ? "" : s);
        });
        r.itemProperty().addListener((o, a, b) -> r.setTooltip(b == null ? null : tip));
    }

    public static void toClipboard(String text) {
        ClipboardContent content = new ClipboardContent();
        content.putString(text);
        Clipboard.getSystemClipboard().setContent(content);
    }
}
