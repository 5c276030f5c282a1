package lookout.console.fleet;

import java.io.InputStream;
import java.util.List;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.image.Image;
import javafx.stage.Stage;
import lookout.console.cli.Attach;
import lookout.console.gateway.FleetGateway;
import lookout.console.remote.RemoteEngine;
import lookout.console.theme.Theme;

/**
 * The fleet view's window ({@code lookout --attach URL URL…}, {@code --fleet FILE}): the gateway
 * to every engine, the view model, the table. Drill-down hands an engine to {@code open} (the app
 * opens a full console on it in a window of its own).
 *
 * <p>Concurrency: construct and call on the FX thread.
 */
public final class FleetWindow implements AutoCloseable {

    private final FleetGateway gateway;
    private final FleetViewModel vm;
    private final Scene scene;
    private final Consumer<RemoteEngine> open;
    private final FleetView[] view = new FleetView[1];

    public FleetWindow(List<Attach.Target> targets, Consumer<RemoteEngine> open) {
        this(new FleetGateway(targets.stream().map(t -> new FleetGateway.Member(t.url(), t.token())).toList(),
                Platform::runLater), open);
    }

    public FleetWindow(FleetGateway gateway, Consumer<RemoteEngine> open) {
        this.gateway = gateway;
        this.open = open;
        this.vm = new FleetViewModel(gateway.members().stream().map(m -> m.url().base()).toList());
        FleetView v = new FleetView(vm, this::drillDown);
        view[0] = v;
        Parent root = lookout.console.widgets.Fxml.load(v);
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        scene = new Scene(root, Math.min(1400, screen.getWidth()), Math.min(520, screen.getHeight()));
        Theme.DARK.applyTo(scene);
        gateway.onSample(vm::onSample);
    }

    private void drillDown(int i) {
        RemoteEngine e = gateway.engineFor(i);
        if (e == null) {
            view[0].message(vm.rows().get(i).name() + " has not answered yet: no console to open.");
            return;
        }
        view[0].message("");
        open.accept(e);
    }

    public void show(Stage stage) {
        stage.setTitle("Lookout fleet — " + vm.rows().size() + " engine" + (vm.rows().size() == 1 ? "" : "s"));
        for (int size : new int[] {16, 32, 48, 64, 128, 256}) {
            try (InputStream in = lookout.console.ConsoleWindow.class.getResourceAsStream("icons/lookout-" + size + ".png")) {
                if (in != null) {
                    stage.getIcons().add(new Image(in));
                }
            } catch (java.io.IOException e) {
                // cosmetic
            }
        }
        stage.setScene(scene);
        gateway.open();
        lookout.console.widgets.Windows.show(stage);
    }

    public Scene scene() {
        return scene;
    }

    public FleetViewModel viewModel() {
        return vm;
    }

    @Override
    public void close() {
        gateway.close();
    }
}
