package lookout.engine.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The text a configuration was built from: its name as shown in errors (a path, or
 * {@code <embedded default>}), the directory relative paths resolve against, the text itself and
 * its SHA-256.
 */
public record ConfigSource(String name, Path baseDir, String text, String sha256) {

    public static ConfigSource of(String name, Path baseDir, String text) {
        return new ConfigSource(name, baseDir, text, sha256(text));
    }

    static String sha256(String text) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first 12 hex digits of the hash, for display. */
    public String shortHash() {
        return sha256.substring(0, 12);
    }
}
