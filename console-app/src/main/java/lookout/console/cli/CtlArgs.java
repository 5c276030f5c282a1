package lookout.console.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The command line of {@code lookout ctl} ({@link Ctl#USAGE}), parsed and checked before anything
 * is sent: a command with the wrong operands, or an option for another command, is a
 * {@link UsageException} that names it (exit 2), never a request the engine would refuse.
 *
 * @param engine       {@code --engine}, null for the default
 * @param tokenFile    {@code --token-file}, null for the default
 * @param json         {@code --json}
 * @param command      the command ({@code help} for {@code --help})
 * @param operands     its operands, in order
 * @param force        {@code --force} (apply only)
 * @param confirmEmpty {@code --confirm-empty} (apply only)
 * @param follow       {@code --follow} (events only)
 * @param limit        {@code --limit} (audit only; 20 when not given)
 */
record CtlArgs(String engine, Path tokenFile, boolean json, String command, List<String> operands, boolean force,
               boolean confirmEmpty, boolean follow, int limit) {

    /** {@code argv}, everything after {@code ctl}, parsed and checked. */
    static CtlArgs parse(List<String> argv) throws UsageException {
        String engine = null;
        Path tokenFile = null;
        boolean json = false;
        boolean force = false;
        boolean confirmEmpty = false;
        boolean follow = false;
        int limit = -1;
        String command = null;
        List<String> operands = new ArrayList<>();
        for (int i = 0; i < argv.size(); i++) {
            String arg = argv.get(i);
            String name = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            switch (name) {
                case "--engine", "-e" -> {
                    if (engine != null) {
                        throw new UsageException("--engine given twice");
                    }
                    engine = inline != null ? inline : value(argv, ++i, name);
                }
                case "--token-file" -> {
                    if (tokenFile != null) {
                        throw new UsageException("--token-file given twice");
                    }
                    String v = inline != null ? inline : value(argv, ++i, name);
                    if (v.isEmpty()) {
                        throw new UsageException("--token-file needs a file name");
                    }
                    tokenFile = Path.of(v);
                }
                case "--json" -> json = flag(json, arg, inline);
                case "--force" -> force = flag(force, arg, inline);
                case "--confirm-empty" -> confirmEmpty = flag(confirmEmpty, arg, inline);
                case "--follow", "-f" -> follow = flag(follow, arg, inline);
                case "--limit", "-n" -> {
                    String v = inline != null ? inline : value(argv, ++i, name);
                    try {
                        limit = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        limit = 0;
                    }
                    if (limit < 1 || limit > 100_000) {
                        throw new UsageException("--limit takes a count from 1 to 100000, not '" + v + "'");
                    }
                }
                case "--help", "-h" -> command = command == null ? "help" : command;
                default -> {
                    if (arg.startsWith("-") && arg.length() > 1 && !isNumber(arg)) {
                        throw new UsageException("unknown option '" + arg + "'");
                    }
                    if (command == null) {
                        command = arg;
                    } else {
                        operands.add(arg);
                    }
                }
            }
        }
        if (command == null) {
            throw new UsageException("which command? (status, apply, diff, force, release, search, stop, ping, resolve,"
                    + " events, audit)");
        }
        if (command.equals("help")) {
            return new CtlArgs(engine, tokenFile, json, command, operands, force, confirmEmpty, follow, limit);
        }
        int[] arity = switch (command) {
            case "status", "ping", "events", "audit" -> new int[] {0, 0};
            case "apply", "diff", "release", "search", "stop" -> new int[] {1, 1};
            case "force" -> new int[] {2, 3};
            case "resolve" -> new int[] {1, 2};
            default -> throw new UsageException("unknown command '" + command + "'");
        };
        String what = switch (command) {
            case "apply", "diff" -> "a configuration FILE";
            case "release" -> "a KEY";
            case "search", "stop" -> "a PV name";
            case "force" -> "KEY UP|DOWN [TTL]";
            case "resolve" -> "NAME [TYPE]";
            default -> "nothing more";
        };
        if (operands.size() < arity[0] || operands.size() > arity[1]) {
            throw new UsageException(command + " takes " + what + (operands.size() > arity[1] && arity[1] > 0
                    ? "; unexpected '" + operands.get(arity[1]) + "'" : operands.size() > arity[1]
                    ? "; unexpected '" + operands.get(0) + "'" : ""));
        }
        if ((force || confirmEmpty) && !command.equals("apply")) {
            throw new UsageException((force ? "--force" : "--confirm-empty") + " applies to apply only");
        }
        if (follow && !command.equals("events")) {
            throw new UsageException("--follow applies to events only");
        }
        if (limit > 0 && !command.equals("audit")) {
            throw new UsageException("--limit applies to audit only");
        }
        if (command.equals("force")) {
            String state = operands.get(1).toUpperCase(Locale.ROOT);
            if (!state.equals("UP") && !state.equals("DOWN")) {
                throw new UsageException("force takes UP or DOWN, not '" + operands.get(1) + "'");
            }
            if (operands.size() == 3) {
                ttl(operands.get(2));
            }
        }
        return new CtlArgs(engine, tokenFile, json, command, List.copyOf(operands), force, confirmEmpty, follow,
                limit > 0 ? limit : 20);
    }

    private static boolean isNumber(String s) {
        try {
            Long.parseLong(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean flag(boolean seen, String arg, String inline) throws UsageException {
        if (inline != null) {
            throw new UsageException(arg.substring(0, arg.indexOf('=')) + " takes no value");
        }
        if (seen) {
            throw new UsageException(arg + " given twice");
        }
        return true;
    }

    private static String value(List<String> args, int i, String option) throws UsageException {
        if (i >= args.size() || args.get(i).startsWith("--")) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(i);
    }

    /** {@code 90}, {@code 90s}, {@code 5m}, {@code 2h}, {@code 1d}: a TTL of at least one second. */
    static Duration ttl(String s) throws UsageException {
        String t = s.strip().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("s")) {
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            unit = 60;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("h")) {
            unit = 3600;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("d")) {
            unit = 86_400;
            t = t.substring(0, t.length() - 1);
        }
        try {
            long n = Long.parseLong(t);
            if (n >= 1 && n <= 10L * 365 * 86_400 / unit) {
                return Duration.ofSeconds(n * unit);
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException("a TTL is a number of seconds, or like 90s, 5m, 2h (at most ten years), not '" + s + "'");
    }
}
