package lookout.console;

import java.io.PrintStream;
import java.util.List;
import lookout.console.cli.Attach;
import lookout.console.cli.CheckConfig;
import lookout.console.cli.Ctl;
import lookout.console.cli.Headless;
import lookout.console.cli.Invocation;
import lookout.console.cli.OneLineLogging;
import lookout.console.cli.UsageException;
import lookout.console.cli.Version;
import lookout.engine.api.EngineOptions;

/**
 * The {@code lookout} launcher (SPEC §Layout and delivery): no argument opens the console on the
 * embedded default, {@code --config FILE} on a file, {@code --headless} runs the engine alone
 * until SIGTERM, {@code --check-config FILE} validates, {@code --attach URL} opens the console on a
 * running engine ({@code --attach URL URL…} or {@code --fleet FILE}: the fleet view), {@code ctl}
 * controls a running engine. Headless, check-config and ctl never touch the JavaFX toolkit: only
 * {@link #console} and {@link #attach} refer to it.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        int status = run(List.of(args), System.out, System.err);
        if (status >= 0) {
            System.exit(status);
        }
        // The console ran and its window closed: leave like any desktop application.
    }

    /** Runs the launcher; returns the exit status, or -1 when the console ran and closed. */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        Invocation inv;
        try {
            inv = Invocation.parse(args);
        } catch (UsageException e) {
            err.println("lookout: " + e.getMessage());
            err.print(Invocation.USAGE);
            err.flush();
            return Invocation.EXIT_USAGE;
        }
        return switch (inv.mode()) {
            case HELP -> {
                out.print(Invocation.USAGE);
                out.flush();
                yield 0;
            }
            case VERSION -> {
                out.println(Version.line(Main.class));
                out.flush();
                yield 0;
            }
            case CHECK_CONFIG -> CheckConfig.run(inv.config(), System.getenv(), out, err);
            case HEADLESS -> Headless.run(inv, Main.class);
            case CTL -> Ctl.run(inv.ctlArgs(), System.getenv(), out, err);
            case ATTACH, FLEET -> attach(inv, err);
            case CONSOLE -> {
                console(inv);
                yield -1;
            }
        };
    }

    private static void console(Invocation inv) {
        // The same one-line log format as headless, on standard error: standard output carries
        // the "first frame" line that startup benchmarks read.
        OneLineLogging.install(System.err, inv.logLevel());
        // The embedded default binds the default status port: when a service already answers there,
        // the console offers to attach to it instead (it asks; it never decides alone).
        Attach.LocalService service = inv.config() == null ? Attach.probeLocal(System.getenv()) : null;
        LookoutApp.launchConsole(inv.config(), inv.engineOptions(EngineOptions.defaults()), service);
    }

    /** {@code --attach} / {@code --fleet}: checked here, before any window; -1 once the window closed. */
    private static int attach(Invocation inv, PrintStream err) {
        Attach.Plan plan = Attach.plan(inv, System.getenv(), err);
        if (plan.exit() != 0) {
            err.flush();
            return plan.exit();
        }
        OneLineLogging.install(System.err, inv.logLevel());
        if (plan.engine() != null) {
            LookoutApp.launchAttached(plan.engine());
        } else {
            LookoutApp.launchFleet(plan.targets());
        }
        return -1;
    }
}
