package lookout.console.widgets;

import javafx.scene.control.Label;
import javafx.scene.shape.SVGPath;
import lookout.console.widgets.Indicator.Level;

/**
 * Draws an {@link Indicator}: neutral text when NORMAL; otherwise a style class for colour and
 * border plus a shape icon (triangle = advisory, octagon = alarm, hollow circle = inactive), so the
 * state reads in grey scale too (ISA-101).
 */
public final class IndicatorLabel {

    private static final String ADVISORY = "M8 1 L15 14 L1 14 Z M7.2 5 L8.8 5 L8.6 10 L7.4 10 Z M7.2 11.2 L8.8 11.2 L8.8 12.8 L7.2 12.8 Z";
    private static final String ALARM = "M5 1 L11 1 L15 5 L15 11 L11 15 L5 15 L1 11 L1 5 Z M7 4 L9 4 L9 9.5 L7 9.5 Z M7 11 L9 11 L9 13 L7 13 Z";
    private static final String INACTIVE = "M8 2 A6 6 0 1 0 8.01 2 Z M8 4 A4 4 0 1 1 7.99 4 Z";

    private IndicatorLabel() {
    }

    public static Label create(Indicator indicator, String id) {
        Label l = new Label();
        l.setId(id);
        l.getStyleClass().add("indicator");
        bind(l, indicator);
        return l;
    }

    public static void bind(Label l, Indicator indicator) {
        l.textProperty().bind(indicator.textProperty());
        indicator.levelProperty().addListener((o, a, b) -> style(l, b));
        style(l, indicator.level());
    }

    static void style(Label l, Level level) {
        l.getStyleClass().removeAll("level-normal", "level-inactive", "level-advisory", "level-alarm");
        l.getStyleClass().add("level-" + level.name().toLowerCase(java.util.Locale.ROOT));
        String path = switch (level) {
            case NORMAL -> null;
            case INACTIVE -> INACTIVE;
            case ADVISORY -> ADVISORY;
            case ALARM -> ALARM;
        };
        if (path == null) {
            l.setGraphic(null);
        } else {
            SVGPath icon = new SVGPath();
            icon.setContent(path);
            icon.setFillRule(javafx.scene.shape.FillRule.EVEN_ODD);
            icon.getStyleClass().add("indicator-icon");
            l.setGraphic(icon);
        }
    }
}
