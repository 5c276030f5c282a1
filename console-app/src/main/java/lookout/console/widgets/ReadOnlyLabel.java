package lookout.console.widgets;

import javafx.beans.value.ObservableStringValue;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;

/**
 * The reason a pane's actions are disabled ("read-only: this console's token is a viewer's"),
 * shown beside them: disabled buttons show no tooltip, so the reason is a label of its own, an
 * advisory (icon, border and text, ISA-101), visible only while it applies.
 */
public final class ReadOnlyLabel {

    private ReadOnlyLabel() {
    }

    public static void bind(Label label, ObservableStringValue reason) {
        label.textProperty().bind(reason);
        label.getStyleClass().add("indicator");
        IndicatorLabel.style(label, Indicator.Level.ADVISORY);
        Tooltip tip = new Tooltip();
        tip.textProperty().bind(reason);
        label.setTooltip(tip);
        Runnable show = () -> {
            boolean on = reason.get() != null && !reason.get().isEmpty();
            label.setVisible(on);
            label.setManaged(on);
        };
        reason.addListener((o, a, b) -> show.run());
        show.run();
    }
}
