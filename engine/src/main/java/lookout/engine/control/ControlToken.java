package lookout.engine.control;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;
import lookout.engine.core.AtomicFiles;

/**
 * {@code STATE_DIR/control.token}: the engine's own operator token, made at the first start with
 * a listener: 32 random bytes in URL-safe base64 without padding (43 characters, an RFC 6750
 * b64token), in a file created with mode 0600 — the temporary file it is written to has that mode
 * from its creation, and the rename keeps it — so no other user can ever read it. Whoever can
 * read it (root, the service's user) is an operator.
 */
public final class ControlToken {

    private static final Logger LOG = System.getLogger("lookout.status");

    public static final String FILE = "control.token";
    static final int BYTES = 32;

    private ControlToken() {
    }

    /**
     * The token in {@code stateDir}, made now when there is none. Always from a
     * {@link SecureRandom}: a credential never comes from the engine's (possibly seeded) random source.
     */
    public static String loadOrCreate(Path stateDir) throws IOException {
        Path f = stateDir.resolve(FILE);
        if (Files.exists(f)) {
            String t = Files.readString(f, StandardCharsets.US_ASCII).strip();
            if (t.length() < 16 || Authorizer.bearer("Bearer " + t) == null) {
                throw new IOException(f + " holds no usable token; delete it and restart to have a new one made");
            }
            warnIfShared(f);
            return t;
        }
        byte[] r = new byte[BYTES];
        new SecureRandom().nextBytes(r);
        String t = Base64.getUrlEncoder().withoutPadding().encodeToString(r);
        Files.createDirectories(stateDir);
        AtomicFiles.write(f, (t + "\n").getBytes(StandardCharsets.US_ASCII), AtomicFiles.OWNER_ONLY);
        LOG.log(Level.INFO, "made the operator token " + f + " (mode 0600)");
        return t;
    }

    private static void warnIfShared(Path f) {
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(f);
            if (p.contains(PosixFilePermission.GROUP_READ) || p.contains(PosixFilePermission.OTHERS_READ)) {
                LOG.log(Level.WARNING, f + " is readable by others than its owner: anyone who can read it is an "
                        + "operator (chmod 600 " + f + ")");
            }
        } catch (IOException | UnsupportedOperationException e) {
            // not a POSIX file system: nothing to check
        }
    }
}
