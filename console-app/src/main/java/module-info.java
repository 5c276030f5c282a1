/** The Lookout operator console and the {@code lookout} launcher (console, headless, check-config). */
module lookout.console {
    requires lookout.engine;
    requires javafx.controls;
    requires javafx.fxml;
    requires org.controlsfx.controls;

    exports lookout.console;
}
