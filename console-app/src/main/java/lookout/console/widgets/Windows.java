package lookout.console.widgets;

import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/** Showing a window at its scene's size. */
public final class Windows {

    private Windows() {
    }

    /**
     * Shows {@code stage} at its scene's size. Under some window managers (openbox 3.6) a stage sized
     * only by its scene maps at 200 x 200; once mapped, the size is asked for again.
     */
    public static void show(Stage stage) {
        Scene scene = stage.getScene();
        stage.show();
        if (scene == null) {
            return;
        }
        double w = scene.getWidth();
        double h = scene.getHeight();
        Platform.runLater(() -> {
            if (stage.isShowing()) {
                // the same value again would change nothing: one pixel more, then the size itself
                stage.setWidth(w + 1);
                stage.setHeight(h + 1);
                stage.setWidth(w);
                stage.setHeight(h);
            }
        });
    }
}
