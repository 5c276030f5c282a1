package lookout.console.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import lookout.engine.api.Actor;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.EventFold;
import lookout.engine.boot.Engines;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;

/**
 * {@code lookout --headless [--config FILE]}: the engine alone, no JavaFX, until SIGTERM (or
 * SIGINT), logging to standard output one record a line (journald takes it as it is); exit status
 * 0 after an orderly stop, 1 when the configuration is invalid, configures no service, or the
 * engine cannot start (a port already taken, say). SIGHUP reloads the configuration file live
 * through the same path as the control API's apply ({@link Engine#reloadFile}, audited as
 * {@code signal}): an invalid file is logged problem by problem (FILE:LINE:COLUMN) and changes
 * nothing; a file that would remove every service (empty, truncated) is refused; a valid one is
 * applied and its changes logged.
 *
 * <p>Engine events are logged too (logger {@code lookout.events}), at WARNING for the abnormal
 * ones, so the log reads like the console's Events pane; failures that repeat are folded per
 * subject ({@link EventFold}): one WARNING, a summary at most once a minute, one recovery line.
 */
public final class Headless {

    private static final Logger LOG = Logger.getLogger("lookout.headless");
    private static final Logger EVENTS = Logger.getLogger("lookout.events");
    /** The event log's fold: one per process, like the log it writes. */
    private static final EventFold FOLD = new EventFold(Headless::foldedLine);

    private final Engine engine;
    private final Path config;
    private final ConfigLoader loader;

    private Headless(Engine engine, Path config, ConfigLoader loader) {
        this.engine = engine;
        this.config = config;
        this.loader = loader;
    }

    public Engine engine() {
        return engine;
    }

    /** Stops the engine; idempotent. */
    public void stop() {
        engine.stop();
    }

    /**
     * Loads {@code config} (null = the embedded default) and starts an engine on it. Returns null
     * after printing each problem to {@code err} when the configuration is invalid; throws when
     * the engine cannot start.
     */
    public static Headless start(Path config, EngineOptions options, PrintStream err) {
        ConfigLoader loader = new ConfigLoader(options.environment());
        ConfigResult r = config == null ? loader.embeddedDefault() : loader.load(config);
        if (!r.ok()) {
            for (ConfigProblem p : r.problems()) {
                err.println(p);
            }
            err.flush();
            LOG.severe("configuration " + (config == null ? ConfigLoader.EMBEDDED_NAME : config) + " is invalid ("
                    + r.problems().size() + (r.problems().size() == 1 ? " problem" : " problems") + ")");
            return null;
        }
        Config c = r.config();
        if (loader.servesNothing(c)) {
            String name = config == null ? ConfigLoader.EMBEDDED_NAME : config.toString();
            err.println(name + ":1:1: " + ConfigLoader.servesNothingMessage());
            err.flush();
            LOG.severe("configuration " + name + " configures no service: not started");
            return null;
        }
        String systemd = options.environment().get("STATE_DIRECTORY");
        if (systemd != null && !systemd.isBlank() && options.stateDirOverride() == null
                && !Path.of(systemd.split(":")[0]).toAbsolutePath().normalize().equals(c.stateDir())) {
            LOG.warning("systemd gives this service the state directory " + systemd.split(":")[0]
                    + " (StateDirectory=) but state_dir is " + c.stateDir() + ": set state_dir => "
                    + systemd.split(":")[0] + " in " + c.source().name());
        }
        Engine engine = Engines.create(options);
        engine.subscribe(Headless::logEvent);
        try {
            engine.start(c);
        } catch (RuntimeException e) {
            engine.stop();
            throw e;
        }
        LOG.info("engine running on " + c.source().name() + " (version " + engine.snapshot().config().version()
                + ", sha256 " + c.source().shortHash() + ", state in " + c.stateDir() + ")");
        return new Headless(engine, config, loader);
    }

    /**
     * Reloads the configuration file (SIGHUP): parsed and validated, then applied live, or
     * refused with every problem logged and the running configuration kept. The engine's own
     * apply path ({@link Engine#reloadFile}): audited as {@code signal}, a text that would remove
     * every service refused. Returns the outcome, or null when there is no file (the embedded
     * default). Blocking; not on the engine loop.
     */
    public ApplyOutcome reload() {
        if (config == null) {
            LOG.warning("reload asked for, but the engine runs on the embedded default: no file to read");
            return null;
        }
        ApplyOutcome result = engine.actingAs(Actor.SIGNAL).reloadFile(ApplyRequest.plain());
        if (result.applied()) {
            LOG.info("configuration " + config + " reloaded: version " + result.version() + ", "
                    + (result.diff().isEmpty() ? "nothing changed" : result.diff().changes().size() + " change(s)"));
            for (var c : result.diff().changes()) {
                LOG.info("  " + c);
            }
        } else if (!result.problems().isEmpty()) {
            LOG.warning("configuration " + config + " rejected (" + result.problems().size()
                    + (result.problems().size() == 1 ? " problem" : " problems") + "): the running configuration stays");
            for (ConfigProblem p : result.problems()) {
                LOG.warning("  " + p);
            }
        } else {
            LOG.warning("configuration " + config + " not reloaded: " + result.message()
                    + " (the running configuration stays version " + result.version() + ")");
        }
        return result;
    }

    /**
     * SIGHUP → {@link #reload}, on a thread of its own so that the JVM's signal thread never waits
     * for the engine. Where the platform has no SIGHUP (Windows), nothing is installed.
     */
    void reloadOnHangup() {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("HUP"), sig -> {
                Thread t = new Thread(() -> {
                    try {
                        reload();
                    } catch (RuntimeException e) {
                        LOG.log(Level.SEVERE, "reload failed: " + e.getMessage(), e);
                    }
                }, "lookout-reload");
                t.setDaemon(true);
                t.start();
            });
        } catch (IllegalArgumentException e) {
            LOG.fine("no SIGHUP here: reload by signal unavailable (" + e.getMessage() + ")");
        }
    }

    /**
     * {@link #start}, and when the engine cannot start (a port already taken, say), one clear line
     * — the cause in plain words — and nothing after it: the stack trace only at the debug level
     * ({@code --log-level debug}), where a developer asks for it. Null when nothing runs.
     */
    static Headless startOrSay(Path config, EngineOptions options, PrintStream err) {
        try {
            return start(config, options, err);
        } catch (RuntimeException e) {
            LOG.severe(startFailure(e));
            LOG.log(Level.FINE, "the start failure in detail", e);
            return null;
        }
    }

    /** "engine failed to start: cannot bind UDP 127.0.0.1:8053 (the port is already in use by another program)". */
    static String startFailure(RuntimeException e) {
        StringBuilder raw = new StringBuilder(e.getMessage() == null ? e.toString() : e.getMessage());
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() != null && !raw.toString().contains(c.getMessage())) {
                raw.append(": ").append(c.getMessage());
            }
        }
        return "engine failed to start: " + lookout.console.widgets.PlainWords.of(raw.toString());
    }

    /** The launcher's entry: never returns normally while the engine runs; the shutdown hook exits 0. */
    public static int run(Invocation inv, Class<?> anchor) {
        OneLineLogging.install(System.out, inv.logLevel());
        LOG.info(Version.line(anchor) + ", headless, pid " + ProcessHandle.current().pid());
        Headless h = startOrSay(inv.config(), inv.engineOptions(EngineOptions.defaults()), System.err);
        if (h == null) {
            return 1;
        }
        h.reloadOnHangup();
        CountDownLatch forever = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // java.util.logging resets its handlers in its own shutdown hook, concurrently with
            // this one, so these lines bypass it and go straight to standard output, after
            // what is already queued.
            OneLineLogging.drain(Duration.ofSeconds(2));
            direct(System.out, Level.INFO, "signal received: stopping the engine");
            try {
                h.stop();
                OneLineLogging.drain(Duration.ofSeconds(2));
                direct(System.out, Level.INFO, "engine stopped");
            } catch (RuntimeException e) {
                direct(System.out, Level.WARNING, "engine did not stop cleanly: " + e);
            }
            System.out.flush();
            // A JVM ending on SIGTERM exits 143; an orderly stop on SIGTERM is a success here
            // (SPEC: exits 0 on SIGTERM), which only halt() from a hook can report.
            Runtime.getRuntime().halt(0);
        }, "lookout-shutdown"));
        try {
            forever.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static void direct(PrintStream out, Level level, String message) {
        LogRecord r = new LogRecord(level, message);
        r.setLoggerName(LOG.getName());
        synchronized (out) {
            out.print(new OneLineLogging.OneLineFormatter().format(r));
            out.flush();
        }
    }

    static void logEvent(EngineEvent e) {
        if (!FOLD.offer(e)) {
            EVENTS.log(level(e), () -> describe(e));
        }
    }

    /** A line of the fold, at its java.util.logging level. */
    private static void foldedLine(System.Logger.Level level, String message) {
        Level l = switch (level) {
            case ERROR -> Level.SEVERE;
            case WARNING -> Level.WARNING;
            case INFO -> Level.INFO;
            default -> Level.FINE;
        };
        EVENTS.log(l, message);
    }

    static Level level(EngineEvent e) {
        if (e instanceof EngineEvent.Notice n) {
            return switch (n.severity()) {
                case ERROR -> Level.SEVERE;
                case WARNING -> Level.WARNING;
                case NOTICE, INFO -> Level.INFO;
            };
        }
        if (e instanceof EngineEvent.AuditRecorded a) {
            // a refused write is worth a look; an accepted one is a note in the log
            return a.severity() == lookout.engine.api.Severity.WARNING ? Level.WARNING : Level.INFO;
        }
        if (e instanceof EngineEvent.ConfigRejected || e instanceof EngineEvent.UpstreamDemoted
                || e instanceof EngineEvent.PvaServerLost || e instanceof EngineEvent.DuplicatePvClaim
                || (e instanceof EngineEvent.PoolFailover f && f.inFailover())
                || (e instanceof EngineEvent.MonitorStateChanged m && "DOWN".equalsIgnoreCase(m.to()))) {
            return Level.WARNING;
        }
        return Level.INFO;
    }

    /** {@code UpstreamDemoted address=192.0.2.53 reason=timeout ...}: the record without its time. */
    static String describe(EngineEvent e) {
        if (e instanceof EngineEvent.Notice n) {
            return n.subsystem().name().toLowerCase(java.util.Locale.ROOT) + ": " + n.message();
        }
        StringBuilder b = new StringBuilder(e.getClass().getSimpleName());
        for (var c : e.getClass().getRecordComponents()) {
            if (c.getName().equals("at")) {
                continue;
            }
            Object v;
            try {
                v = c.getAccessor().invoke(e);
            } catch (ReflectiveOperationException ex) {
                v = "?";
            }
            b.append(' ').append(c.getName()).append('=').append(v);
        }
        return b.toString();
    }
}
