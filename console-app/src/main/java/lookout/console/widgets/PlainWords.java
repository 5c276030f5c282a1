package lookout.console.widgets;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what the engine and the platform say in a programmer's words (a Java exception's name, a
 * system call's error number, a seed citation) into an operator's: {@code
 * java.net.PortUnreachableException: recvAddress(..) failed with error(-111)} becomes "the server
 * refused it: nothing listens on that port". The raw text is never thrown away: panes keep it
 * behind a "details" disclosure ({@link #hasDetails}).
 *
 * <p>A table from causes to words, tried in order; the first cause found in the text wins. A text
 * with no known cause keeps its words, only stripped of exception class names and citations.
 *
 * <p>Pure: no toolkit, no state; any thread.
 */
public final class PlainWords {

    /** One cause: how to recognise it, and what it means for an operator. */
    record Cause(Pattern pattern, String words) {
        Cause(String regex, String words) {
            this(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), words);
        }
    }

    /**
     * Causes, most specific first. Error numbers are Linux's (Netty's native transport reports
     * {@code error(-N)}); the exception names are the JDK's and Netty's.
     */
    static final List<Cause> CAUSES = List.of(
            new Cause("PortUnreachable|error\\(-111\\)|ECONNREFUSED|Connection refused",
                    "refused: nothing listens on that port"),
            new Cause("error\\(-113\\)|EHOSTUNREACH|No route to host|NoRouteToHost",
                    "the host cannot be reached (no route to it)"),
            new Cause("error\\(-101\\)|ENETUNREACH|Network is unreachable|Network unreachable",
                    "the network cannot be reached from this machine"),
            new Cause("error\\(-98\\)|EADDRINUSE|Address already in use|BindException",
                    "the port is already in use by another program"),
            new Cause("error\\(-99\\)|EADDRNOTAVAIL|Cannot assign requested address",
                    "this machine has no such address to use"),
            new Cause("error\\(-97\\)|EAFNOSUPPORT|Address family not supported|Protocol family unavailable",
                    "that kind of address (IPv4 or IPv6) cannot be used from here"),
            new Cause("error\\(-(?:1|13)\\)|EACCES|EPERM|Permission denied|Operation not permitted",
                    "not permitted by this machine (a firewall, or a broadcast or low port without the right)"),
            new Cause("error\\(-104\\)|ECONNRESET|Connection reset",
                    "the other side dropped the connection"),
            new Cause("error\\(-110\\)|ETIMEDOUT|timed out|TimeoutException|\\btimeout\\b",
                    "no answer in time"),
            new Cause("error\\(-90\\)|EMSGSIZE|Message too long",
                    "too big to send in one packet"),
            new Cause("UnknownHostException|Name or service not known|nodename nor servname",
                    "the name is not known"),
            new Cause("ClosedChannelException|Socket closed|EBADF|error\\(-9\\)",
                    "the connection was already closed"),
            new Cause("SSLHandshakeException|PKIX path|certificate",
                    "the engine's certificate is not trusted here"),
            new Cause("HttpTimeoutException|ConnectException",
                    "the engine did not answer (is it running, and is the address right?)"));

    /** A Java class name with its package, as in {@code java.net.PortUnreachableException: }. */
    private static final Pattern CLASS_NAME = Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error)\\b:?\\s*");
    /** A bare exception name ({@code PortUnreachableException: }). */
    private static final Pattern BARE_NAME = Pattern.compile("\\b[A-Z][A-Za-z0-9]*(?:Exception|Error)\\b:?\\s*");
    /** A native call's trace ({@code recvAddress(..) failed with error(-111)}). */
    private static final Pattern NATIVE = Pattern.compile("\\b[a-zA-Z]+\\(\\.\\.\\) failed(?: with error\\(-?\\d+\\))?:?\\s*");
    /** A design citation ({@code (seed 002 §3.2)}, {@code seed 000 §4.6.2}). */
    private static final Pattern CITATION = Pattern.compile("\\s*\\(?\\bseed \\d{3}(?: §[\\d.]+)?\\)?");

    private PlainWords() {
    }

    /** The cause's plain words when {@code raw} names a known cause, else null. */
    public static String cause(String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        for (Cause c : CAUSES) {
            if (c.pattern().matcher(raw).find()) {
                return c.words();
            }
        }
        return null;
    }

    /**
     * {@code raw} in an operator's words: the text before the first exception or native-call trace
     * is kept ("upstream 192.0.2.53:53:"), what follows is replaced by the cause's words when one is
     * known; class names and seed citations are removed in any case.
     */
    public static String of(String raw) {
        if (raw == null) {
            return "";
        }
        String words = cause(raw);
        String text = raw;
        if (words != null) {
            int cut = firstTechnical(raw);
            if (cut >= 0) {
                String head = raw.substring(0, cut).strip();
                if (head.endsWith(":")) {
                    head = head.substring(0, head.length() - 1).strip();
                }
                text = head.isEmpty() ? capitalise(words) : head + ": " + words;
            }
            // no exception or system call in it: the engine's own words already say it
        }
        text = CLASS_NAME.matcher(text).replaceAll("");
        text = BARE_NAME.matcher(text).replaceAll("");
        text = NATIVE.matcher(text).replaceAll("");
        text = CITATION.matcher(text).replaceAll("");
        text = text.replaceAll("\\s{2,}", " ").strip();
        return text.isEmpty() ? raw.strip() : text;
    }

    /** True when {@link #of} changed something, so that the raw text is worth a "details" disclosure. */
    public static boolean hasDetails(String raw) {
        return raw != null && !of(raw).equals(raw.strip());
    }

    private static int firstTechnical(String raw) {
        int best = -1;
        for (Pattern p : List.of(CLASS_NAME, NATIVE)) {
            Matcher m = p.matcher(raw);
            if (m.find() && (best < 0 || m.start() < best)) {
                best = m.start();
            }
        }
        return best;
    }

    private static String capitalise(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
