package lookout.console.widgets;

import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TitledPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;

/**
 * One row, whole: every column as "Header: value" in selectable, wrapped text (nothing cut, all
 * of it copyable), and — where the row's words were put in an operator's terms
 * ({@link PlainWords}) — the raw text behind a collapsed "Details" disclosure. Not modal: it can
 * stay open beside the pane while the operator works.
 */
public final class Details {

    private Details() {
    }

    /** Opens the details of one row; {@code raw} null or empty: no disclosure. */
    public static Dialog<Void> show(Node owner, String title, String text, String raw) {
        Dialog<Void> d = new Dialog<>();
        d.setTitle(title);
        d.setHeaderText(null);
        d.initModality(Modality.NONE);
        if (owner != null && owner.getScene() != null && owner.getScene().getWindow() != null) {
            d.initOwner(owner.getScene().getWindow());
        }
        d.setResizable(true);
        d.getDialogPane().setId("detailsDialog");
        d.getDialogPane().getButtonTypes().add(ButtonType.CLOSE);

        Label heading = new Label(title);
        heading.getStyleClass().add("pane-title");
        heading.setWrapText(true);
        TextArea body = new TextArea(text);
        body.setId("detailsText");
        body.setEditable(false);
        body.setWrapText(true);
        body.setPrefRowCount(Math.min(18, Math.max(4, (int) text.lines().count() + 1)));
        body.setPrefColumnCount(64);
        Button copy = new Button("Copy");
        copy.setId("detailsCopy");
        copy.setOnAction(e -> Rows.toClipboard(text));
        VBox box = new VBox(8, heading, body, new HBox(8, copy));
        VBox.setVgrow(body, Priority.ALWAYS);
        if (raw != null && !raw.isBlank()) {
            TextArea rawText = new TextArea(raw);
            rawText.setId("rawText");
            rawText.setEditable(false);
            rawText.setWrapText(true);
            rawText.setPrefRowCount(Math.min(12, Math.max(3, (int) raw.lines().count() + 1)));
            rawText.getStyleClass().add("config-editor");
            TitledPane disclosure = new TitledPane("Details: the engine's own words", rawText);
            disclosure.setId("rawDetails");
            disclosure.setExpanded(false);
            box.getChildren().add(disclosure);
        }
        box.setPrefWidth(640);
        d.getDialogPane().setContent(box);
        d.show();
        return d;
    }
}
