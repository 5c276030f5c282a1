package lookout.console.widgets;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import javafx.geometry.Rectangle2D;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Screen;
import javafx.stage.Window;

/**
 * Draws a {@link Why}: the facts as selectable text, the diagnosis as an indicator (colour, icon,
 * border and words when abnormal), what to check, and Copy and Refresh. Not modal: it can stay
 * open beside the pane, and Refresh asks again (the state it explains moves on).
 */
public final class WhyPanel {

    private WhyPanel() {
    }

    /**
     * Makes the dialog as tall as its content now wants, within the screen it is on, when the
     * answer came in longer than what it was opened with ("Asking the engine…"); never shrinks
     * it, so a panel the operator enlarged stays as they made it.
     */
    private static void growToFit(Dialog<Void> d) {
        DialogPane pane = d.getDialogPane();
        if (pane.getScene() == null || pane.getScene().getWindow() == null || !d.isShowing()) {
            return;
        }
        pane.applyCss();
        pane.layout();
        double extra = pane.prefHeight(pane.getWidth()) - pane.getHeight();
        if (extra <= 0) {
            return;
        }
        Window w = pane.getScene().getWindow();
        List<Screen> screens = Screen.getScreensForRectangle(w.getX(), w.getY(), Math.max(1, w.getWidth()),
                Math.max(1, w.getHeight()));
        Rectangle2D bounds = (screens.isEmpty() ? Screen.getPrimary() : screens.get(0)).getVisualBounds();
        double height = Math.min(w.getHeight() + extra, bounds.getHeight());
        w.setHeight(height);
        if (w.getY() + height > bounds.getMaxY()) {
            w.setY(Math.max(bounds.getMinY(), bounds.getMaxY() - height));
        }
    }

    /** Shows {@code why} once (no refresh). */
    public static Dialog<Void> show(Node owner, Why why) {
        return show(owner, () -> CompletableFuture.completedFuture(why));
    }

    /** Shows the answer {@code ask} gives, asked again on Refresh; completes on the FX thread. */
    public static Dialog<Void> show(Node owner, Supplier<CompletableFuture<Why>> ask) {
        Dialog<Void> d = new Dialog<>();
        d.initModality(Modality.NONE);
        if (owner != null && owner.getScene() != null && owner.getScene().getWindow() != null) {
            d.initOwner(owner.getScene().getWindow());
        }
        d.setResizable(true);
        d.setTitle("Why?");
        d.setHeaderText(null);
        d.getDialogPane().setId("whyPanel");
        d.getDialogPane().getButtonTypes().add(ButtonType.CLOSE);

        Label title = new Label("Asking the engine…");
        title.setId("whyTitle");
        title.getStyleClass().add("pane-title");
        title.setWrapText(true);
        // a wrapped label keeps every line it needs: the facts (which scroll) give up the room
        title.setMinHeight(Region.USE_PREF_SIZE);
        TextArea facts = new TextArea();
        facts.setId("whyFacts");
        facts.setEditable(false);
        facts.setWrapText(true);
        facts.setPrefRowCount(12);
        facts.setPrefColumnCount(70);
        Label diagnosis = new Label();
        diagnosis.setId("whyDiagnosis");
        diagnosis.getStyleClass().add("indicator");
        diagnosis.setWrapText(true);
        diagnosis.setMaxWidth(Double.MAX_VALUE);
        diagnosis.setMinHeight(Region.USE_PREF_SIZE);
        Indicator level = new Indicator();
        IndicatorLabel.bind(diagnosis, level);
        Label checks = new Label();
        checks.setId("whyChecks");
        checks.setWrapText(true);
        checks.setMinHeight(Region.USE_PREF_SIZE);
        Button copy = new Button("Copy");
        copy.setId("whyCopy");
        Button refresh = new Button("Refresh");
        refresh.setId("whyRefresh");
        Why[] shown = new Why[1];
        copy.setOnAction(e -> {
            if (shown[0] != null) {
                Rows.toClipboard(shown[0].text());
            }
        });
        Runnable load = () -> {
            refresh.setDisable(true);
            ask.get().whenComplete((w, err) -> {
                refresh.setDisable(false);
                if (err != null) {
                    Throwable c = err.getCause() != null ? err.getCause() : err;
                    level.set("Could not ask the engine: " + PlainWords.of(String.valueOf(c.getMessage())),
                            Indicator.Level.ALARM);
                    return;
                }
                shown[0] = w;
                title.setText(w.title());
                StringBuilder sb = new StringBuilder();
                for (Why.Fact f : w.facts()) {
                    sb.append(f.label()).append(": ").append(f.value()).append('\n');
                }
                facts.setText(sb.toString().strip());
                level.set(w.diagnosis(), w.level());
                checks.setText(w.checks().isEmpty() ? "" : "What to check:\n• " + String.join("\n• ", w.checks()));
                checks.setVisible(!w.checks().isEmpty());
                checks.setManaged(!w.checks().isEmpty());
                growToFit(d);
            });
        };
        refresh.setOnAction(e -> load.run());
        Label factsLabel = new Label("What the engine knows");
        VBox box = new VBox(8, title, factsLabel, facts, new Label("Diagnosis"), diagnosis, checks, new HBox(8, copy, refresh));
        VBox.setVgrow(facts, Priority.ALWAYS);
        box.setPrefWidth(720);
        d.getDialogPane().setContent(box);
        load.run();
        d.show();
        return d;
    }
}
