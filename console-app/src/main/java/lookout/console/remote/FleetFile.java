package lookout.console.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A fleet file: one engine URL a line; blank lines and {@code #} comments (whole lines, or after a
 * URL) ignored. The same URL twice is one engine.
 */
public final class FleetFile {

    private FleetFile() {
    }

    /** A line that is not an engine URL, or a file that cannot be read: the reason names the line. */
    public static final class FleetException extends Exception {
        private static final long serialVersionUID = 1L;

        FleetException(String message) {
            super(message);
        }
    }

    public static List<EngineUrl> read(Path file) throws FleetException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new FleetException("no fleet file " + file);
        } catch (IOException e) {
            throw new FleetException("the fleet file " + file + " cannot be read: " + e.getMessage());
        }
        return parse(text, file.toString());
    }

    public static List<EngineUrl> parse(String text, String name) throws FleetException {
        List<EngineUrl> out = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            try {
                EngineUrl u = EngineUrl.parse(line);
                if (out.stream().noneMatch(o -> o.base().equals(u.base()))) {
                    out.add(u);
                }
            } catch (EngineUrl.BadUrl e) {
                throw new FleetException(name + ":" + (i + 1) + ": " + e.getMessage());
            }
        }
        if (out.isEmpty()) {
            throw new FleetException(name + ": no engine URL in the file");
        }
        return out;
    }
}
