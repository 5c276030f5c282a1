package lookout.console.cli;

import java.nio.file.Path;
import java.util.ArrayList;
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
 * [--log-level LEVEL]} | {@code lookout --check-config FILE} | {@code lookout --attach URL [URL…]
 * [--token-file FILE]} | {@code lookout --fleet FILE [--token-file FILE]} | {@code lookout ctl …}
 * (the rest of the line is {@link Ctl}'s) | {@code --help} | {@code --version}. The console and
 * headless modes also take {@code --transport} and {@code --udp-reads}, the I/O choices of
 * {@link EngineOptions}. Options also take the {@code --option=value} form.
 *
 * @param attach    the engine URLs of {@code --attach} (one: {@link Mode#ATTACH}; several: {@link Mode#FLEET})
 * @param fleet     the {@code --fleet} file (one URL a line, {@code #} comments), or null
 * @param tokenFile the {@code --token-file} of an attached console, or null
 * @param ctlArgs   for {@link Mode#CTL}: everything after {@code ctl}
 */
public record Invocation(Mode mode, Path config, LogLevel logLevel, TransportChoice transport, UdpReads udpReads,
                         List<String> attach, Path fleet, Path tokenFile, List<String> ctlArgs) {

    public Invocation {
        attach = attach == null ? List.of() : List.copyOf(attach);
        ctlArgs = ctlArgs == null ? List.of() : List.copyOf(ctlArgs);
    }

    public Invocation(Mode mode, Path config, LogLevel logLevel) {
        this(mode, config, logLevel, TransportChoice.AUTO, UdpReads.AUTO);
    }

    public Invocation(Mode mode, Path config, LogLevel logLevel, TransportChoice transport, UdpReads udpReads) {
        this(mode, config, logLevel, transport, udpReads, List.of(), null, null, List.of());
    }

    /** The engine options this command line asks for, on top of {@code base}. */
    public EngineOptions engineOptions(EngineOptions base) {
        return base.withTransport(transport).withUdpReads(udpReads);
    }

    /** The things the launcher can do. */
    public enum Mode {
        /** The JavaFX console (embedded default, or {@code --config FILE}). */
        CONSOLE,
        /** The JavaFX console on a running engine ({@code --attach URL}): no engine of its own. */
        ATTACH,
        /** The fleet view of several running engines ({@code --attach URL URL…} or {@code --fleet FILE}). */
        FLEET,
        /** {@code lookout ctl …}: the control command, no JavaFX, no engine. */
        CTL,
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
              lookout --attach URL [--token-file FILE]
                                               open the console on a running engine (no engine of its own);
                                               without an operator's token the console is read-only
              lookout --attach URL URL... [--token-file FILE]
              lookout --fleet FILE [--token-file FILE]
                                               the fleet view: one row per engine, live (FILE: one URL a
                                               line, # comments); open any of them in a full console
              lookout ctl [--engine URL] [--token-file FILE] [--json] COMMAND
                                               control a running engine: status, diff, apply, force, release,
                                               search, stop, ping, resolve, events, audit
                                               (lookout ctl --help for each)
              lookout --help                   this text
              lookout --version                the version

            The console and --headless also take:
              --transport auto|epoll|nio       the engine's sockets: epoll where it loads (auto, the default),
                                               or insist on one
              --udp-reads auto|netty|native    how the resolver reads UDP: natively from udp_threads 2 up or
                                               on a wildcard address (auto, the default), or insist on one;
                                               netty also reads the PVA server's unicast sockets by Netty

            URL is http://HOST:PORT or https://HOST:PORT (HOST[:PORT] alone: http://, port 9153). Without
            --token-file an engine on loopback gets ~/.lookout/state/control.token or
            /var/lib/lookout/control.token when readable; a token never goes over plain HTTP beyond loopback.
            LEVEL is one of error, warning, info (default), debug, trace.
            Exit status: 0 success, 1 invalid configuration, engine failure, or a refused or failed request,
            2 bad command line.
            """;

    /** Parses {@code args}; throws {@link UsageException} with a one-line reason when they make no sense. */
    public static Invocation parse(List<String> args) throws UsageException {
        if (!args.isEmpty() && args.get(0).equals("ctl")) {
            return new Invocation(Mode.CTL, null, LogLevel.INFO, TransportChoice.AUTO, UdpReads.AUTO, List.of(), null, null,
                    args.subList(1, args.size()));
        }
        Mode mode = null;
        List<String> attach = new ArrayList<>();
        boolean attachSeen = false;
        Path fleet = null;
        Path tokenFile = null;
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
                case "--attach" -> {
                    if (attachSeen) {
                        throw new UsageException("--attach given twice (list every URL after one --attach)");
                    }
                    attachSeen = true;
                    if (inline != null) {
                        attach.add(inline);
                    }
                    while (i + 1 < args.size() && !args.get(i + 1).startsWith("-")) {
                        attach.add(args.get(++i));
                    }
                    if (attach.isEmpty()) {
                        throw new UsageException("--attach needs an engine URL");
                    }
                }
                case "--fleet" -> {
                    if (fleet != null) {
                        throw new UsageException("--fleet given twice");
                    }
                    fleet = path(inline != null ? inline : value(args, ++i, name), name);
                }
                case "--token-file" -> {
                    if (tokenFile != null) {
                        throw new UsageException("--token-file given twice");
                    }
                    tokenFile = path(inline != null ? inline : value(args, ++i, name), name);
                }
                case "ctl" -> throw new UsageException("ctl comes first: lookout ctl [--engine URL] COMMAND");
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
        if (attachSeen || fleet != null) {
            if (attachSeen && fleet != null) {
                throw new UsageException("--attach and --fleet cannot be combined (list the URLs in the fleet file)");
            }
            if (mode != null || configSeen || level != null || transport != null || udpReads != null) {
                String other = mode != null ? flag(mode) : configSeen ? "--config" : level != null ? "--log-level"
                        : transport != null ? "--transport" : "--udp-reads";
                throw new UsageException((attachSeen ? "--attach" : "--fleet") + " and " + other
                        + " cannot be combined: an attached console runs no engine of its own");
            }
            return new Invocation(fleet == null && attach.size() == 1 ? Mode.ATTACH : Mode.FLEET, null, LogLevel.INFO,
                    TransportChoice.AUTO, UdpReads.AUTO, attach, fleet, tokenFile, List.of());
        }
        if (tokenFile != null) {
            throw new UsageException("--token-file applies to --attach and --fleet (and to lookout ctl)");
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
