package lookout.console.theme;

import java.net.URL;
import java.util.List;
import javafx.scene.Scene;

/**
 * The two looks: a dark one for a control room at night and a light one. Both are neutral grey
 * when all is normal (ISA-101); the abnormal-state styles are shared in {@code base.css}.
 */
public enum Theme {
    DARK("dark.css"), LIGHT("light.css");

    private final String file;

    Theme(String file) {
        this.file = file;
    }

    public Theme other() {
        return this == DARK ? LIGHT : DARK;
    }

    public List<String> stylesheets() {
        return List.of(url("base.css"), url(file));
    }

    public void applyTo(Scene scene) {
        scene.getStylesheets().setAll(stylesheets());
    }

    private static String url(String name) {
        URL u = Theme.class.getResource(name);
        if (u == null) {
            throw new IllegalStateException("missing stylesheet " + name);
        }
        return u.toExternalForm();
    }
}
