package lookout.console.remote;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.ReloadResult;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.status.JsonWriter;

/**
 * The control API of docs/design/control.md, as a test stand-in until the engine serves it: a
 * real {@link Engine} behind the contract's routes (commands call the engine; {@code /status} is
 * the engine's own JSON, from its real status listener when given one). Tokens and roles, 401/403,
 * the event journal with {@code since}/{@code Last-Event-ID} and {@code gap}, dry-run and apply with
 * 422/409, audit records. Loopback only (port 0); every request is logged for the tests to check.
 */
public final class FakeControlServer implements AutoCloseable {

    /** One request as the server saw it. */
    public record Request(String method, String path, String query, String authorization, String lastEventId, String body) {
    }

    private final Engine engine;
    private final URI statusUpstream;
    private final String name;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fake-control");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient upstream = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<String, String[]> tokens = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<Map<String, Object>> audit = new CopyOnWriteArrayList<>();
    private final Set<BlockingQueue<String>> streams = ConcurrentHashMap.newKeySet();
    private final ArrayDeque<Object[]> journal = new ArrayDeque<>();
    private final AutoCloseable subscription;
    private long seq;
    private int journalLimit = 1000;
    private volatile String configFile;
    private volatile boolean editedOnDisk;
    private volatile boolean readsNeedToken;
    private volatile Duration keepalive = Duration.ofSeconds(15);
    private volatile String identityOverride;

    /**
     * @param engine         the engine behind the API (started by the caller)
     * @param statusUpstream the engine's own status listener ({@code http://127.0.0.1:PORT}), or null to
     *                       write {@code /status} from {@code engine.snapshot()} here
     */
    public FakeControlServer(Engine engine, URI statusUpstream, String name) throws IOException {
        this(engine, statusUpstream, name, 0);
    }

    public FakeControlServer(Engine engine, URI statusUpstream, String name, int port) throws IOException {
        this.engine = engine;
        this.statusUpstream = statusUpstream;
        this.name = name;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        subscription = engine.subscribe(this::journal);
        server.start();
    }

    public FakeControlServer token(String secret, String tokenName, String role) {
        tokens.put(secret, new String[] {tokenName, role});
        return this;
    }

    public FakeControlServer configFile(String f) {
        configFile = f;
        return this;
    }

    /** The next applies find the file edited by hand (409 unless forced). */
    public void editedOnDisk(boolean b) {
        editedOnDisk = b;
    }

    /** As beyond loopback: reads need a token too. */
    public void readsNeedToken(boolean b) {
        readsNeedToken = b;
    }

    public void keepalive(Duration d) {
        keepalive = d;
    }

    /** Keep only the newest {@code n} events (older resumes get a gap). */
    public synchronized void journalLimit(int n) {
        journalLimit = n;
        while (journal.size() > n) {
            journal.removeFirst();
        }
    }

    /** Answer {@code /api/v1/engine} with this body instead (a URL that is not a Lookout engine). */
    public void identityBody(String body) {
        identityOverride = body;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public List<Map<String, Object>> audit() {
        return List.copyOf(audit);
    }

    public synchronized long lastSeq() {
        return seq;
    }

    public int openStreams() {
        return streams.size();
    }

    /** Breaks every open event stream (as a network failure would), the server stays up. */
    public void dropEventStreams() {
        for (BlockingQueue<String> q : streams) {
            q.offer("\u0000close");
        }
    }

    /** Publishes an event as the engine would (through the journal). */
    public void publish(EngineEvent e) {
        journal(e);
    }

    private void journal(EngineEvent e) {
        String frame;
        synchronized (this) {
            long n = ++seq;
            frame = "id: " + n + "\nevent: " + e.getClass().getSimpleName() + "\ndata: " + JsonWriter.write(e) + "\n\n";
            journal.addLast(new Object[] {n, frame});
            while (journal.size() > journalLimit) {
                journal.removeFirst();
            }
        }
        for (BlockingQueue<String> q : streams) {
            q.offer(frame);
        }
    }

    // ------------------------------------------------------------------ routing

    private void handle(HttpExchange x) throws IOException {
        String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = x.getRequestURI().getPath();
        String query = x.getRequestURI().getRawQuery();
        String auth = x.getRequestHeaders().getFirst("Authorization");
        requests.add(new Request(x.getRequestMethod(), path, query, auth, x.getRequestHeaders().getFirst("Last-Event-ID"), body));
        try {
            route(x, path, query, auth, body);
        } catch (RuntimeException e) {
            send(x, 500, "{\"error\":" + Json.quote(String.valueOf(e.getMessage())) + "}");
        } finally {
            x.close();
        }
    }

    private String[] role(String auth) {
        if (auth == null || !auth.startsWith("Bearer ")) {
            return null;
        }
        return tokens.get(auth.substring(7));
    }

    private void route(HttpExchange x, String path, String query, String auth, String body) throws IOException {
        String[] who = role(auth);
        boolean get = x.getRequestMethod().equals("GET") || x.getRequestMethod().equals("HEAD");
        boolean post = x.getRequestMethod().equals("POST");
        boolean write = post && !Set.of("/api/v1/resolve", "/api/v1/pools/what-if", "/api/v1/pools/candidate-odds").contains(path)
                && !(path.equals("/api/v1/config") && body.contains("\"dryRun\":true")); // a dry run changes nothing
        if (auth != null && who == null) {
            unauthorized(x, "unknown token");
            return;
        }
        if ((write || readsNeedToken) && who == null) {
            unauthorized(x, "this needs a token");
            return;
        }
        if (write && !"operator".equals(who[1])) {
            count(who, path, body, "refused: role " + who[1]);
            x.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"lookout\"");
            send(x, 403, "{\"error\":\"the token '" + who[0] + "' has role " + who[1] + "; writes need operator\"}");
            return;
        }
        switch (path) {
            case "/status" -> {
                if (!get) {
                    send(x, 405, "{\"error\":\"GET only\"}");
                } else {
                    send(x, 200, status());
                }
            }
            case "/metrics" -> send(x, 200, upstreamText("/metrics"));
            case "/api/v1/engine" -> send(x, 200, identityOverride != null ? identityOverride : identity(who));
            case "/api/v1/events" -> events(x, query);
            case "/api/v1/audit" -> send(x, 200, JsonWriter.write(audit));
            case "/api/v1/config" -> {
                if (get) {
                    EngineSnapshot s = engine.snapshot();
                    send(x, 200, JsonWriter.write(Map.of("version", s.config().version(), "sha256", s.config().sha256(),
                            "text", s.config().text())));
                } else {
                    config(x, who, body);
                }
            }
            case "/api/v1/pools/force" -> {
                Object b = Json.parse(body);
                Object ttl = Json.member(b, "ttl");
                engine.force(Json.string(b, "key"), Json.string(b, "state"),
                        ttl == null ? null : Duration.ofSeconds(((Json.Num) ttl).longValue())).join();
                ok(x, who, "force", b);
            }
            case "/api/v1/pools/release" -> {
                Object b = Json.parse(body);
                engine.release(Json.string(b, "key")).join();
                ok(x, who, "release", b);
            }
            case "/api/v1/pools/what-if" -> {
                Object b = Json.parse(body);
                Map<String, String> states = new LinkedHashMap<>();
                ((Map<?, ?>) Json.member(b, "states")).forEach((k, v) -> states.put((String) k, (String) v));
                send(x, 200, JsonWriter.write(engine.whatIf(states).join()));
            }
            case "/api/v1/pools/candidate-odds" -> {
                ConfigResult r = parse(Json.string(Json.parse(body), "text"));
                if (!r.ok()) {
                    send(x, 422, JsonWriter.write(Map.of("problems", r.problems().stream().map(Object::toString).toList())));
                } else {
                    send(x, 200, JsonWriter.write(engine.candidateOdds(r.config()).join()));
                }
            }
            case "/api/v1/pva/search" -> {
                Object b = Json.parse(body);
                engine.searchPv(Json.string(b, "name")).join();
                ok(x, who, "search", b);
            }
            case "/api/v1/pva/stop" -> {
                Object b = Json.parse(body);
                engine.dropPv(Json.string(b, "name")).join();
                ok(x, who, "stop", b);
            }
            case "/api/v1/pva/hurry-up" -> {
                boolean started = engine.searchNow().join();
                count(who, path, body, "ok");
                send(x, 200, "{\"started\":" + started + "}");
            }
            case "/api/v1/pva/discovery-ping" -> {
                engine.discoveryPing().join();
                ok(x, who, "discovery-ping", Map.of());
            }
            case "/api/v1/resolve" -> {
                Object b = Json.parse(body);
                String type = Json.string(b, "type");
                send(x, 200, JsonWriter.write(engine.resolve(Json.string(b, "name"), type == null ? "A" : type).join()));
            }
            default -> send(x, 404, "{\"error\":\"no such path\"}");
        }
    }

    private void config(HttpExchange x, String[] who, String body) throws IOException {
        Object b;
        try {
            b = Json.parse(body);
        } catch (Json.JsonException e) {
            send(x, 400, "{\"error\":" + Json.quote(e.getMessage()) + "}");
            return;
        }
        String text = Json.string(b, "text");
        if (text == null) {
            send(x, 400, "{\"error\":\"text is missing\"}");
            return;
        }
        boolean dry = Json.bool(b, "dryRun", false);
        EngineSnapshot s = engine.snapshot();
        long expected = Json.number(b, "expectedVersion", 0);
        if (expected > 0 && expected != s.config().version()) {
            count(who, "/api/v1/config", body, "refused: version");
            send(x, 409, "{\"error\":\"the running version is " + s.config().version() + ", not " + expected + "\",\"conflict\":\"version\"}");
            return;
        }
        ConfigResult r = parse(text);
        if (!r.ok()) {
            if (!dry) {
                count(who, "/api/v1/config", body, "refused: invalid");
            }
            send(x, 422, JsonWriter.write(Map.of("problems", r.problems().stream().map(Object::toString).toList())));
            return;
        }
        if (text.isBlank() && !Json.bool(b, "confirmEmpty", false)) {
            count(who, "/api/v1/config", body, "refused: empty");
            send(x, 409, "{\"error\":\"the text would remove every service; confirm to apply it\",\"conflict\":\"empty\"}");
            return;
        }
        if (!dry && editedOnDisk && !Json.bool(b, "force", false)) {
            count(who, "/api/v1/config", body, "refused: edited on disk");
            send(x, 409, "{\"error\":\"" + configFile + " was edited since the engine loaded it (running abc123, on disk def456)\",\"conflict\":\"edited\",\"running\":\"abc123\",\"onDisk\":\"def456\"}");
            return;
        }
        ConfigResult running = parse(s.config().text());
        ConfigDiff diff = ConfigLoader.diff(running.config(), r.config());
        if (dry) {
            send(x, 200, JsonWriter.write(result(false, s.config().version(), diff, null, null)));
            return;
        }
        ReloadResult rr = engine.apply(r);
        if (!rr.applied()) {
            send(x, 422, JsonWriter.write(Map.of("problems", rr.reasons())));
            return;
        }
        count(who, "/api/v1/config", body, "ok");
        send(x, 200, JsonWriter.write(result(true, rr.version(), rr.diff(), configFile, configFile == null ? null : "backups/lookout.conf.1")));
    }

    private static Map<String, Object> result(boolean applied, long version, ConfigDiff diff, String saved, String backup) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("applied", applied);
        m.put("version", version);
        m.put("diff", diff.changes());
        m.put("saved", saved);
        m.put("backup", backup);
        return m;
    }

    private ConfigResult parse(String text) {
        java.nio.file.Path base = configFile != null ? java.nio.file.Path.of(configFile).getParent()
                : java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));
        return new ConfigLoader(Map.of()).parse(text, configFile == null ? "<api>" : configFile, base);
    }

    private String identity(String[] who) {
        EngineSnapshot s = engine.snapshot();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("product", "lookout");
        m.put("version", "0.1.0-test");
        m.put("engine", name);
        m.put("configFile", configFile);
        m.put("configVersion", s.config() == null ? 0 : s.config().version());
        m.put("state", s.state());
        m.put("startedAt", s.startedAt());
        m.put("role", who == null ? "anonymous" : who[1]);
        m.put("writable", who != null && "operator".equals(who[1]));
        return JsonWriter.write(m);
    }

    private String status() {
        if (statusUpstream == null) {
            return JsonWriter.write(engine.snapshot());
        }
        return upstreamText("/status");
    }

    private String upstreamText(String path) {
        if (statusUpstream == null) {
            return "";
        }
        try {
            HttpResponse<String> r = upstream.send(HttpRequest.newBuilder(statusUpstream.resolve(path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return r.body();
        } catch (IOException e) {
            throw new IllegalStateException("status upstream: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    private void events(HttpExchange x, String query) throws IOException {
        long since = -1;
        if (query != null && query.startsWith("since=")) {
            since = Long.parseLong(query.substring(6));
        }
        String last = x.getRequestHeaders().getFirst("Last-Event-ID");
        if (last != null) {
            since = Math.max(since, Long.parseLong(last.strip()));
        }
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        List<String> replay = new ArrayList<>();
        synchronized (this) {
            if (since >= 0) {
                long first = journal.isEmpty() ? seq + 1 : (long) journal.peekFirst()[0];
                if (since < first - 1) {
                    replay.add("event: gap\ndata: {\"from\":" + since + ",\"to\":" + first + "}\n\n");
                }
                for (Object[] j : journal) {
                    if ((long) j[0] > since) {
                        replay.add((String) j[1]);
                    }
                }
            }
            streams.add(q);
        }
        x.getResponseHeaders().set("Content-Type", "text/event-stream");
        x.getResponseHeaders().set("Cache-Control", "no-store");
        x.sendResponseHeaders(200, 0);
        OutputStream out = x.getResponseBody();
        try {
            for (String f : replay) {
                out.write(f.getBytes(StandardCharsets.UTF_8));
            }
            out.flush();
            while (true) {
                String f = q.poll(keepalive.toMillis(), TimeUnit.MILLISECONDS);
                if (f == null) {
                    f = ": keepalive\n\n";
                } else if (f.equals("\u0000close")) {
                    return;
                }
                out.write(f.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the client went away, or the server stops
        } finally {
            streams.remove(q);
        }
    }

    private void ok(HttpExchange x, String[] who, String action, Object args) throws IOException {
        count(who, action, Json.write(args), "ok");
        send(x, 200, "{\"ok\":true}");
    }

    private void count(String[] who, String action, String args, String result) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", Instant.now());
        m.put("token", who == null ? null : who[0]);
        m.put("peer", "127.0.0.1:1");
        m.put("action", action);
        m.put("args", args);
        m.put("result", result);
        audit.add(m);
    }

    private void unauthorized(HttpExchange x, String why) throws IOException {
        x.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"lookout\"");
        send(x, 401, "{\"error\":\"" + why + "\"}");
    }

    private static void send(HttpExchange x, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        x.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) {
            x.getResponseBody().write(b);
        }
    }

    /** Stops listening and breaks every stream at once (an engine that went away). */
    @Override
    public void close() {
        try {
            subscription.close();
        } catch (Exception e) {
            // the engine may be stopped already
        }
        dropEventStreams();
        server.stop(0);
        executor.shutdownNow();
    }
}
