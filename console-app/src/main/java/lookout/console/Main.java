package lookout.console;

/**
 * The {@code lookout} launcher. SKELETON: the launcher work fills in {@code --config},
 * {@code --headless} and {@code --check-config}.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        LookoutApp.launchConsole(null);
    }
}
