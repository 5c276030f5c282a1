package lookout.console.widgets;

import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;

/**
 * A pane's keyboard shortcut (Ctrl+S: Apply on the Configuration pane): it acts only while its
 * pane is the one shown, wherever the focus is inside the window, and is left alone by every
 * other pane — where a scene-wide accelerator opened the Apply dialog from the Pools pane.
 */
public final class PaneKeys {

    private PaneKeys() {
    }

    /** Runs {@code action} on {@code keys} while {@code pane} is shown. */
    public static void on(Node pane, KeyCombination keys, Runnable action) {
        pane.sceneProperty().addListener((o, old, scene) -> {
            if (scene != null) {
                install(scene, pane, keys, action);
            }
        });
        if (pane.getScene() != null) {
            install(pane.getScene(), pane, keys, action);
        }
    }

    private static void install(Scene scene, Node pane, KeyCombination keys, Runnable action) {
        if (Boolean.TRUE.equals(pane.getProperties().get(key(keys)))) {
            return; // once per pane and combination, whatever scene changes
        }
        pane.getProperties().put(key(keys), Boolean.TRUE);
        scene.addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (!e.isConsumed() && keys.match(e) && pane.getScene() == scene && shown(pane)) {
                e.consume();
                action.run();
            }
        });
    }

    private static String key(KeyCombination keys) {
        return "lookout.paneKeys." + keys.getName();
    }

    /** True when {@code n} and every parent are visible: the pane on screen. */
    public static boolean shown(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        return n.getScene() != null;
    }
}
