package lookout.engine.status.pv;

import java.util.ArrayList;
import java.util.List;
import lookout.engine.pva.pvdata.NormativeTypes.Column;

/**
 * Rows into the column arrays of an NTTable's {@code value} (one array per column, of the column's
 * element type), at most {@link StatusPvCatalog#MAX_ROWS} rows; rows beyond are counted, not kept.
 */
final class TableBuilder {

    /** A table's column arrays, the rows they carry and how many exist (more when over {@code MAX_ROWS}). */
    record Table(Object[] columns, int rows, int total) {
    }

    private final List<Column> columns;
    private final List<Object[]> rows = new ArrayList<>();
    private int total;

    TableBuilder(StatusPvCatalog.TableDef def) {
        this.columns = def.columns();
    }

    void row(Object... cells) {
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + columns.size() + " columns");
        }
        total++;
        if (rows.size() < StatusPvCatalog.MAX_ROWS) {
            rows.add(cells);
        }
    }

    Table build() {
        return build(total);
    }

    /** With {@code total} rows in all (more than were given: a listing already cut). */
    Table build(int totalRows) {
        int n = rows.size();
        Object[] cols = new Object[columns.size()];
        for (int c = 0; c < cols.length; c++) {
            cols[c] = switch (columns.get(c).kind()) {
                case STRING -> {
                    String[] a = new String[n];
                    for (int i = 0; i < n; i++) {
                        Object v = rows.get(i)[c];
                        a[i] = v == null ? "" : v.toString();
                    }
                    yield a;
                }
                case DOUBLE -> {
                    double[] a = new double[n];
                    for (int i = 0; i < n; i++) {
                        a[i] = ((Number) rows.get(i)[c]).doubleValue();
                    }
                    yield a;
                }
                case LONG -> {
                    long[] a = new long[n];
                    for (int i = 0; i < n; i++) {
                        a[i] = ((Number) rows.get(i)[c]).longValue();
                    }
                    yield a;
                }
                case INT -> {
                    int[] a = new int[n];
                    for (int i = 0; i < n; i++) {
                        a[i] = ((Number) rows.get(i)[c]).intValue();
                    }
                    yield a;
                }
                case BOOLEAN -> {
                    boolean[] a = new boolean[n];
                    for (int i = 0; i < n; i++) {
                        a[i] = (Boolean) rows.get(i)[c];
                    }
                    yield a;
                }
                default -> throw new IllegalStateException("no column of " + columns.get(c).kind());
            };
        }
        return new Table(cols, n, Math.max(n, totalRows));
    }
}
