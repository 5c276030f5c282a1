package lookout.console.widgets;

import java.util.List;
import javafx.application.Platform;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Control;
import javafx.scene.control.TableColumnBase;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeTableView;
import javafx.scene.control.skin.TableColumnHeader;
import javafx.scene.text.Font;
import javafx.scene.text.Text;

/**
 * Column headers that are never cut: the columns share the table's width (no horizontal scrolling
 * on a 1280-px screen), a header too long for its column wraps onto a second line rather than
 * ending in "…", no column is narrower than its header's longest word, and each header has its
 * whole text (and what the column means, where given) in a tooltip.
 */
public final class Headers {

    /** Column property: what the column means, for its header's tooltip. */
    static final String MEANING = "lookout.headers.meaning";

    private Headers() {
    }

    /** Column property: the header's text on one line (the header itself may show it on two). */
    static final String TITLE = "lookout.headers.title";

    /** The header's text as the operator reads it (for copies and details), on one line. */
    public static String title(TableColumnBase<?, ?> c) {
        Object t = c.getProperties().get(TITLE);
        if (t instanceof String s) {
            return s;
        }
        return c.getText() == null ? "" : c.getText();
    }

    /**
     * A header of more than one word and more than {@code 10} characters on two lines, broken at
     * the space nearest its middle ("Queries sent/s" → "Queries" / "sent/s"): a column can then be
     * half as wide as its title and still show it whole (a header label does not wrap by itself).
     */
    static String twoLines(String title) {
        if (title.length() <= 10 || !title.contains(" ") || title.contains("\n")) {
            return title;
        }
        int mid = title.length() / 2;
        int best = -1;
        for (int i = 0; i < title.length(); i++) {
            if (title.charAt(i) == ' ' && (best < 0 || Math.abs(i - mid) < Math.abs(best - mid))) {
                best = i;
            }
        }
        return title.substring(0, best) + "\n" + title.substring(best + 1);
    }

    /** What {@code column} means, said in its header's tooltip under its title. */
    public static void meaning(TableColumnBase<?, ?> column, String meaning) {
        column.getProperties().put(MEANING, meaning);
    }

    public static void install(TableView<?> t) {
        t.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        common(t, t.getColumns());
    }

    public static void install(TreeTableView<?> t) {
        t.setColumnResizePolicy(TreeTableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        common(t, t.getColumns());
    }

    private static void common(Control t, List<? extends TableColumnBase<?, ?>> columns) {
        t.getStyleClass().add("wrapping-headers");
        for (TableColumnBase<?, ?> c : columns) {
            String title = title(c);
            c.getProperties().put(TITLE, title);
            String shown = twoLines(title);
            c.setText(shown);
            double widest = 0;
            for (String line : shown.split("\n")) {
                widest = Math.max(widest, textWidth(line));
            }
            if (widest > 0) {
                // the header is never cut: its column is at least as wide as its longest line
                c.setMinWidth(Math.max(c.getMinWidth(), Math.ceil(widest) + 22));
            }
        }
        Runnable tips = () -> Platform.runLater(() -> tooltips(t));
        t.skinProperty().addListener((o, a, b) -> tips.run());
        if (t instanceof TableView<?> tv) {
            tv.getVisibleLeafColumns().addListener((ListChangeListener<Object>) ch -> tips.run());
        } else if (t instanceof TreeTableView<?> tt) {
            tt.getVisibleLeafColumns().addListener((ListChangeListener<Object>) ch -> tips.run());
        }
        t.sceneProperty().addListener((o, a, b) -> tips.run());
        tips.run();
    }

    private static void tooltips(Control t) {
        for (Node n : t.lookupAll(".column-header")) {
            if (n instanceof TableColumnHeader h && h.getTableColumn() != null) {
                TableColumnBase<?, ?> c = h.getTableColumn();
                String title = title(c);
                Object meaning = c.getProperties().get(MEANING);
                String tip = meaning == null ? title : (title.isEmpty() ? "" : title + "\n") + meaning;
                if (!tip.isEmpty()) {
                    Tooltip tooltip = new Tooltip(tip);
                    tooltip.setWrapText(true);
                    tooltip.setMaxWidth(420);
                    Tooltip.install(h, tooltip);
                }
            }
        }
    }

    /** Width of {@code text} in the header font (bold 13 px, as base.css sets). */
    static double textWidth(String text) {
        Text probe = new Text(text);
        probe.setFont(Font.font(Font.getDefault().getFamily(), javafx.scene.text.FontWeight.BOLD, 13));
        return probe.getLayoutBounds().getWidth();
    }
}
