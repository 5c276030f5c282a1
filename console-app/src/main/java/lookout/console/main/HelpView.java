package lookout.console.main;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import javafx.scene.Scene;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.TextArea;
import javafx.stage.Modality;

/** The in-app help (F1, the Help button): what each pane shows, the colours, every key. Not modal. */
public final class HelpView {

    private HelpView() {
    }

    public static Dialog<Void> show(Scene owner) {
        Dialog<Void> d = new Dialog<>();
        d.initModality(Modality.NONE);
        if (owner != null && owner.getWindow() != null) {
            d.initOwner(owner.getWindow());
        }
        d.setTitle("Lookout — help");
        d.setResizable(true);
        d.getDialogPane().setId("helpDialog");
        TextArea text = new TextArea(text());
        text.setId("helpText");
        text.setEditable(false);
        text.setWrapText(false);
        text.getStyleClass().add("config-editor");
        text.setPrefColumnCount(100);
        text.setPrefRowCount(34);
        d.getDialogPane().setContent(text);
        d.getDialogPane().getButtonTypes().add(ButtonType.CLOSE);
        d.show();
        return d;
    }

    static String text() {
        try (InputStream in = HelpView.class.getResourceAsStream("help.txt")) {
            return in == null ? "Help is missing from this build." : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "Help could not be read: " + e.getMessage();
        }
    }
}
