package lookout.console.widgets;

import javafx.animation.PauseTransition;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.util.Duration;

/**
 * Shows a {@link Note} in a label and clears it {@link #SHOWN} after it was said (the FX clock:
 * display timing only). The label has the whole text as its tooltip, so a long message cut by the
 * layout can still be read.
 */
public final class NoteLabel {

    /** How long an action's message stays: long enough to read twice, short enough not to mislead. */
    public static final Duration SHOWN = Duration.seconds(15);

    private NoteLabel() {
    }

    public static void bind(Label label, Note note) {
        label.textProperty().bind(note.textProperty());
        Tooltip tip = new Tooltip();
        tip.textProperty().bind(note.textProperty());
        tip.setWrapText(true);
        tip.setMaxWidth(600);
        label.setTooltip(tip);
        PauseTransition timer = new PauseTransition(SHOWN);
        note.textProperty().addListener((o, a, b) -> {
            timer.stop();
            if (b != null && !b.isEmpty()) {
                long said = note.serial();
                timer.setOnFinished(e -> note.clearIf(said));
                timer.playFromStart();
            }
        });
    }
}
