package lookout.console.remote;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLException;
import lookout.console.remote.ControlException.Kind;

/**
 * The HTTP side of the control API (docs/design/control.md): one engine URL, at most one token,
 * requests and their failures in an operator's words. {@link RemoteEngine} and {@code lookout ctl}
 * are built on it.
 *
 * <p>Security: a token is only ever sent over TLS, or over plain HTTP to a loopback address; for
 * any other plain-HTTP URL the constructor refuses ({@link Kind#INSECURE}) before a byte is sent.
 *
 * <p>Concurrency: thread-safe; the asynchronous calls complete on the HTTP client's own threads.
 */
public final class ControlClient {

    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** Reads and small commands. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** An apply validates, reloads and writes the file; a large configuration takes a while. */
    public static final Duration APPLY_TIMEOUT = Duration.ofSeconds(60);

    private final EngineUrl url;
    private final Token token;
    private final HttpClient http;

    /** @param token null: no token (reads on loopback only) */
    public ControlClient(EngineUrl url, Token token) {
        this(url, token, null);
    }

    /** @param executor the HTTP client's executor, or null for its default */
    public ControlClient(EngineUrl url, Token token, Executor executor) {
        if (token != null && !url.https() && !url.loopback()) {
            throw new ControlException(Kind.INSECURE, "not sending the " + token + " to " + url.host()
                    + " over plain HTTP: use https:// (an engine listening beyond loopback serves TLS)");
        }
        this.url = url;
        this.token = token;
        HttpClient.Builder b = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1) // the engine's listener speaks HTTP/1.1
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER); // a redirect would carry the token elsewhere
        b.executor(executor != null ? executor : Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "lookout-control-http");
            t.setDaemon(true);
            return t;
        }));
        this.http = b.build();
    }

    public EngineUrl url() {
        return url;
    }

    public boolean hasToken() {
        return token != null;
    }

    public Token token() {
        return token;
    }

    HttpClient http() {
        return http;
    }

    /** A request for {@code path} with the token, when there is one. */
    HttpRequest.Builder request(String path, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url.resolve(path)).timeout(timeout)
                .header("User-Agent", "lookout-console");
        if (token != null) {
            b.header("Authorization", token.header());
        }
        return b;
    }

    // ------------------------------------------------------------------ identity

    /** {@code GET /api/v1/engine}: blocks; throws {@link Kind#NOT_LOOKOUT} when the URL is something else. */
    public EngineIdentity identity() {
        return join(identityAsync());
    }

    public CompletableFuture<EngineIdentity> identityAsync() {
        return identityAsync(REQUEST_TIMEOUT);
    }

    /** The identity, with a timeout of its own (a quick probe for a local service at start-up). */
    public CompletableFuture<EngineIdentity> identityAsync(Duration timeout) {
        HttpRequest req = request("/api/v1/engine", timeout).header("Accept", "application/json").GET().build();
        return http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).handle((r, e) -> {
            if (e != null) {
                throw unreachable(e);
            }
            if (r.statusCode() == 401 || r.statusCode() == 403) {
                throw failure(r, "/api/v1/engine");
            }
            if (r.statusCode() != 200) {
                throw new ControlException(Kind.NOT_LOOKOUT, r.statusCode(), url + " is not a Lookout engine (or one older"
                        + " than this console): /api/v1/engine answered HTTP " + r.statusCode(), null, List.of());
            }
            Object tree;
            try {
                tree = Json.parse(r.body());
            } catch (Json.JsonException x) {
                tree = null;
            }
            EngineIdentity id = EngineIdentity.of(tree);
            if (id == null) {
                throw new ControlException(Kind.NOT_LOOKOUT, 200, url + " is not a Lookout engine: /api/v1/engine"
                        + " did not answer with an engine identity", tree, List.of());
            }
            return id;
        });
    }

    // ------------------------------------------------------------------ reads

    /** GET {@code path}; the body as text. Blocks. */
    public String getText(String path) {
        return join(getTextAsync(path));
    }

    public CompletableFuture<String> getTextAsync(String path) {
        HttpRequest req = request(path, REQUEST_TIMEOUT).GET().build();
        return http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).handle((r, e) -> {
            if (e != null) {
                throw unreachable(e);
            }
            if (r.statusCode() != 200) {
                throw failure(r, path);
            }
            return r.body();
        });
    }

    /** GET {@code path}; the body as a JSON tree. Blocks. */
    public Object getJson(String path) {
        return parse(getText(path), path);
    }

    // ------------------------------------------------------------------ commands

    /** POST a JSON body to {@code path}; the answer's JSON tree (null for an empty body). */
    public CompletableFuture<Object> postAsync(String path, Object body, Duration timeout) {
        HttpRequest req = request(path, timeout)
                .header("Content-Type", "application/json; charset=utf-8")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body)))
                .build();
        return http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).handle((r, e) -> {
            if (e != null) {
                throw unreachable(e);
            }
            if (r.statusCode() / 100 != 2) {
                throw failure(r, path);
            }
            String text = r.body();
            return text == null || text.isBlank() ? null : parse(text, path);
        });
    }

    /** Blocking {@link #postAsync}. */
    public Object post(String path, Object body, Duration timeout) {
        return join(postAsync(path, body, timeout));
    }

    private Object parse(String text, String path) {
        try {
            return Json.parse(text);
        } catch (Json.JsonException e) {
            throw new ControlException(Kind.FAILED, 200, url + path + " did not answer JSON (" + e.getMessage() + ")",
                    null, List.of());
        }
    }

    // ------------------------------------------------------------------ failures in words

    /** Waits for {@code f}; its failure as the {@link ControlException} it carries. */
    public static <T> T join(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ControlException(Kind.UNREACHABLE, "interrupted");
        } catch (ExecutionException e) {
            throw asControl(e.getCause());
        }
    }

    /** The {@link ControlException} inside a completion failure (or one in words for anything else). */
    public static ControlException asControl(Throwable t) {
        Throwable c = t;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        if (c instanceof ControlException ce) {
            return ce;
        }
        return new ControlException(Kind.FAILED, c.getMessage() == null ? "the request failed" : c.getMessage());
    }

    /** A transport failure (no HTTP answer), in words. */
    ControlException unreachable(Throwable e) {
        Throwable c = e;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        if (c instanceof ControlException ce) {
            return ce;
        }
        String why;
        if (c instanceof HttpConnectTimeoutException) {
            why = "no connection within " + CONNECT_TIMEOUT.toSeconds() + " s";
        } else if (c instanceof HttpTimeoutException) {
            why = "no answer in time";
        } else if (c instanceof ConnectException) {
            why = "connection refused (is the engine running, with status.listen on this address?)";
        } else if (c instanceof UnresolvedAddressException || c.getCause() instanceof UnresolvedAddressException) {
            why = "the host name " + url.host() + " does not resolve";
        } else if (c instanceof SSLException) {
            why = "TLS failed" + (c.getMessage() == null ? "" : ": " + c.getMessage());
        } else if (c instanceof IOException) {
            why = c.getMessage() == null || c.getMessage().isBlank() ? "the connection broke" : c.getMessage();
        } else {
            why = c.getMessage() == null ? "the request failed" : c.getMessage();
        }
        return new ControlException(Kind.UNREACHABLE, 0, "cannot reach " + url + ": " + why, null, List.of());
    }

    /** A non-2xx answer, in words: the engine's own {@code "error"} when it gives one. */
    ControlException failure(HttpResponse<String> r, String path) {
        int st = r.statusCode();
        Object body = null;
        String text = r.body() == null ? "" : r.body();
        try {
            body = text.isBlank() ? null : Json.parse(text);
        } catch (Json.JsonException e) {
            body = null;
        }
        String error = Json.string(body, "error");
        if (error == null && body == null && !text.isBlank() && text.length() < 200 && !text.contains("<")) {
            error = text.strip(); // a plain-text answer (the status endpoint's 404 and 405 are)
        }
        String detail = error == null || error.isBlank() ? "" : ": " + error;
        return switch (st) {
            case 400 -> new ControlException(Kind.BAD_REQUEST, st, "the engine could not take the request" + detail, body, List.of());
            case 401 -> new ControlException(Kind.UNAUTHORIZED, st, "refused: "
                    + (token == null ? "this needs an operator's token (give one with --token-file)"
                            : "the engine does not accept the " + token) + detail, body, List.of());
            case 403 -> new ControlException(Kind.FORBIDDEN, st, "refused: the "
                    + (token == null ? "request" : token.toString()) + " may not do this (it needs an operator's token)"
                    + detail, body, List.of());
            case 404 -> new ControlException(Kind.NOT_FOUND, st, "the engine at " + url + " has no " + path
                    + " (an engine older than this console?)", body, List.of());
            case 409 -> new ControlException(Kind.CONFLICT, st, "refused" + (detail.isEmpty() ? ": conflict" : detail), body, List.of());
            case 422 -> {
                List<String> problems = Json.strings(body, "problems");
                yield new ControlException(Kind.INVALID, st, "the configuration has " + problems.size() + " problem"
                        + (problems.size() == 1 ? "" : "s") + "; nothing changed", body, problems);
            }
            case 503 -> new ControlException(Kind.UNAVAILABLE, st, "the engine is busy or stopping" + detail, body, List.of());
            default -> new ControlException(Kind.FAILED, st, "the engine answered HTTP " + st + detail, body, List.of());
        };
    }

    /** The SSE request: {@code GET /api/v1/events?since=SEQ} with {@code Last-Event-ID}. */
    HttpRequest eventsRequest(long since) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url.base() + "/api/v1/events?since=" + since))
                .header("Accept", "text/event-stream")
                .header("User-Agent", "lookout-console")
                .GET();
        if (since > 0) {
            b.header("Last-Event-ID", Long.toString(since));
        }
        if (token != null) {
            b.header("Authorization", token.header());
        }
        return b.build();
    }
}
