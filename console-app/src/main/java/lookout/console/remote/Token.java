package lookout.console.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A bearer token read from a file (the engine's {@code STATE_DIR/control.token}, or one named in
 * its configuration). The secret never leaves this class except as the {@code Authorization}
 * header: {@link #toString()} names the file only, and no message quotes the file's contents.
 */
public final class Token {

    /** Token files larger than this are not token files. */
    static final int MAX_BYTES = 4096;

    private final String secret;
    private final Path file;

    private Token(String secret, Path file) {
        this.secret = secret;
        this.file = file;
    }

    /** A token file that cannot be used, with the reason (never its contents). */
    public static final class TokenException extends Exception {
        private static final long serialVersionUID = 1L;

        TokenException(String message) {
            super(message);
        }
    }

    /** Reads the token in {@code file}: one line, surrounding white space ignored. */
    public static Token read(Path file) throws TokenException {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new TokenException("the token file " + file + " is larger than a token (" + MAX_BYTES + " bytes at most)");
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new TokenException("no token file " + file);
        } catch (AccessDeniedException e) {
            throw new TokenException("the token file " + file + " cannot be read (permission denied)");
        } catch (IOException e) {
            throw new TokenException("the token file " + file + " cannot be read: " + e.getMessage());
        }
        String s = new String(bytes, StandardCharsets.UTF_8).strip();
        if (s.isEmpty()) {
            throw new TokenException("the token file " + file + " is empty");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=';
            if (!ok) {
                // RFC 6750 b64token; say where, never what
                throw new TokenException("the token file " + file + " holds a character a bearer token cannot have"
                        + " (position " + (i + 1) + ")");
            }
        }
        return new Token(s, file);
    }

    /**
     * The files the contract names as the default token, in order: {@code ~/.lookout/state/control.token}
     * (the embedded default's state directory) and {@code /var/lib/lookout/control.token} (the service's).
     */
    public static List<Path> defaultFiles(Map<String, String> env) {
        List<Path> out = new ArrayList<>();
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        if (home != null && !home.isEmpty()) {
            out.add(Path.of(home, ".lookout", "state", "control.token"));
        }
        out.add(Path.of("/var/lib/lookout/control.token"));
        return out;
    }

    /** The first readable default token file's token, or null (no default token is no error). */
    public static Token readDefault(Map<String, String> env) {
        for (Path p : defaultFiles(env)) {
            if (Files.isReadable(p)) {
                try {
                    return read(p);
                } catch (TokenException e) {
                    // an unusable default is the same as none: reads on loopback still work
                }
            }
        }
        return null;
    }

    /** The {@code Authorization} header value. */
    String header() {
        return "Bearer " + secret;
    }

    /** Where it was read from. */
    public Path file() {
        return file;
    }

    @Override
    public String toString() {
        return "token from " + file;
    }
}
