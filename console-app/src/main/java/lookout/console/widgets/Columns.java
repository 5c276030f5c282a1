package lookout.console.widgets;

import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.text.Text;
import javafx.util.Callback;

/**
 * Columns whose cells are never drawn cut: a cell whose text is wider than its column widens the
 * column to fit (in a table that scrolls sideways, so nothing else is squeezed), once per width —
 * a column the operator narrows afterwards stays as narrow until a longer text comes. For tables
 * whose texts come from the engine and have no useful bound (a status PV's alarm rule).
 */
public final class Columns {

    /** Column property: the widest content this column was widened for. */
    private static final String FITTED = "lookout.columns.fitted";
    /** No column is widened beyond this (a runaway text scrolls rather than makes a wall). */
    static final double MAX_WIDTH = 1600;

    private Columns() {
    }

    /** A plain text cell that widens its column to fit its text. */
    public static <R, T> Callback<TableColumn<R, T>, TableCell<R, T>> fitting() {
        return c -> new TableCell<>() {
            @Override
            protected void updateItem(T v, boolean empty) {
                super.updateItem(v, empty);
                String s = empty || v == null ? null : v.toString();
                setText(s);
                if (s != null && !s.isEmpty()) {
                    fit(this, textWidth(this, s));
                }
            }
        };
    }

    /**
     * Widens {@code cell}'s column so that content {@code contentWidth} wide (the cell's padding
     * not included) fits; does nothing when it fits or the column was widened for as much before.
     */
    public static void fit(TableCell<?, ?> cell, double contentWidth) {
        TableColumn<?, ?> c = cell.getTableColumn();
        if (c == null) {
            return;
        }
        double need = Math.ceil(contentWidth + cell.snappedLeftInset() + cell.snappedRightInset()) + 8;
        Object fitted = c.getProperties().get(FITTED);
        if (need <= c.getWidth() || fitted instanceof Double d && d >= need) {
            return;
        }
        c.getProperties().put(FITTED, need);
        c.setPrefWidth(Math.min(MAX_WIDTH, Math.max(c.getPrefWidth(), need)));
    }

    /** The width of {@code s} in {@code cell}'s font. */
    static double textWidth(TableCell<?, ?> cell, String s) {
        Text probe = new Text(s);
        probe.setFont(cell.getFont());
        return probe.getLayoutBounds().getWidth();
    }
}
