/** The Lookout operator console and the {@code lookout} launcher (console, headless, check-config). */
module lookout.console {
    requires lookout.engine;
    requires javafx.controls;
    requires javafx.fxml;
    requires org.controlsfx.controls;
    requires java.logging; // the launcher's headless mode logs to stdout through java.util.logging

    exports lookout.console;
}
