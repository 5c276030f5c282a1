package lookout.console.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.ErrorManager;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Routes {@code java.util.logging} — and with it every {@code System.Logger} of the engine, which
 * the JDK backs with java.util.logging when that module is present — to one stream, one line per
 * record:
 *
 * <pre>2026-11-29T15:04:05.123Z INFO    lookout.status: status endpoint on http://127.0.0.1:9153/status</pre>
 *
 * UTC timestamps with milliseconds, the level padded to 7, the logger name, the message; a
 * throwable follows on the next lines. What journald, a container runtime or {@code grep} expect.
 *
 * <p>Records are handed to a writer thread through a bounded queue: the engine logs from its
 * event loop, which must never wait for a slow or blocked standard output (a pipe nobody
 * reads). When the queue is full, records are dropped and counted, and the count is logged once
 * the writer catches up.
 */
public final class OneLineLogging {

    /** Records waiting for the writer thread; beyond this they are dropped and counted. */
    static final int QUEUE_CAPACITY = 10_000;

    private static volatile AsyncHandler installed;

    private OneLineLogging() {
    }

    /**
     * Waits until every record logged so far is written, at most {@code timeout}; for the
     * shutdown path, before the process ends.
     */
    public static void drain(Duration timeout) {
        AsyncHandler h = installed;
        if (h != null) {
            h.drain(timeout);
        }
    }

    /** Replaces the root logger's handlers with one writing to {@code stream} at {@code level}. */
    public static void install(PrintStream stream, Invocation.LogLevel level) {
        Level jul = julLevel(level);
        LogManager.getLogManager().reset();
        Logger root = Logger.getLogger("");
        root.setLevel(jul);
        AsyncHandler h = new AsyncHandler(new StreamHandler(stream), QUEUE_CAPACITY);
        h.setLevel(jul);
        root.addHandler(h);
        AsyncHandler previous = installed;
        installed = h;
        if (previous != null) {
            previous.close();
        }
        // Netty logs through java.util.logging when nothing else is present; its DEBUG chatter
        // (leak detector settings, native transport probing) is noise at our DEBUG.
        Logger.getLogger("io.netty").setLevel(jul.intValue() < Level.INFO.intValue() ? Level.INFO : jul);
    }

    static Level julLevel(Invocation.LogLevel level) {
        return switch (level) {
            case ERROR -> Level.SEVERE;
            case WARNING -> Level.WARNING;
            case INFO -> Level.INFO;
            case DEBUG -> Level.FINE;
            case TRACE -> Level.FINEST;
        };
    }

    static String levelName(Level l) {
        int v = l.intValue();
        if (v >= Level.SEVERE.intValue()) {
            return "ERROR";
        }
        if (v >= Level.WARNING.intValue()) {
            return "WARNING";
        }
        if (v >= Level.INFO.intValue()) {
            return "INFO";
        }
        if (v >= Level.FINE.intValue()) {
            return "DEBUG";
        }
        return "TRACE";
    }

    /** The line format; public for the console, which may reuse it. */
    public static final class OneLineFormatter extends Formatter {
        @Override
        public String format(LogRecord r) {
            StringBuilder b = new StringBuilder(160);
            b.append(Instant.ofEpochMilli(r.getMillis())).append(' ');
            String level = levelName(r.getLevel());
            b.append(level).append(" ".repeat(Math.max(1, 8 - level.length())));
            b.append(r.getLoggerName() == null ? "-" : r.getLoggerName()).append(": ");
            b.append(formatMessage(r).replace("\n", "\n    ")).append('\n');
            if (r.getThrown() != null) {
                StringWriter sw = new StringWriter();
                r.getThrown().printStackTrace(new PrintWriter(sw));
                b.append(sw);
            }
            return b.toString();
        }
    }

    /**
     * Queues records for one daemon writer thread. Concurrency: {@code publish} from any thread
     * (the engine loop among them) only offers to the queue; the writer thread alone touches
     * {@code target}; {@code dropped} is shared through its atomic.
     */
    static final class AsyncHandler extends Handler {
        private final Handler target;
        private final BlockingQueue<LogRecord> queue;
        private final AtomicLong dropped = new AtomicLong();
        private final AtomicLong written = new AtomicLong();
        private final AtomicLong accepted = new AtomicLong();
        private final Thread writer;
        private volatile boolean closed;

        AsyncHandler(Handler target, int capacity) {
            this.target = target;
            this.queue = new ArrayBlockingQueue<>(capacity);
            this.writer = new Thread(this::writeLoop, "lookout-log");
            this.writer.setDaemon(true);
            this.writer.start();
        }

        @Override
        public void publish(LogRecord r) {
            if (closed || !isLoggable(r)) {
                return;
            }
            if (queue.offer(r)) {
                accepted.incrementAndGet();
            } else {
                dropped.incrementAndGet();
            }
        }

        private void writeLoop() {
            while (!closed || !queue.isEmpty()) {
                LogRecord r;
                try {
                    r = queue.poll(200, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    return;
                }
                if (r != null) {
                    target.publish(r);
                }
                // Said once the records accepted before the loss are out, so the note sits
                // where the gap is.
                if (queue.isEmpty()) {
                    long lost = dropped.getAndSet(0);
                    if (lost > 0) {
                        LogRecord note = new LogRecord(Level.WARNING, lost + " log records dropped: the log"
                                + " output did not keep up");
                        note.setLoggerName("lookout.log");
                        target.publish(note);
                    }
                }
                if (r != null) {
                    written.incrementAndGet();
                }
            }
        }

        /** Bounded wait until the writer has written everything accepted so far. */
        void drain(Duration timeout) {
            long target = accepted.get();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (written.get() < target && System.nanoTime() < deadline && writer.isAlive()) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        @Override
        public void flush() {
            // The writer flushes every record; nothing is buffered beyond the queue.
        }

        @Override
        public void close() {
            drain(Duration.ofSeconds(1));
            closed = true;
            target.flush();
        }
    }

    /** Flushes every record: a headless process may be killed right after. */
    private static final class StreamHandler extends Handler {
        private final PrintStream out;

        StreamHandler(PrintStream out) {
            this.out = out;
            setFormatter(new OneLineFormatter());
        }

        @Override
        public void publish(LogRecord r) {
            if (!isLoggable(r)) {
                return;
            }
            String line;
            try {
                line = getFormatter().format(r);
            } catch (RuntimeException e) {
                reportError("cannot format a log record", e, ErrorManager.FORMAT_FAILURE);
                return;
            }
            synchronized (out) {
                out.print(line);
                out.flush();
            }
        }

        @Override
        public void flush() {
            out.flush();
        }

        @Override
        public void close() {
            out.flush();
        }
    }
}
