package lookout.console.remote;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;

/**
 * The engine's event stream ({@code GET /api/v1/events}, server-sent events), kept open: every
 * event once, in order, across reconnects. After a broken connection it reconnects with
 * {@link Backoff} delays on {@code timer} and resumes after the last event it delivered
 * ({@code since} and {@code Last-Event-ID}), so nothing is lost and nothing repeated; when the engine
 * no longer keeps those events it says so (the contract's {@code gap}) as one warning event.
 * A connection that stays silent for {@link #SILENCE} (the engine sends a keepalive every 15 s)
 * counts as broken.
 *
 * <p>Concurrency: the HTTP client's threads deliver lines (one connection at a time, in order);
 * reconnects and the silence check run on {@code timer}. {@code sink} is called on an HTTP thread
 * and must not block. State changes are guarded by {@code this}.
 */
public final class EventStream implements AutoCloseable {

    private static final Logger LOG = System.getLogger("lookout.console.remote");

    /** Three missed keepalives. */
    public static final Duration SILENCE = Duration.ofSeconds(45);

    private final ControlClient client;
    private final Scheduler timer;
    private final Sink sink;

    /** Where events go: the record, and the JSON it came as (for output that passes it on). */
    @FunctionalInterface
    public interface Sink {
        void event(EngineEvent event, String json);
    }
    private final Backoff backoff = new Backoff();

    // guarded by this
    private long lastSeq;
    private long connectionCounter;
    private long activeConnection = -1;
    private boolean connected;
    private boolean closed;
    private boolean started;
    private Flow.Subscription subscription;
    private Scheduler.Cancellable retry = Scheduler.Cancellable.NONE;
    private Scheduler.Cancellable watchdog = Scheduler.Cancellable.NONE;
    private String problem = "not connected yet";
    private long connects;
    private volatile long lastHeardNanos;

    /**
     * @param since deliver the events after this sequence number (0: every event the engine keeps)
     */
    public EventStream(ControlClient client, Scheduler timer, long since, Sink sink) {
        this.client = Objects.requireNonNull(client);
        this.timer = Objects.requireNonNull(timer);
        this.sink = Objects.requireNonNull(sink);
        this.lastSeq = since;
    }

    /** Opens the stream (once). */
    public synchronized void start() {
        if (started || closed) {
            return;
        }
        started = true;
        watchdog = timer.scheduleAtFixedRate(this::checkSilence, 15, 15, TimeUnit.SECONDS);
        connect();
    }

    /** The sequence number of the last event delivered (0 before the first). */
    public synchronized long lastSeq() {
        return lastSeq;
    }

    public synchronized boolean connected() {
        return connected;
    }

    /** Why the stream is not connected, or null when it is. */
    public synchronized String problem() {
        return connected ? null : problem;
    }

    /** Connections made so far (1 after the first, +1 per reconnect). */
    public synchronized long connects() {
        return connects;
    }

    private synchronized void connect() {
        if (closed) {
            return;
        }
        long id = ++connectionCounter;
        activeConnection = id;
        long since = lastSeq;
        Lines lines = new Lines(id);
        HttpResponse.BodyHandler<Void> handler = info -> {
            String type = info.headers().firstValue("Content-Type").orElse("");
            if (info.statusCode() == 200 && type.startsWith("text/event-stream")) {
                opened(id);
                return HttpResponse.BodySubscribers.fromLineSubscriber(lines);
            }
            refusedWith(id, info.statusCode() == 200 ? client.url() + "/api/v1/events is not an event stream"
                    : "the event stream answered HTTP " + info.statusCode());
            return HttpResponse.BodySubscribers.replacing(null);
        };
        client.http().sendAsync(client.eventsRequest(since), handler)
                .whenComplete((r, e) -> ended(id, e == null ? null : client.unreachable(e).getMessage()));
    }

    private synchronized void opened(long id) {
        if (id != activeConnection) {
            return;
        }
        connected = true;
        connects++;
        lastHeardNanos = timer.nanoTime();
        backoff.reset();
    }

    private synchronized void refusedWith(long id, String why) {
        if (id == activeConnection) {
            problem = why;
        }
    }

    /** The connection {@code id} ended (broken, closed by the engine, refused, or silent). */
    private void ended(long id, String why) {
        Flow.Subscription old;
        synchronized (this) {
            if (id != activeConnection) {
                return;
            }
            activeConnection = -1;
            if (why != null) {
                problem = why;
            } else if (connected) {
                problem = "the engine closed the event stream";
            }
            connected = false;
            old = subscription;
            subscription = null;
            if (closed) {
                return;
            }
            Duration delay = backoff.next();
            retry = timer.schedule(this::connect, delay.toNanos(), TimeUnit.NANOSECONDS);
        }
        if (old != null) {
            old.cancel();
        }
    }

    private void checkSilence() {
        long id;
        synchronized (this) {
            if (!connected || timer.nanoTime() - lastHeardNanos < SILENCE.toNanos()) {
                return;
            }
            id = activeConnection;
        }
        ended(id, "the event stream went silent for " + SILENCE.toSeconds() + " s");
    }

    /** One message of connection {@code id}. Called on that connection's delivery thread. */
    private void message(long id, SseParser.Message m) {
        EngineEvent e;
        String json = m.data();
        synchronized (this) {
            if (id != activeConnection || closed) {
                return;
            }
            if ("gap".equals(m.event())) {
                Object gap = parseQuietly(m.data());
                long from = Json.number(gap, "from", lastSeq);
                long to = Json.number(gap, "to", -1);
                boolean resumed = lastSeq > 0;
                boolean reset = to >= 0 && to <= from;
                if (reset) {
                    // the engine's journal never reached our resume point (its state directory was
                    // reset): numbering starts again, and every event it keeps is news to us
                    lastSeq = Math.max(0, to - 1);
                } else if (to > 0) {
                    lastSeq = Math.max(lastSeq, to - 1);
                }
                if (!resumed) {
                    return; // a first connection asks for everything kept: nothing was promised before that
                }
                e = new EngineEvent.Notice(Instant.now(), Subsystem.ENGINE, Severity.WARNING, reset
                        ? "the engine's event numbering started again (its state was reset): events after " + from
                        + " may have been missed; its kept events follow"
                        : "events " + (from + 1) + (to > from + 2 ? "–" + (to - 1) : "")
                        + " were missed while this console was disconnected (the engine no longer keeps them)");
                json = "{\"type\":\"gap\",\"from\":" + from + ",\"to\":" + to + "}";
            } else {
                long seq;
                try {
                    seq = m.id() == null ? -1 : Long.parseLong(m.id().strip());
                } catch (NumberFormatException x) {
                    seq = -1;
                }
                if (seq >= 0 && seq <= lastSeq) {
                    return; // already delivered before a reconnect
                }
                if (seq > 0) {
                    lastSeq = seq;
                }
                e = event(m);
            }
        }
        if (e != null) {
            sink.event(e, json);
        }
    }

    /** The event in {@code m}; an event type this console does not know becomes a notice saying what it was. */
    static EngineEvent event(SseParser.Message m) {
        Object tree = parseQuietly(m.data());
        if (!(tree instanceof Map<?, ?>)) {
            LOG.log(Level.DEBUG, "event stream: a message without a JSON object (" + m.event() + ")");
            return null;
        }
        if (Json.member(tree, "type") == null && m.event() != null && !m.event().equals("message")) {
            Map<String, Object> withType = new LinkedHashMap<>();
            withType.put("type", m.event());
            withType.putAll(castMap(tree));
            tree = withType;
        }
        try {
            return JsonRecords.read(tree, EngineEvent.class);
        } catch (JsonRecords.UnknownVariant u) {
            return unknown(u.type(), tree);
        } catch (JsonRecords.ShapeException x) {
            LOG.log(Level.DEBUG, "event stream: an event that does not read: " + x.getMessage());
            return unknown(String.valueOf(Json.member(tree, "type")), tree);
        }
    }

    /** An event this console cannot read as a record: a notice with its type, time, severity and message. */
    public static EngineEvent unknown(String type, Object tree) {
        Instant at;
        try {
            at = Instant.parse(Objects.requireNonNullElse(Json.string(tree, "at"), ""));
        } catch (RuntimeException e) {
            at = Instant.now();
        }
        Severity severity = Severity.INFO;
        Subsystem subsystem = Subsystem.ENGINE;
        try {
            String s = Json.string(tree, "severity");
            if (s != null) {
                severity = Severity.valueOf(s);
            }
            String sub = Json.string(tree, "subsystem");
            if (sub != null) {
                subsystem = Subsystem.valueOf(sub);
            }
        } catch (IllegalArgumentException e) {
            // keep the defaults
        }
        String message = Json.string(tree, "message");
        if (message == null) {
            StringBuilder b = new StringBuilder(type);
            for (Map.Entry<String, Object> f : castMap(tree).entrySet()) {
                if (!f.getKey().equals("type") && !f.getKey().equals("at")) {
                    b.append(' ').append(f.getKey()).append('=')
                            .append(f.getValue() instanceof String s ? s : Json.write(f.getValue()));
                }
            }
            message = b.toString();
        }
        return new EngineEvent.Notice(at, subsystem, severity, message);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object tree) {
        return (Map<String, Object>) tree;
    }

    private static Object parseQuietly(String s) {
        try {
            return Json.parse(s);
        } catch (Json.JsonException e) {
            return null;
        }
    }

    @Override
    public void close() {
        Flow.Subscription s;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            connected = false;
            activeConnection = -1;
            problem = "closed";
            retry.cancel();
            watchdog.cancel();
            s = subscription;
            subscription = null;
        }
        if (s != null) {
            s.cancel();
        }
    }

    /** The line subscriber of one connection. */
    private final class Lines implements Flow.Subscriber<String> {
        private final long id;
        private final SseParser parser;

        Lines(long id) {
            this.id = id;
            this.parser = new SseParser(m -> message(id, m), () -> lastHeardNanos = timer.nanoTime());
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            boolean keep;
            synchronized (EventStream.this) {
                keep = id == activeConnection && !closed;
                if (keep) {
                    subscription = s;
                }
            }
            if (keep) {
                s.request(Long.MAX_VALUE);
            } else {
                s.cancel();
            }
        }

        @Override
        public void onNext(String line) {
            lastHeardNanos = timer.nanoTime();
            try {
                parser.line(line);
            } catch (RuntimeException e) {
                ended(id, "the event stream sent something unreadable: " + e.getMessage());
            }
        }

        @Override
        public void onError(Throwable t) {
            // the response future completes exceptionally too: ended() runs there
        }

        @Override
        public void onComplete() {
            // the response future completes too: ended() runs there
        }
    }
}
