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

    /** Runs {@code action} on {@code keys} while {@code pane} is shown (after the focused control had its say). */
    public static void on(Node pane, KeyCombination keys, Runnable action) {
        on(pane, keys, action, false);
    }

    /** {@code first}: before any control or the toolkit's own mnemonics see the key (an event filter). */
    private static void on(Node pane, KeyCombination keys, Runnable action, boolean first) {
        pane.sceneProperty().addListener((o, old, scene) -> {
            if (scene != null) {
                install(scene, pane, keys, action, first);
            }
        });
        if (pane.getScene() != null) {
            install(pane.getScene(), pane, keys, action, first);
        }
    }

    private static void install(Scene scene, Node pane, KeyCombination keys, Runnable action, boolean first) {
        if (Boolean.TRUE.equals(pane.getProperties().get(key(keys)))) {
            return; // once per pane and combination, whatever scene changes
        }
        pane.getProperties().put(key(keys), Boolean.TRUE);
        javafx.event.EventHandler<KeyEvent> h = e -> {
            if (!e.isConsumed() && keys.match(e) && pane.getScene() == scene && shown(pane)) {
                e.consume();
                action.run();
            }
        };
        if (first) {
            scene.addEventFilter(KeyEvent.KEY_PRESSED, h);
        } else {
            scene.addEventHandler(KeyEvent.KEY_PRESSED, h);
        }
    }

    private static String key(KeyCombination keys) {
        return "lookout.paneKeys." + keys.getName();
    }

    /**
     * Alt + the underlined letter of each label of {@code pane} that names a field
     * ({@code _Resolve:} → the name field) moves the focus to that field while the pane is shown.
     * A button's mnemonic already acts on the pane shown only; a label's did nothing, its field
     * not focused (the toolkit fires a label's mnemonic only on a typed key no platform sends with
     * Alt held).
     */
    public static void labelMnemonics(javafx.scene.Parent pane) {
        java.util.List<Node> all = new java.util.ArrayList<>();
        logical(pane, all);
        for (Node n : all) {
            if (n instanceof javafx.scene.control.Label l && l.isMnemonicParsing() && l.getLabelFor() != null) {
                String t = l.getText();
                int u = t == null ? -1 : t.indexOf('_');
                if (u < 0 || u + 1 >= t.length()) {
                    continue;
                }
                javafx.scene.input.KeyCode code = javafx.scene.input.KeyCode.getKeyCode(
                        String.valueOf(Character.toUpperCase(t.charAt(u + 1))));
                if (code == null) {
                    continue;
                }
                Node target = l.getLabelFor();
                on(pane, new javafx.scene.input.KeyCodeCombination(code, javafx.scene.input.KeyCombination.ALT_DOWN), () -> {
                    if (target instanceof javafx.scene.control.ComboBox<?> c && c.isEditable()) {
                        c.getEditor().requestFocus();
                    } else {
                        target.requestFocus();
                    }
                }, true);
            }
        }
    }

    /** Every node under {@code n}, through the containers whose items are children only once skinned. */
    private static void logical(Node n, java.util.List<Node> out) {
        if (n == null) {
            return;
        }
        out.add(n);
        java.util.List<Node> kids = new java.util.ArrayList<>();
        if (n instanceof javafx.scene.control.SplitPane sp) {
            kids.addAll(sp.getItems());
        } else if (n instanceof javafx.scene.control.ToolBar tb) {
            kids.addAll(tb.getItems());
        } else if (n instanceof javafx.scene.control.TitledPane tp) {
            kids.add(tp.getContent());
        } else if (n instanceof javafx.scene.control.ScrollPane sc) {
            kids.add(sc.getContent());
        } else if (n instanceof javafx.scene.control.TabPane tabs) {
            tabs.getTabs().forEach(t -> kids.add(t.getContent()));
        } else if (n instanceof javafx.scene.Parent p && !(n instanceof javafx.scene.control.Control)) {
            kids.addAll(p.getChildrenUnmodifiable());
        }
        for (int i = 0; i < kids.size(); i++) {
            Node k = kids.get(i);
            if (k instanceof javafx.scene.control.Label l && l.isMnemonicParsing() && l.getLabelFor() == null) {
                // FXML resolves labelFor="$field" only for a field defined before the label: the
                // field a label names is the control right after it
                for (Node next : kids.subList(i + 1, kids.size())) {
                    if (next instanceof javafx.scene.control.Control c && !(c instanceof javafx.scene.control.Label)) {
                        l.setLabelFor(c);
                        break;
                    }
                }
            }
            logical(k, out);
        }
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
