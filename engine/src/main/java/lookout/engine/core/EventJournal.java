package lookout.engine.core;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EventsSince;
import lookout.engine.api.SequencedEvent;
import lookout.engine.json.JsonReader;
import lookout.engine.json.JsonWriter;
import lookout.engine.json.RecordReader;

/**
 * The engine's event journal: every event gets the next sequence number; the last
 * {@link #CAPACITY} are kept in memory and in {@code STATE_DIR/events.log} (JSON lines
 * {@code {"seq":N,"event":{...}}}), so that they and the numbering survive a restart and a
 * console that reconnects asks for what came after the last number it saw.
 *
 * <p>The file is bounded: when {@code events.log} holds {@link #SEGMENT} lines it becomes
 * {@code events.log.1} (replacing the older one) and a new one starts, so the two hold between
 * {@code SEGMENT} and {@code 2 × SEGMENT} events. A line a kill cut short, or one a later version
 * cannot read, is skipped when the journal is loaded.
 *
 * <p>Concurrency: {@link #append} may be called from any thread (the engine loop mostly); the
 * ring, the sequence counter and the listeners' calls are under {@code this}, so listeners see
 * events in sequence order and must not block. Disk writes happen on the journal's own writer
 * thread, fed by a bounded queue; when the disk falls that far behind, lines are dropped from the
 * file (counted), never from memory.
 */
final class EventJournal implements AutoCloseable {

    private static final Logger LOG = System.getLogger("lookout.engine.journal");

    /** Events kept in memory and loaded back at start. */
    static final int CAPACITY = 10_000;
    /** Lines per file segment (two segments: events.log.1 and events.log). */
    static final int SEGMENT = CAPACITY / 2;
    static final String FILE = "events.log";

    private final int capacity;
    private final int segment;
    private final ArrayDeque<SequencedEvent> ring = new ArrayDeque<>();
    private final List<Consumer<SequencedEvent>> listeners = new CopyOnWriteArrayList<>();
    private final LongAdder droppedLines = new LongAdder();
    private long last;

    private BlockingQueue<SequencedEvent> pending;
    private Thread writer;
    private Path file;
    /** Queued by {@link #close}: the writer ends when it reaches it, after every line before it. */
    private static final SequencedEvent STOP = new SequencedEvent(-1, null);

    EventJournal() {
        this(CAPACITY, SEGMENT);
    }

    /** Smaller bounds, for tests. */
    EventJournal(int capacity, int segment) {
        this.capacity = capacity;
        this.segment = segment;
    }

    /**
     * Loads the kept events of {@code stateDir} (the numbering continues after them) and starts
     * writing there. Idempotent: a journal already open stays where it is.
     */
    synchronized void open(Path stateDir) {
        if (file == null) {
            file = stateDir.resolve(FILE);
            List<SequencedEvent> loaded = new ArrayList<>();
            load(stateDir.resolve(FILE + ".1"), loaded);
            load(file, loaded);
            for (SequencedEvent e : loaded) {
                if (e.seq() > last) {
                    ring.addLast(e);
                    last = e.seq();
                }
            }
            while (ring.size() > capacity) {
                ring.removeFirst();
            }
            pending = new ArrayBlockingQueue<>(Math.max(capacity, 4096));
        }
        if (writer == null) {
            // (again after a stop: the same engine may be started again)
            int lines = countLines(file);
            writer = new Thread(() -> writeLoop(lines), "lookout-journal");
            writer.setDaemon(true);
            writer.start();
        }
    }

    private static int countLines(Path p) {
        if (!Files.isReadable(p)) {
            return 0;
        }
        try (var lines = Files.lines(p, StandardCharsets.ISO_8859_1)) {
            return (int) Math.min(Integer.MAX_VALUE, lines.count());
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }

    /** Reads the lines of {@code p} it can into {@code out}. */
    private static void load(Path p, List<SequencedEvent> out) {
        if (!Files.isReadable(p)) {
            return;
        }
        try (var lines = Files.lines(p, StandardCharsets.UTF_8)) {
            for (String line : (Iterable<String>) lines::iterator) {
                SequencedEvent e = decode(line);
                if (e != null) {
                    out.add(e);
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            LOG.log(Level.WARNING, "event journal " + p + " could not be read whole: " + e.getMessage());
        }
    }

    /** One journal line, or null when it is not one this version can read. */
    static SequencedEvent decode(String line) {
        try {
            Map<String, Object> o = JsonReader.parseObject(line);
            if (!(o.get("seq") instanceof Long seq) || !(o.get("event") instanceof Map<?, ?> ev)) {
                return null;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> event = (Map<String, Object>) ev;
            return new SequencedEvent(seq, RecordReader.variant(EngineEvent.class, event));
        } catch (JsonReader.JsonException | RuntimeException e) {
            return null;
        }
    }

    static String encode(SequencedEvent e) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("seq", e.seq());
        line.put("event", e.event());
        return JsonWriter.write(line);
    }

    /** Numbers {@code event}, keeps it, hands it to the listeners and queues it for the file. */
    synchronized SequencedEvent append(EngineEvent event) {
        SequencedEvent e = new SequencedEvent(++last, event);
        if (ring.size() == capacity) {
            ring.removeFirst();
        }
        ring.addLast(e);
        for (Consumer<SequencedEvent> l : listeners) {
            try {
                l.accept(e);
            } catch (RuntimeException ex) {
                LOG.log(Level.WARNING, "journal listener failed", ex);
            }
        }
        if (pending != null && !pending.offer(e)) {
            droppedLines.increment();
        }
        return e;
    }

    synchronized EventsSince since(long seq) {
        List<SequencedEvent> out = new ArrayList<>();
        if (seq < last) {
            for (SequencedEvent e : ring) {
                if (e.seq() > seq) {
                    out.add(e);
                }
            }
        }
        long first = ring.isEmpty() ? 0 : ring.peekFirst().seq();
        return new EventsSince(seq, first, last, out);
    }

    /**
     * Registers {@code listener} and, atomically with it, returns what is kept after {@code seq}:
     * nothing appended in between is missed or seen twice.
     */
    synchronized EventsSince subscribe(long seq, Consumer<SequencedEvent> listener, AutoCloseable[] handle) {
        listeners.add(listener);
        handle[0] = () -> listeners.remove(listener);
        return since(seq);
    }

    AutoCloseable subscribe(Consumer<SequencedEvent> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    synchronized long last() {
        return last;
    }

    /** Lines the writer could not keep up with (they are in memory, not in the file). */
    long droppedLines() {
        return droppedLines.sum();
    }

    private void writeLoop(int startLines) {
        int lines = startLines;
        BufferedWriter out = null;
        try {
            while (true) {
                SequencedEvent e = pending.take();
                if (e == STOP) {
                    break;
                }
                if (lines >= segment && out != null) {
                    out.close();
                    out = null;
                }
                if (lines >= segment) {
                    Files.move(file, file.resolveSibling(FILE + ".1"), StandardCopyOption.REPLACE_EXISTING);
                    lines = 0;
                }
                if (out == null) {
                    out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                }
                out.write(encode(e));
                out.write('\n');
                lines++;
                if (pending.isEmpty()) {
                    out.flush();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "event journal " + file + ": writing stopped: " + e.getMessage()
                    + " (events are still kept in memory)");
        } finally {
            if (out != null) {
                try {
                    out.close();
                } catch (IOException e) {
                    // nothing more to do
                }
            }
        }
    }

    /** Writes what is queued, then stops the writer (bounded wait). */
    @Override
    public void close() {
        Thread w;
        synchronized (this) {
            w = writer;
        }
        if (w != null && w.isAlive()) {
            try {
                if (pending.offer(STOP, 5, TimeUnit.SECONDS)) {
                    w.join(TimeUnit.SECONDS.toMillis(5));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            if (writer == w) {
                writer = null;
            }
        }
    }

    /** Waits (bounded) until every queued line is in the file; for tests and orderly stops. */
    void flush(long timeoutMillis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (pending != null && !pending.isEmpty() && System.nanoTime() < end) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
