package lookout.console.pools;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import java.util.List;

/**
 * One line of the pools tree: a resource, a family, a group or an address (item), with the lines
 * below it. A plain model object (no toolkit): the view mirrors the tree into its own tree items.
 */
public final class PoolRow {

    /** What the line is. */
    public enum Kind { RESOURCE, FAMILY, GROUP, ITEM }

    final Kind kind;
    final String key;
    final StringProperty name = new SimpleStringProperty("");
    final StringProperty target = new SimpleStringProperty("");
    final LongProperty weight = new SimpleLongProperty();
    final LongProperty liveWeight = new SimpleLongProperty();
    final StringProperty monitored = new SimpleStringProperty("");
    final StringProperty forced = new SimpleStringProperty("");
    final StringProperty effective = new SimpleStringProperty("");
    /** Probability in [0, 1]; -1 when the line has none (resource). */
    final DoubleProperty odds = new SimpleDoubleProperty(-1);
    /** Family lines: in failover (live weight below up_weight). */
    final BooleanProperty failover = new SimpleBooleanProperty();
    final StringProperty note = new SimpleStringProperty("");
    /** Probability under the what-if states, -1 when none. */
    final DoubleProperty whatIfOdds = new SimpleDoubleProperty(-1);
    /** Effective state under the what-if states ("" when none). */
    final StringProperty whatIfState = new SimpleStringProperty("");
    /** Family lines: single-answer mode (odds of its items add to 1). */
    final BooleanProperty single = new SimpleBooleanProperty();
    /**
     * What the Odds column draws, as one value that changes whenever anything drawn changes (the
     * line's probability, or a single-mode family's shares): a cell bound to it redraws then.
     */
    final javafx.beans.property.ObjectProperty<Odds> oddsShown = new javafx.beans.property.SimpleObjectProperty<>(Odds.NONE);
    /** The lines below this one, in display order; changed only when membership or order changes. */
    final ObservableList<PoolRow> children = FXCollections.observableArrayList();
    /** Whether the view shows the lines below (resources, families and groups open; items have none). */
    final boolean expandedAtFirst;

    PoolRow(Kind kind, String key) {
        this.kind = kind;
        this.key = key;
        this.expandedAtFirst = kind != Kind.ITEM;
    }

    /**
     * The Odds column's value: {@code probability} in [0, 1] or -1 (none), and for a family in a
     * single-answer mode the shares of its addresses (they add up to 1), in order.
     */
    public record Odds(double probability, List<Share> shares) {
        public static final Odds NONE = new Odds(-1, List.of());

        public Odds {
            shares = List.copyOf(shares);
        }
    }

    /** One address's share of a single-mode family's answers. */
    public record Share(String name, double probability) {
    }

    public javafx.beans.property.ReadOnlyObjectProperty<Odds> oddsShownProperty() {
        return oddsShown;
    }

    /** The lines below this one (read-only for views). */
    public ObservableList<PoolRow> children() {
        return FXCollections.unmodifiableObservableList(children);
    }

    public Kind kind() {
        return kind;
    }

    public String key() {
        return key;
    }

    public String name() {
        return name.get();
    }

    public String target() {
        return target.get();
    }

    public long weight() {
        return weight.get();
    }

    public long liveWeight() {
        return liveWeight.get();
    }

    public String monitored() {
        return monitored.get();
    }

    public String forced() {
        return forced.get();
    }

    public String effective() {
        return effective.get();
    }

    public double odds() {
        return odds.get();
    }

    public boolean failover() {
        return failover.get();
    }

    public double whatIfOdds() {
        return whatIfOdds.get();
    }

    public String whatIfState() {
        return whatIfState.get();
    }

    public String note() {
        return note.get();
    }
}
