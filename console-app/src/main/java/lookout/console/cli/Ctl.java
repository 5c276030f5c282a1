package lookout.console.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import lookout.console.remote.ApplyResult;
import lookout.console.remote.ControlClient;
import lookout.console.remote.ControlException;
import lookout.console.remote.EngineIdentity;
import lookout.console.remote.EngineUrl;
import lookout.console.remote.EventStream;
import lookout.console.remote.Json;
import lookout.console.remote.JsonRecords;
import lookout.console.remote.RemoteEngine;
import lookout.console.remote.SystemTimer;
import lookout.console.remote.Token;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.ResolverSnapshot;

/**
 * {@code lookout ctl}: the control command of a running engine (docs/design/control.md), as
 * unbound-control and gdnsdctl are for theirs. Output for people by default (aligned columns, UTC
 * times), {@code --json} for scripts; exit 0 on success, 1 when the engine refused or the request
 * failed (the reason on standard error), 2 for a command line that makes no sense (the reason and
 * the usage on standard error).
 *
 * <p>No JavaFX, no engine of its own: only HTTP to the engine's control API.
 */
public final class Ctl {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILED = 1;

    public static final String USAGE = """
            Usage: lookout ctl [--engine URL] [--token-file FILE] [--json] COMMAND

            Commands:
              status                   the engine, its configuration and each service in brief
              diff FILE                what FILE would change against the running configuration (nothing applied)
              apply FILE [--force] [--confirm-empty]
                                       show the diff, then apply FILE; the engine saves it as its configuration
                                       --force: even when the engine's file was edited by hand since it was loaded
                                       --confirm-empty: even when FILE would remove every service
              force KEY UP|DOWN [TTL]  force a pool address (ADDRESS/* or ADDRESS/SERVICE_TYPE, globs allowed) or
                                       a whole resource (weighted!NAME); TTL as 90, 90s, 5m or 2h (default: until
                                       released)
              release KEY              release a forced state
              search PV                start searching a PV name
              stop PV                  stop searching a PV name
              ping                     send a PVA discovery ping to every search destination
              resolve NAME [TYPE]      resolve through the engine's resolver (TYPE A by default), with the trace
              events [--follow]        the engine's recent events; --follow: then each new one, until interrupted
              audit [--limit N]        the last N audited writes (default 20)

            Options:
              --engine URL             the engine (default http://127.0.0.1:9153); HOST[:PORT] alone means
                                       http://HOST:PORT, port 9153 by default
              --token-file FILE        the bearer token for writes (default, for an engine on loopback only:
                                       ~/.lookout/state/control.token or /var/lib/lookout/control.token when
                                       readable); never sent over plain HTTP beyond loopback
              --json                   JSON for scripts (events as one JSON object a line)

            Exit status: 0 success, 1 refused or failed (the reason on standard error), 2 bad command line.
            """;

    private final CtlArgs args;
    private final Map<String, String> env;
    private final PrintStream out;
    private final PrintStream err;
    private ControlClient client;

    private Ctl(CtlArgs args, Map<String, String> env, PrintStream out, PrintStream err) {
        this.args = args;
        this.env = env;
        this.out = out;
        this.err = err;
    }

    /** Runs {@code lookout ctl ARGS}; returns the exit status. {@code events --follow} runs until interrupted. */
    public static int run(List<String> argv, Map<String, String> env, PrintStream out, PrintStream err) {
        CtlArgs a;
        try {
            a = CtlArgs.parse(argv);
        } catch (UsageException e) {
            err.println("lookout ctl: " + e.getMessage());
            err.print(USAGE);
            err.flush();
            return Invocation.EXIT_USAGE;
        }
        if (a.command().equals("help")) {
            out.print(USAGE);
            out.flush();
            return EXIT_OK;
        }
        Ctl ctl = new Ctl(a, env, out, err);
        try {
            return ctl.connectAndRun();
        } catch (ControlException e) {
            return ctl.fail(e);
        } finally {
            out.flush();
            err.flush();
        }
    }

    // ------------------------------------------------------------------ running

    private int connectAndRun() {
        EngineUrl url;
        try {
            url = EngineUrl.parse(args.engine() == null ? EngineUrl.DEFAULT : args.engine());
        } catch (EngineUrl.BadUrl e) {
            err.println("lookout ctl: " + e.getMessage());
            err.print(USAGE);
            return Invocation.EXIT_USAGE;
        }
        Token token = null;
        if (args.tokenFile() != null) {
            try {
                token = Token.read(args.tokenFile());
            } catch (Token.TokenException e) {
                return fail(e.getMessage());
            }
        } else if (url.loopback()) {
            // the default token is the local engine's: never offered to another host
            token = Token.readDefault(env);
        }
        client = new ControlClient(url, token);
        return switch (args.command()) {
            case "status" -> status();
            case "diff" -> diff();
            case "apply" -> apply();
            case "force" -> force();
            case "release" -> simple("/api/v1/pools/release", Map.of("key", args.operands().get(0)),
                    "released " + args.operands().get(0));
            case "search" -> simple("/api/v1/pva/search", Map.of("name", args.operands().get(0)),
                    "searching " + args.operands().get(0));
            case "stop" -> simple("/api/v1/pva/stop", Map.of("name", args.operands().get(0)),
                    "stopped searching " + args.operands().get(0));
            case "ping" -> simple("/api/v1/pva/discovery-ping", Map.of(), "discovery ping sent");
            case "resolve" -> resolve();
            case "events" -> args.follow() ? follow() : events();
            case "audit" -> audit();
            default -> throw new IllegalStateException(args.command());
        };
    }

    private int fail(String reason) {
        err.println("lookout ctl: " + reason);
        return EXIT_FAILED;
    }

    private int fail(ControlException e) {
        err.println("lookout ctl: " + e.getMessage());
        for (String p : e.problems()) {
            err.println(p);
        }
        if (args.json() && e.body() != null) {
            out.println(Json.write(e.body()));
        }
        return EXIT_FAILED;
    }

    // ------------------------------------------------------------------ status

    private int status() {
        String identityText = client.getText("/api/v1/engine");
        EngineIdentity id = client.identity();
        String statusText = client.getText("/status");
        if (args.json()) {
            out.println("{\"engine\":" + identityText.strip() + ",\"status\":" + statusText.strip() + "}");
            return EXIT_OK;
        }
        EngineSnapshot s;
        try {
            s = JsonRecords.read(statusText, EngineSnapshot.class, RemoteEngine::unknownVariant);
        } catch (RuntimeException e) {
            return fail("the engine's /status does not read as a snapshot: " + e.getMessage());
        }
        Table t = new Table();
        t.row("engine", id.describe() + " at " + client.url());
        t.row("version", id.version().isEmpty() ? "-" : "Lookout " + id.version());
        t.row("state", s.state() + (s.startedAt() == null ? "" : " since " + Table.utc(s.startedAt())
                + " (" + Table.duration(Duration.between(s.startedAt(), s.takenAt())) + ")"));
        t.row("access", id.role() + (id.writable() ? " (may change the engine)" : " (read-only)"));
        ConfigStatus c = s.config();
        if (c != null) {
            t.row("configuration", "version " + c.version() + ", sha256 " + shortHash(c.sha256()) + ", applied "
                    + Table.utc(c.appliedAt()));
            ReloadResult r = c.lastReload();
            t.row("last reload", r == null ? "none" : r.applied() ? "version " + r.version() + " applied at " + Table.utc(r.at())
                    : "REJECTED at " + Table.utc(r.at()) + ": " + (r.reasons().isEmpty() ? "" : r.reasons().get(0))
                    + (r.reasons().size() > 1 ? " (+" + (r.reasons().size() - 1) + " more)" : ""));
        }
        t.row("resolver", resolverLine(s.resolver()));
        t.row("pools", poolsLine(s.pools()));
        t.row("pva", pvaLine(s));
        List<EngineEvent> recent = s.recentEvents();
        if (!recent.isEmpty()) {
            EngineEvent e = recent.get(recent.size() - 1);
            t.row("last event", Table.utc(e.at()) + " " + e.severity() + " " + e.message());
        }
        t.print(out);
        return EXIT_OK;
    }

    private static String shortHash(String h) {
        return h == null ? "-" : h.substring(0, Math.min(12, h.length()));
    }

    static String resolverLine(ResolverSnapshot r) {
        if (r == null) {
            return "not running";
        }
        int total = 0;
        int healthy = 0;
        for (ResolverSnapshot.Scope sc : r.scopes()) {
            if (sc.fallback()) {
                continue;
            }
            for (ResolverSnapshot.Server sv : sc.servers()) {
                total++;
                healthy += sv.demoted() ? 0 : 1;
            }
        }
        return "listen " + String.join(", ", r.listen()) + "; "
                + (total == 0 ? "no upstream servers" : "upstreams " + healthy + "/" + total + " healthy")
                + "; in flight " + r.inFlight() + "/" + r.inFlightCeiling()
                + String.format(Locale.ROOT, "; %.1f questions/s", r.queriesPerSecond())
                + "; " + r.queries() + (r.queries() == 1 ? " question, " : " questions, ") + r.refused() + " refused";
    }

    static String poolsLine(PoolsSnapshot p) {
        if (p == null || !p.running()) {
            return "not running";
        }
        List<String> failover = new ArrayList<>();
        for (PoolsSnapshot.PoolResource r : p.resources()) {
            if (r.families().stream().anyMatch(PoolsSnapshot.PoolFamily::failover)) {
                failover.add(r.name());
            }
        }
        long down = p.monitors().stream().filter(m -> "DOWN".equals(m.effectiveState())).count();
        return p.resources().size() + " resource" + (p.resources().size() == 1 ? "" : "s") + ", "
                + (failover.isEmpty() ? "none in failover" : failover.size() + " in FAILOVER (" + String.join(", ", failover) + ")")
                + "; " + p.monitors().size() + " monitors, " + down + " DOWN; " + p.forced().size() + " forced";
    }

    static String pvaLine(EngineSnapshot s) {
        if (s.pva() == null || !s.pva().running()) {
            return "client not running" + (s.pvaServer() != null && s.pvaServer().running() ? "; own server running" : "");
        }
        int online = 0;
        int stale = 0;
        for (PvaDiscoveredServer d : s.pva().servers()) {
            online += d.status() == PvaDiscoveredServer.Status.ONLINE ? 1 : 0;
            stale += d.status() == PvaDiscoveredServer.Status.STALE ? 1 : 0;
        }
        return "servers " + online + " online, " + stale + " stale; channels " + s.pva().channelCount() + " ("
                + s.pva().searching() + " searching, " + s.pva().resolved() + " resolved)"
                + (s.pvaServer() != null && s.pvaServer().running() ? "; own server running" : "; own server off");
    }

    // ------------------------------------------------------------------ configuration

    private String readFile(Path f) {
        try {
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ControlException(ControlException.Kind.FAILED, "no file " + f);
        } catch (IOException | RuntimeException e) {
            throw new ControlException(ControlException.Kind.FAILED, "cannot read " + f + ": " + e.getMessage());
        }
    }

    /** POST /api/v1/config; a 409 says which option would get past it. */
    private Object postConfig(ApplyResult.Request request) {
        try {
            return client.post("/api/v1/config", request.body(), ControlClient.APPLY_TIMEOUT);
        } catch (ControlException e) {
            if (e.kind() == ControlException.Kind.CONFLICT) {
                String hint = conflictHint(e);
                throw hint == null ? e : new ControlException(e.kind(), e.status(), e.getMessage() + " (" + hint + ")",
                        e.body(), e.problems());
            }
            throw e;
        }
    }

    private int diff() {
        Path f = Path.of(args.operands().get(0));
        String text = readFile(f);
        Object tree = postConfig(new ApplyResult.Request(text, true, false, false, 0));
        if (args.json()) {
            out.println(Json.write(tree));
            return EXIT_OK;
        }
        ApplyResult r = ApplyResult.of(tree);
        printDiff(f, r);
        return EXIT_OK;
    }

    private void printDiff(Path f, ApplyResult r) {
        if (r.diff().isEmpty()) {
            out.println(f + ": no change against running version " + r.version());
            return;
        }
        out.println(f + ": " + r.count() + " against running version " + r.version() + ":");
        for (String line : r.lines()) {
            out.println("  " + line);
        }
    }

    private int apply() {
        Path f = Path.of(args.operands().get(0));
        String text = readFile(f);
        // the dry run is refused as the apply would be: with the same options, so that --force and
        // --confirm-empty get past it as they will get past the apply
        ApplyResult dry = ApplyResult.of(postConfig(new ApplyResult.Request(text, true, args.force(), args.confirmEmpty(), 0)));
        if (!args.json()) {
            printDiff(f, dry);
        }
        if (dry.diff().isEmpty() && !args.force()) {
            if (args.json()) {
                out.println(Json.write(Map.of("applied", false, "version", dry.version(), "diff", List.of())));
            } else {
                out.println("nothing applied");
            }
            return EXIT_OK;
        }
        // the version the diff was made against: a change by someone else in between is refused (409)
        Object tree = postConfig(new ApplyResult.Request(text, false, args.force(), args.confirmEmpty(), dry.version()));
        if (args.json()) {
            out.println(Json.write(tree));
            return EXIT_OK;
        }
        ApplyResult r = ApplyResult.of(tree);
        if (!r.applied()) {
            return fail("the engine did not apply " + f + " (version " + r.version() + " runs)");
        }
        out.println("version " + r.version() + " applied (" + r.count() + ")"
                + (r.saved() == null ? "; the engine runs the embedded default, so nothing was saved"
                        : "; saved to " + r.saved() + (r.backup() == null ? "" : ", the previous file kept as " + r.backup())));
        return EXIT_OK;
    }

    /** Which option would get past a 409, by the contract's {@code conflict} member. */
    static String conflictHint(ControlException e) {
        return switch (String.valueOf(Json.string(e.body(), "conflict"))) {
            case "edited" -> "--force applies it over the hand-edited file";
            case "empty" -> "--confirm-empty applies it anyway";
            case "version" -> "the running configuration changed meanwhile: run diff again";
            default -> null;
        };
    }

    // ------------------------------------------------------------------ commands

    private int force() {
        String key = args.operands().get(0);
        String state = args.operands().get(1).toUpperCase(Locale.ROOT);
        Duration ttl = null;
        if (args.operands().size() == 3) {
            try {
                ttl = CtlArgs.ttl(args.operands().get(2));
            } catch (UsageException e) {
                throw new IllegalStateException(e); // checked by parse
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("key", key);
        body.put("state", state);
        if (ttl != null) {
            body.put("ttl", ttl.toSeconds());
        }
        return simple("/api/v1/pools/force", body, "forced " + key + " " + state
                + (ttl == null ? " until released" : " for " + Table.duration(ttl)));
    }

    private int simple(String path, Object body, String done) {
        Object tree = client.post(path, body, ControlClient.REQUEST_TIMEOUT);
        if (args.json()) {
            out.println(tree == null ? "{}" : Json.write(tree));
        } else {
            out.println(done);
        }
        return EXIT_OK;
    }

    private int resolve() {
        String name = args.operands().get(0);
        String type = args.operands().size() > 1 ? args.operands().get(1).toUpperCase(Locale.ROOT) : "A";
        Object tree = client.post("/api/v1/resolve", Map.of("name", name, "type", type), ControlClient.REQUEST_TIMEOUT);
        if (args.json()) {
            out.println(Json.write(tree));
            return EXIT_OK;
        }
        ResolveTrace t = JsonRecords.read(tree, ResolveTrace.class);
        out.println(t.name() + " " + t.type() + ": " + t.outcome() + " " + t.rcode() + " from " + t.source() + " in "
                + Table.duration(t.elapsed()));
        if (t.candidates().size() > 1) {
            out.println("candidates: " + String.join(", ", t.candidates()));
        }
        if (!t.attempts().isEmpty()) {
            Table a = new Table("  ");
            a.row("#", "server", "via", "result", "sent at", "took", "spent", "demoted", "asked");
            int i = 1;
            for (ResolveTrace.Attempt x : t.attempts()) {
                a.row(i++, x.server(), x.transport(), x.result(), "+" + Table.duration(x.sentAt()), Table.duration(x.elapsed()),
                        x.spent() ? "yes" : "no", x.demoted() ? "yes" : "no", x.candidate());
            }
            out.println("attempts:");
            a.print(out);
        }
        if (t.answer().isEmpty()) {
            out.println("no answer records");
        } else {
            out.println("answer:");
            for (String rr : t.answer()) {
                out.println("  " + rr);
            }
        }
        return EXIT_OK;
    }

    // ------------------------------------------------------------------ events and audit

    private int events() {
        String statusText = client.getText("/status");
        Object tree;
        try {
            tree = Json.parse(statusText);
        } catch (Json.JsonException e) {
            return fail("the engine's /status is not JSON: " + e.getMessage());
        }
        Object list = Json.member(tree, "recentEvents");
        if (!(list instanceof List<?> events)) {
            return fail("the engine's /status has no recentEvents");
        }
        for (Object e : events) {
            if (args.json()) {
                out.println(Json.write(e));
            } else {
                out.println(eventLine(readEvent(e)));
            }
        }
        return EXIT_OK;
    }

    private static EngineEvent readEvent(Object tree) {
        try {
            return JsonRecords.read(tree, EngineEvent.class, RemoteEngine::unknownVariant);
        } catch (RuntimeException e) {
            return EventStream.unknown("event", tree);
        }
    }

    static String eventLine(EngineEvent e) {
        return Table.utcMillis(e.at()) + "  " + pad(e.severity().name(), 7) + "  " + pad(e.subsystem().name(), 10) + "  "
                + e.message();
    }

    private static String pad(String s, int n) {
        return s.length() >= n ? s : s + " ".repeat(n - s.length());
    }

    private int follow() {
        // the first connection must work: an engine that cannot be reached is a failure, not a wait
        client.identity();
        CountDownLatch done = new CountDownLatch(1);
        try (SystemTimer timer = new SystemTimer("lookout-ctl-events");
             EventStream stream = new EventStream(client, timer, 0, (e, json) -> {
                 synchronized (out) {
                     out.println(args.json() ? json : eventLine(e));
                     out.flush();
                 }
             })) {
            stream.start();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return EXIT_OK;
    }

    private int audit() {
        Object tree = client.getJson("/api/v1/audit?limit=" + args.limit());
        if (args.json()) {
            out.println(Json.write(tree));
            return EXIT_OK;
        }
        if (!(tree instanceof List<?> records)) {
            return fail("the engine's audit is not a list");
        }
        if (records.isEmpty()) {
            out.println("no audited writes");
            return EXIT_OK;
        }
        Table t = new Table();
        t.row("time", "token", "peer", "action", "result", "arguments");
        for (Object r : records) {
            Instant at = null;
            try {
                at = Instant.parse(String.valueOf(Json.string(r, "at")));
            } catch (RuntimeException e) {
                at = null;
            }
            Object a = Json.member(r, "args");
            String argsText = a == null ? "" : a instanceof String s ? s : Json.write(a);
            List<String> diff = Json.strings(r, "diff");
            if (!diff.isEmpty()) {
                argsText += (argsText.isEmpty() ? "" : " ") + "diff: " + String.join("; ", diff);
            }
            t.row(Table.utc(at), orDash(Json.string(r, "token")), orDash(Json.string(r, "peer")), orDash(Json.string(r, "action")),
                    orDash(Json.string(r, "result")), argsText);
        }
        t.print(out);
        return EXIT_OK;
    }

    private static String orDash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }
}
