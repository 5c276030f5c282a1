package lookout.console.widgets;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * A piece of text with its ISA-101 level: NORMAL is drawn neutral; anything else gets colour,
 * an icon, a text prefix and a border, so it reads without colour.
 */
public final class Indicator {

    /** How abnormal. */
    public enum Level {
        NORMAL, INACTIVE, ADVISORY, ALARM
    }

    private final StringProperty text = new SimpleStringProperty("");
    private final ObjectProperty<Level> level = new SimpleObjectProperty<>(Level.NORMAL);

    public StringProperty textProperty() {
        return text;
    }

    public ObjectProperty<Level> levelProperty() {
        return level;
    }

    public String text() {
        return text.get();
    }

    public Level level() {
        return level.get();
    }

    public void set(String t, Level l) {
        text.set(t);
        level.set(l);
    }
}
