/** The Lookout operator console and the {@code lookout} launcher (console, headless, check-config). */
module lookout.console {
    requires lookout.engine;
    requires javafx.controls;
    requires javafx.fxml;
    requires org.controlsfx.controls;
    requires java.management;
    requires java.net.http; // the control API client: lookout ctl, --attach, the fleet view
    requires java.logging; // the launcher's headless mode logs to stdout through java.util.logging
    requires jdk.unsupported; // sun.misc.Signal: SIGHUP reloads the configuration in headless mode

    exports lookout.console;

    // STYLE (JabRef MVVM): one package per pane, each opened to FXML for its controller only.
    opens lookout.console.main to javafx.fxml;
    opens lookout.console.configpane to javafx.fxml;
    opens lookout.console.events to javafx.fxml;
    opens lookout.console.resolver to javafx.fxml;
    opens lookout.console.pools to javafx.fxml;
    opens lookout.console.pva to javafx.fxml;
    opens lookout.console.fleet to javafx.fxml;
}
