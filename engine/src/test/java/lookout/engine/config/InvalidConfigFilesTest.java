package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file under {@code config/invalid} is rejected with exactly the problems its first lines
 * announce: {@code # expect: LINE:COLUMN: message}, one line per problem, in file order.
 * {@code ${dir}} stands for the directory the files are in.
 */
class InvalidConfigFilesTest {

    private static final String EXPECT = "# expect: ";

    static Path dir() throws URISyntaxException {
        return Path.of(InvalidConfigFilesTest.class.getResource("/config/invalid").toURI());
    }

    static Stream<Path> files() throws IOException, URISyntaxException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.filter(p -> p.toString().endsWith(".conf")).sorted().toList().stream();
        }
    }

    @Test
    void thereAreAtLeastThirtyInvalidFiles() throws Exception {
        assertThat(files().count()).isGreaterThanOrEqualTo(30);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void rejectedWithTheAnnouncedProblems(Path file) throws Exception {
        String text = Files.readString(file);
        List<String> expected = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.startsWith(EXPECT)) {
                break;
            }
            expected.add(line.substring(EXPECT.length()).replace("${dir}", dir().toString()));
        }
        assertThat(expected).as("the file announces its problems").isNotEmpty();
        String name = file.getFileName().toString();

        ConfigResult result = new ConfigLoader(Map.of()).parse(text, name, dir());

        assertThat(result.ok()).isFalse();
        assertThat(result.problems()).extracting(p -> p.line() + ":" + p.column() + ": " + p.message())
                .containsExactlyElementsOf(expected);
        assertThat(result.problems()).allSatisfy(p -> {
            assertThat(p.file()).isEqualTo(name);
            assertThat(p.toString()).startsWith(name + ":" + p.line() + ":" + p.column() + ": ");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void loadNamesTheFileAsGiven(Path file) {
        ConfigResult result = new ConfigLoader(Map.of()).load(file);
        assertThat(result.ok()).isFalse();
        assertThat(result.problems()).allSatisfy(p -> assertThat(p.file()).isIn(file.toString(),
                dirString() + "/no-such-file.conf"));
    }

    private static String dirString() {
        try {
            return dir().toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
