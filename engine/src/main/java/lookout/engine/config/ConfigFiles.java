package lookout.engine.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** How the configuration's files are read: strict UTF-8, a leading byte-order mark dropped. */
final class ConfigFiles {

    private ConfigFiles() {
    }

    /** Strict UTF-8: a file in another encoding is an error, not silently mangled text. */
    static String readUtf8(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
            // A byte-order mark (some Windows editors write one) is not part of the first key.
            return text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (CharacterCodingException e) {
            throw new IOException("not valid UTF-8 text", e);
        }
    }
}
