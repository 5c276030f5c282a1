package lookout.console;

import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/** The JavaFX application. SKELETON: the console work builds the window. */
public final class LookoutApp extends Application {

    @Override
    public void start(Stage stage) {
        stage.setTitle("Lookout");
        stage.setScene(new Scene(new Label("Lookout"), 800, 600));
        stage.show();
    }
}
