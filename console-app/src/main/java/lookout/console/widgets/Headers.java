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

    /** The header's text as the operator reads it (for copies and details). */
    public static String title(TableColumnBase<?, ?> c) {
        return c.getText() == null ? "" : c.getText();
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
            double word = longestWord(title(c));
            if (word > 0) {
                // a word is never cut; the rest of the header wraps
                c.setMinWidth(Math.max(c.getMinWidth(), Math.ceil(word) + 24));
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

    /** Width of the longest word of {@code text} in the header font (bold 13 px, as base.css sets). */
    static double longestWord(String text) {
        double max = 0;
        Text probe = new Text();
        probe.setFont(Font.font(Font.getDefault().getFamily(), javafx.scene.text.FontWeight.BOLD, 13));
        for (String w : text.split("\\s+")) {
            if (!w.isEmpty()) {
                probe.setText(w);
                max = Math.max(max, probe.getLayoutBounds().getWidth());
            }
        }
        return max;
    }
}
