package lookout.console.widgets;

import java.util.Objects;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.Property;

/** Sets a property only when the value really changed, so unchanged cells do not redraw each tick. */
public final class Props {

    private Props() {
    }

    public static <T> void set(Property<T> p, T value) {
        if (!Objects.equals(p.getValue(), value)) {
            p.setValue(value);
        }
    }

    public static <T> void set(ObjectProperty<T> p, T value) {
        if (!Objects.equals(p.get(), value)) {
            p.set(value);
        }
    }
}
