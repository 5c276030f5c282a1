package lookout.console;

import java.nio.file.Path;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/**
 * The JavaFX application. SKELETON: the console work builds the window.
 *
 * <p>Contract with the launcher ({@link Main}): {@link #launchConsole(Path)} opens the console on
 * a configuration file, or on the embedded default when the path is null, and returns when the
 * window closes. Once the first frame is on screen the app prints one line
 * {@code lookout: first frame after N ms} (N from JVM start) to standard output.
 */
public final class LookoutApp extends Application {

    private static volatile Path configPath;

    public static void launchConsole(Path config) {
        configPath = config;
        Application.launch(LookoutApp.class);
    }

    @Override
    public void start(Stage stage) {
        stage.setTitle("Lookout");
        stage.setScene(new Scene(new Label("Lookout " + (configPath == null ? "" : configPath)), 800, 600));
        stage.show();
    }
}
