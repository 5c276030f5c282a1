package lookout.console.widgets;

import javafx.application.Platform;
import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.stage.Screen;
import javafx.stage.Stage;

/**
 * Showing a window at a size an operator can use: the size and place the operator left it at
 * (when that is still on a screen), else sized from the screen it opens on. Under some window
 * managers (openbox 3.6; JDK-8316423) a stage sized only by its scene maps at 200 × 200: the bounds
 * are set on the stage itself before it is shown, and asked for again once it is mapped.
 */
public final class Windows {

    /** Below this a pane's tables and charts do not fit (the screen allowing). */
    public static final double MIN_WIDTH = 1000;
    public static final double MIN_HEIGHT = 740;
    /** The default's ceiling on a large screen. */
    static final double DEFAULT_WIDTH = 1400;
    static final double DEFAULT_HEIGHT = 900;

    private Windows() {
    }

    /** Where a window goes: x, y, width, height, maximised. */
    public record Bounds(double x, double y, double width, double height, boolean maximized) {
    }

    /**
     * The bounds for a window on {@code screen} (its visual bounds): {@code saved} when it is
     * mostly on that screen (clamped to it), else 90 % of the screen's width and 95 % of its height
     * (the window manager's title bar comes out of it), at least 1000 × 740 and at most 1400 × 900,
     * centred. Pure.
     */
    public static Bounds choose(Rectangle2D screen, Bounds saved) {
        if (saved != null && saved.width() >= 200 && saved.height() >= 150) {
            double w = Math.min(saved.width(), screen.getWidth());
            double h = Math.min(saved.height(), screen.getHeight());
            double x = clamp(saved.x(), screen.getMinX(), screen.getMaxX() - w);
            double y = clamp(saved.y(), screen.getMinY(), screen.getMaxY() - h);
            Rectangle2D wanted = new Rectangle2D(saved.x(), saved.y(), saved.width(), saved.height());
            if (wanted.intersects(screen)) {
                return new Bounds(x, y, w, h, saved.maximized());
            }
        }
        double w = Math.min(screen.getWidth(), Math.min(DEFAULT_WIDTH, Math.max(MIN_WIDTH, screen.getWidth() * 0.9)));
        double h = Math.min(screen.getHeight(), Math.min(DEFAULT_HEIGHT, Math.max(MIN_HEIGHT, screen.getHeight() * 0.95)));
        return new Bounds(screen.getMinX() + (screen.getWidth() - w) / 2, screen.getMinY() + (screen.getHeight() - h) / 2,
                w, h, saved != null && saved.maximized());
    }

    private static double clamp(double v, double min, double max) {
        return max < min ? min : Math.max(min, Math.min(max, v));
    }

    /** The visual bounds of the screen {@code saved} is on, else the primary screen's. */
    public static Rectangle2D screenFor(Bounds saved) {
        if (saved != null) {
            for (Screen s : Screen.getScreensForRectangle(saved.x(), saved.y(), Math.max(1, saved.width()),
                    Math.max(1, saved.height()))) {
                return s.getVisualBounds();
            }
        }
        return Screen.getPrimary().getVisualBounds();
    }

    /** Shows {@code stage} at {@code b}; once mapped, asks for them again if the window manager changed them. */
    public static void show(Stage stage, Bounds b) {
        stage.setX(b.x());
        stage.setY(b.y());
        stage.setWidth(b.width());
        stage.setHeight(b.height());
        stage.show();
        Platform.runLater(() -> {
            if (!stage.isShowing()) {
                return;
            }
            if (Math.abs(stage.getWidth() - b.width()) > 1 || Math.abs(stage.getHeight() - b.height()) > 1) {
                // the same value again would change nothing: one pixel more, then the size itself
                stage.setWidth(b.width() + 1);
                stage.setHeight(b.height() + 1);
                stage.setWidth(b.width());
                stage.setHeight(b.height());
                stage.setX(b.x());
                stage.setY(b.y());
            }
            if (b.maximized()) {
                stage.setMaximized(true);
            }
        });
    }

    /** Shows {@code stage} at its scene's size (a small window: the fleet, a dialog's owner). */
    public static void show(Stage stage) {
        Scene scene = stage.getScene();
        if (scene == null) {
            stage.show();
            return;
        }
        Rectangle2D screen = Screen.getPrimary().getVisualBounds();
        double w = Math.min(scene.getWidth(), screen.getWidth());
        double h = Math.min(scene.getHeight(), screen.getHeight());
        show(stage, new Bounds(screen.getMinX() + (screen.getWidth() - w) / 2,
                screen.getMinY() + (screen.getHeight() - h) / 2, w, h, false));
    }
}
