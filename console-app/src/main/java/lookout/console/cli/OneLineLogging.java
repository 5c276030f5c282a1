package lookout.console.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
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
 */
public final class OneLineLogging {

    private OneLineLogging() {
    }

    /** Replaces the root logger's handlers with one writing to {@code stream} at {@code level}. */
    public static void install(PrintStream stream, Invocation.LogLevel level) {
        Level jul = julLevel(level);
        LogManager.getLogManager().reset();
        Logger root = Logger.getLogger("");
        root.setLevel(jul);
        Handler h = new StreamHandler(stream);
        h.setLevel(jul);
        root.addHandler(h);
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
