package lookout.console.resolver;

import java.io.IOException;
import java.io.UncheckedIOException;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import lookout.console.widgets.IndicatorLabel;

/** Controller of {@code ResolverView.fxml}. */
public final class ResolverView {

    private final ResolverViewModel vm;

    @FXML private Label statusLabel;
    @FXML private Label detailLabel;

    public ResolverView(ResolverViewModel vm) {
        this.vm = vm;
    }

    public static Parent load(ResolverViewModel vm) {
        FXMLLoader loader = new FXMLLoader(ResolverView.class.getResource("ResolverView.fxml"));
        loader.setController(new ResolverView(vm));
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
