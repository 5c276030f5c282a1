package lookout.console.widgets;

import java.io.IOException;
import java.io.UncheckedIOException;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;

/** Loads a pane's {@code XxxView.fxml} (beside its controller class) with a given controller. */
public final class Fxml {

    private Fxml() {
    }

    /**
     * Loads {@code <controller's simple class name>.fxml} from the controller's package, with
     * {@code controller} as its controller (the package must be opened to javafx.fxml).
     */
    public static Parent load(Object controller) {
        Class<?> type = controller.getClass();
        FXMLLoader loader = new FXMLLoader(type.getResource(type.getSimpleName() + ".fxml"));
        loader.setController(controller);
        try {
            return loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
