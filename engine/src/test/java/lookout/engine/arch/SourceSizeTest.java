package lookout.engine.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The renovation's size limits (issue 13) as a rule over every module of the repository: no main
 * source file over 700 lines and no {@code *Service} over 500, so that no room grows back into
 * the 1 400-line service nobody could change safely. Counted as {@code wc -l} counts.
 */
class SourceSizeTest {

    static final int MAX_LINES = 700;
    static final int MAX_SERVICE_LINES = 500;

    @Test
    void noMainSourceOfAnyModuleIsOverItsLimit() throws IOException {
        Path root = repositoryRoot();
        List<Path> sources = mainSources(root);
        // against a vacuous pass: the walk found the engine's and the console's sources
        assertThat(sources).hasSizeGreaterThan(300)
                .anyMatch(p -> p.endsWith(Path.of("engine/src/main/java/lookout/engine/dns/Resolver.java")))
                .anyMatch(p -> p.endsWith(Path.of("console-app/src/main/java/lookout/console/cli/Ctl.java")));
        assertThat(overLimit(sources)).as("main sources over %d lines (%d for a *Service)", MAX_LINES, MAX_SERVICE_LINES)
                .isEmpty();
    }

    @Test
    void theRuleCatchesAFileOverEachLimit(@TempDir Path dir) throws IOException {
        Path big = write(dir.resolve("m/src/main/java/a/Big.java"), MAX_LINES + 1);
        write(dir.resolve("m/src/main/java/a/Fits.java"), MAX_LINES);
        Path service = write(dir.resolve("m/src/main/java/a/ThingService.java"), MAX_SERVICE_LINES + 1);
        write(dir.resolve("m/src/main/java/a/SmallService.java"), MAX_SERVICE_LINES);
        write(dir.resolve("m/src/test/java/a/HugeTest.java"), 5 * MAX_LINES); // tests are not main sources
        assertThat(overLimit(mainSources(dir))).containsExactlyInAnyOrder(
                big + ": " + (MAX_LINES + 1) + " lines", service + ": " + (MAX_SERVICE_LINES + 1) + " lines");
    }

    /** Each main source over its limit, as {@code PATH: N lines}. */
    static List<String> overLimit(List<Path> sources) {
        List<String> over = new ArrayList<>();
        for (Path p : sources) {
            long n = lines(p);
            boolean service = p.getFileName().toString().endsWith("Service.java");
            if (n > (service ? MAX_SERVICE_LINES : MAX_LINES)) {
                over.add(p + ": " + n + " lines");
            }
        }
        return over;
    }

    /** Every Java file under a {@code src/main/java} below {@code root}, build output left out. */
    static List<Path> mainSources(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> {
                String path = p.toString().replace('\\', '/');
                return path.endsWith(".java") && path.contains("/src/main/java/") && !path.contains("/target/")
                        && !path.contains("/.git/");
            }).sorted().toList();
        }
    }

    /** Newline characters, as {@code wc -l}. */
    private static long lines(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8).chars().filter(c -> c == '\n').count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path write(Path p, int lines) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, "//\n".repeat(lines));
        return p;
    }

    /** The directory holding the parent POM and the engine module (Surefire runs in engine/). */
    private static Path repositoryRoot() {
        Path d = Path.of("").toAbsolutePath();
        for (int i = 0; i < 4 && d != null; i++, d = d.getParent()) {
            if (Files.isDirectory(d.resolve("engine/src/main/java")) && Files.isDirectory(d.resolve("console-app"))) {
                return d;
            }
        }
        throw new AssertionError("no repository root above " + Path.of("").toAbsolutePath());
    }
}
