package lookout.console.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lookout.console.remote.ControlClient;
import lookout.console.remote.ControlException;
import lookout.console.remote.EngineIdentity;
import lookout.console.remote.EngineUrl;
import lookout.console.remote.FleetFile;
import lookout.console.remote.RemoteEngine;
import lookout.console.remote.SystemTimer;
import lookout.console.remote.Token;

/**
 * The launcher's side of {@code --attach} and {@code --fleet}, before any window: which engines,
 * with which token, and whether the one engine of {@code --attach URL} is there and is a Lookout
 * engine (if not, the launcher says so and exits 1 without opening a window). No JavaFX here.
 */
public final class Attach {

    /** How long the no-argument launcher waits for a local service to answer before it starts its own engine. */
    static final Duration PROBE_TIMEOUT = Duration.ofMillis(400);

    private Attach() {
    }

    /** One engine to watch: where, with which token (null: none). */
    public record Target(EngineUrl url, Token token) {
        /** A client for it (throws {@link ControlException} INSECURE for a token over plain HTTP beyond loopback). */
        public ControlClient client() {
            return new ControlClient(url, token);
        }
    }

    /** The outcome of the launcher's checks: targets to open, or an exit status with its reason printed. */
    public record Plan(List<Target> targets, RemoteEngine engine, int exit) {
    }

    /**
     * Reads the URLs (and the fleet file) and the token; for {@link Invocation.Mode#ATTACH} connects
     * to the engine. Prints what is wrong on {@code err}: a bad URL is a usage error (2), an
     * unreadable token, an engine that cannot be reached or is not Lookout a failure (1).
     */
    public static Plan plan(Invocation inv, Map<String, String> env, PrintStream err) {
        List<EngineUrl> urls = new ArrayList<>();
        if (inv.fleet() != null) {
            try {
                urls.addAll(FleetFile.read(inv.fleet()));
            } catch (FleetFile.FleetException e) {
                err.println("lookout: " + e.getMessage());
                return new Plan(List.of(), null, 1);
            }
        }
        for (String u : inv.attach()) {
            try {
                EngineUrl url = EngineUrl.parse(u);
                if (urls.stream().noneMatch(o -> o.base().equals(url.base()))) {
                    urls.add(url);
                }
            } catch (EngineUrl.BadUrl e) {
                err.println("lookout: " + e.getMessage());
                err.print(Invocation.USAGE);
                return new Plan(List.of(), null, Invocation.EXIT_USAGE);
            }
        }
        Token explicit = null;
        if (inv.tokenFile() != null) {
            try {
                explicit = Token.read(inv.tokenFile());
            } catch (Token.TokenException e) {
                err.println("lookout: " + e.getMessage());
                return new Plan(List.of(), null, 1);
            }
        }
        Token local = null;
        List<Target> targets = new ArrayList<>();
        for (EngineUrl u : urls) {
            Token t = explicit;
            if (t == null && u.loopback()) {
                // the local engine's default token, never offered to another host
                local = local != null ? local : Token.readDefault(env);
                t = local;
            }
            if (t != null && !u.https() && !u.loopback()) {
                err.println("lookout: not sending the " + t + " to " + u.host() + " over plain HTTP: use https:// for "
                        + u + " (an engine listening beyond loopback serves TLS)");
                return new Plan(List.of(), null, 1);
            }
            targets.add(new Target(u, t));
        }
        if (inv.mode() != Invocation.Mode.ATTACH) {
            return new Plan(targets, null, 0);
        }
        Target t = targets.get(0);
        try {
            ControlClient client = t.client();
            EngineIdentity id = client.identity();
            return new Plan(targets, new RemoteEngine(client, id, new SystemTimer("lookout-remote")), 0);
        } catch (ControlException e) {
            err.println("lookout: " + e.getMessage());
            return new Plan(List.of(), null, 1);
        }
    }

    /** A Lookout service already running on the default status port: how to attach to it. */
    public record LocalService(ControlClient client, EngineIdentity identity) {
        public RemoteEngine attach() {
            return new RemoteEngine(client, identity, new SystemTimer("lookout-remote"));
        }
    }

    /**
     * The no-argument launcher's question: does {@value EngineUrl#DEFAULT} answer as a Lookout
     * engine? Waits {@link #PROBE_TIMEOUT} at most (nothing listening is refused at once); null when
     * not.
     */
    public static LocalService probeLocal(Map<String, String> env) {
        return probe(EngineUrl.defaultEngine(), env);
    }

    /** {@link #probeLocal} at {@code url} (a loopback one: the default token goes with it). */
    public static LocalService probe(EngineUrl url, Map<String, String> env) {
        try {
            ControlClient c = new ControlClient(url, url.loopback() ? Token.readDefault(env) : null);
            EngineIdentity id = ControlClient.join(c.identityAsync(PROBE_TIMEOUT));
            return new LocalService(c, id);
        } catch (ControlException e) {
            return null;
        }
    }

    /** For the fleet's drill-down: an engine of the fleet as a full console's engine (blocks for one request). */
    public static RemoteEngine connect(Target t) {
        ControlClient client = t.client();
        return new RemoteEngine(client, client.identity(), new SystemTimer("lookout-remote"));
    }

}
