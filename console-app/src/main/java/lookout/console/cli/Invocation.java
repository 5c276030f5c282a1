package lookout.console.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.EngineOptions.TransportChoice;
import lookout.engine.api.EngineOptions.UdpReads;

/**
 * What the {@code lookout} command line asks for, parsed and checked: which mode, which
 * configuration file (null = the embedded default) and the log level of the headless mode.
 *
 * <p>Grammar: {@code lookout [--config FILE]} | {@code lookout --headless [--config FILE]
 * [--log-level LEVEL]} | {@code lookout --check-config FILE} | {@code --help} | {@code --version}.
 * The console and headless modes also take {@code --transport} and {@code --udp-reads}, the I/O
 * choices of {@link EngineOptions}. Options also take the {@code --option=value} form.
 */
public record Invocation(Mode mode, Path config, LogLevel logLevel, TransportChoice transport, UdpReads udpReads) {

    public Invocation(Mode mode, Path config, LogLevel logLevel) {
        this(mode, config, logLevel, TransportChoice.AUTO, UdpReads.AUTO);
    }

    /** The engine options this command line asks for, on top of {@code base}. */
    public EngineOptions engineOptions(EngineOptions base) {
        return base.withTransport(transport).withUdpReads(udpReads);
    }

    /** The five things the launcher can do. */
    public enum Mode {
        /** The JavaFX console (embedded default, or {@code --config FILE}). */
        CONSOLE,
        /** The engine alone until SIGTERM, logging to standard output. */
        HEADLESS,
        /** Validate a file: exit 0, or 1 after printing each problem. */
        CHECK_CONFIG,
        HELP,
        VERSION
    }

    /** Log levels an operator types, mapped onto java.util.logging's. */
    public enum LogLevel {
        ERROR, WARNING, INFO, DEBUG, TRACE;

        static LogLevel parse(String s) throws UsageException {
            try {
                return valueOf(s.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new UsageException("unknown log level '" + s + "' (error, warning, info, debug, trace)");
            }
        }
    }

    /** Exit status for a command line we cannot make sense of (as BSD's EX_USAGE family uses 2). */
    public static final int EXIT_USAGE = 2;

    public static final String USAGE = """
            Usage:
              lookout                          open the console on the embedded default configuration
              lookout --config FILE            open the console on FILE
              lookout --headless [--config FILE] [--log-level LEVEL]
                                               run the engine alone until SIGTERM; log to standard output
                                               (without --config: the embedded default)
              lookout --check-config FILE      validate FILE: exit 0, or print each problem as
                                               FILE:LINE:COLUMN: message and exit 1
              lookout --help                   this text
              lookout --version                the version

            The console and --headless also take:
              --transport auto|epoll|nio       the engine's sockets: epoll where it loads (auto, the default),
                                               or insist on one
              --udp-reads auto|netty|native    how the resolver reads UDP: natively from udp_threads 2 up or
                                               on a wildcard address (auto, the default), or insist on one

            LEVEL is one of error, warning, info (default), debug, trace.
            Exit status: 0 success, 1 invalid configuration or engine failure, 2 bad command line.
            """;

    /** Parses {@code args}; throws {@link UsageException} with a one-line reason when they make no sense. */
    public static Invocation parse(List<String> args) throws UsageException {
        Mode mode = null;
        Path config = null;
        boolean configSeen = false;
        LogLevel level = null;
        TransportChoice transport = null;
        UdpReads udpReads = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            switch (name) {
                case "--help", "-h" -> mode = only(mode, Mode.HELP, arg, inline);
                case "--version", "-V" -> mode = only(mode, Mode.VERSION, arg, inline);
                case "--headless" -> mode = only(mode, Mode.HEADLESS, arg, inline);
                case "--check-config" -> {
                    mode = only(mode, Mode.CHECK_CONFIG, name, null);
                    String v = inline != null ? inline : value(args, ++i, name);
                    config = path(v, name);
                }
                case "--config", "-c" -> {
                    if (configSeen) {
                        throw new UsageException("--config given twice");
                    }
                    configSeen = true;
                    String v = inline != null ? inline : value(args, ++i, name);
                    config = path(v, name);
                }
                case "--log-level" -> {
                    if (level != null) {
                        throw new UsageException("--log-level given twice");
                    }
                    level = LogLevel.parse(inline != null ? inline : value(args, ++i, name));
                }
                case "--transport" -> {
                    if (transport != null) {
                        throw new UsageException("--transport given twice");
                    }
                    String v = inline != null ? inline : value(args, ++i, name);
                    try {
                        transport = TransportChoice.parse(v);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("unknown transport '" + v + "' (auto, epoll, nio)");
                    }
                }
                case "--udp-reads" -> {
                    if (udpReads != null) {
                        throw new UsageException("--udp-reads given twice");
                    }
                    String v = inline != null ? inline : value(args, ++i, name);
                    try {
                        udpReads = UdpReads.parse(v);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("unknown UDP read mode '" + v + "' (auto, netty, native)");
                    }
                }
                default -> throw new UsageException(arg.startsWith("-") ? "unknown option '" + arg + "'"
                        : "unexpected argument '" + arg + "' (a configuration file goes after --config)");
            }
        }
        if (mode == null) {
            mode = Mode.CONSOLE;
        }
        if (mode == Mode.CHECK_CONFIG && configSeen) {
            throw new UsageException("--check-config takes its file itself; drop --config");
        }
        if ((mode == Mode.HELP || mode == Mode.VERSION) && (configSeen || level != null || transport != null
                || udpReads != null)) {
            throw new UsageException("--" + mode.name().toLowerCase(Locale.ROOT) + " takes no other option");
        }
        if (level != null && mode != Mode.HEADLESS) {
            throw new UsageException("--log-level applies to --headless only");
        }
        if ((transport != null || udpReads != null) && mode == Mode.CHECK_CONFIG) {
            throw new UsageException((transport != null ? "--transport" : "--udp-reads")
                    + " applies to the console and --headless only");
        }
        return new Invocation(mode, config, level == null ? LogLevel.INFO : level,
                transport == null ? TransportChoice.AUTO : transport, udpReads == null ? UdpReads.AUTO : udpReads);
    }

    private static Mode only(Mode current, Mode next, String arg, String inline) throws UsageException {
        if (inline != null) {
            throw new UsageException(arg.substring(0, arg.indexOf('=')) + " takes no value");
        }
        if (current != null) {
            throw new UsageException(flag(current) + " and " + flag(next) + " cannot be combined");
        }
        return next;
    }

    private static String flag(Mode m) {
        return "--" + m.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static String value(List<String> args, int i, String option) throws UsageException {
        if (i >= args.size() || (args.get(i).startsWith("--") && args.get(i).length() > 2)) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(i);
    }

    private static Path path(String v, String option) throws UsageException {
        if (v.isEmpty()) {
            throw new UsageException(option + " needs a file name");
        }
        try {
            return Path.of(v);
        } catch (java.nio.file.InvalidPathException e) {
            throw new UsageException(option + ": not a file name: " + v);
        }
    }
}
