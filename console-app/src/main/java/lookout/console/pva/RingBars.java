package lookout.console.pva;

import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * The search ring as 30 bars (channels per bucket), the cursor's bucket outlined and marked with
 * a caret under it, so it reads without colour. Heights follow the view model's properties.
 */
final class RingBars extends HBox {

    static final double HEIGHT = 90;

    private final List<StackPane> slots = new ArrayList<>();

    RingBars(PvaViewModel vm) {
        setSpacing(3);
        setAlignment(Pos.BOTTOM_LEFT);
        getStyleClass().add("ring");
        for (int i = 0; i < PvaViewModel.RING_BUCKETS; i++) {
            int bucket = i;
            Region bar = new Region();
            bar.getStyleClass().add("ring-bar");
            bar.setId("ringBar" + i);
            bar.setMinWidth(10);
            bar.setPrefWidth(18);
            bar.setMaxHeight(Region.USE_PREF_SIZE);
            bar.prefHeightProperty().bind(javafx.beans.binding.Bindings.createDoubleBinding(
                    () -> vm.bucketMaxProperty().get() == 0 ? 0
                            : HEIGHT * vm.buckets().get(bucket).get() / vm.bucketMaxProperty().get(),
                    vm.buckets().get(bucket), vm.bucketMaxProperty()));
            StackPane slot = new StackPane(bar);
            slot.setAlignment(Pos.BOTTOM_CENTER);
            slot.setMinHeight(HEIGHT);
            slot.setPrefHeight(HEIGHT);
            slot.getStyleClass().add("ring-slot");
            slots.add(slot);
            Label count = new Label();
            count.getStyleClass().add("ring-count");
            count.textProperty().bind(vm.buckets().get(bucket).asString());
            Label mark = new Label();
            mark.getStyleClass().add("ring-mark");
            mark.textProperty().bind(javafx.beans.binding.Bindings.when(vm.cursorProperty().isEqualTo(bucket))
                    .then("▲").otherwise(""));
            VBox column = new VBox(2, slot, count, mark);
            column.setAlignment(Pos.BOTTOM_CENTER);
            HBox.setHgrow(column, Priority.ALWAYS);
            getChildren().add(column);
        }
        vm.cursorProperty().addListener((o, a, b) -> markCursor(b.intValue()));
        markCursor(vm.cursorProperty().get());
    }

    private void markCursor(int cursor) {
        for (int i = 0; i < slots.size(); i++) {
            slots.get(i).getStyleClass().remove("ring-cursor");
            if (i == cursor) {
                slots.get(i).getStyleClass().add("ring-cursor");
            }
        }
    }
}
