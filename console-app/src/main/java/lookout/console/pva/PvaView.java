package lookout.console.pva;

import java.io.IOException;
import java.io.UncheckedIOException;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import lookout.console.widgets.IndicatorLabel;

/** Controller of {@code PvaView.fxml}. */
public final class PvaView {

    private final PvaViewModel vm;

    @FXML private Label statusLabel;
    @FXML private Label detailLabel;

    public PvaView(PvaViewModel vm) {
        this.vm = vm;
    }

    public static Parent load(PvaViewModel vm) {
        FXMLLoader loader = new FXMLLoader(PvaView.class.getResource("PvaView.fxml"));
        loader.setController(new PvaView(vm));
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
