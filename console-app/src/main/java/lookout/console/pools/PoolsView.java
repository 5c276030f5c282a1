package lookout.console.pools;

import java.io.IOException;
import java.io.UncheckedIOException;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import lookout.console.widgets.IndicatorLabel;

/** Controller of {@code PoolsView.fxml}. */
public final class PoolsView {

    private final PoolsViewModel vm;

    @FXML private Label statusLabel;
    @FXML private Label detailLabel;

    public PoolsView(PoolsViewModel vm) {
        this.vm = vm;
    }

    public static Parent load(PoolsViewModel vm) {
        FXMLLoader loader = new FXMLLoader(PoolsView.class.getResource("PoolsView.fxml"));
        loader.setController(new PoolsView(vm));
        try {
            return loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FXML
    private void initialize() {
        statusLabel.getStyleClass().add("indicator");
        IndicatorLabel.bind(statusLabel, vm.status());
        detailLabel.textProperty().bind(vm.detailProperty());
    }
}
