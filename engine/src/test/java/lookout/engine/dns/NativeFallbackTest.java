package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the native library cannot be loaded, the engine says why and reads UDP through Netty
 * under {@code --udp-reads auto}, and refuses to start under {@code native}: {@link
 * NativeFallbackScenario} in a JVM of its own (the library loads once per JVM), whose temporary
 * directory is a plain file — nowhere to unpack the library to, as with a {@code noexec /tmp}.
 * Netty's own epoll library gets a working directory of its own, so that only ours is missing.
 */
class NativeFallbackTest {

    @Test
    void withoutTheLibraryTheResolverReadsThroughNettyAndSaysWhy(@TempDir Path tmp) throws Exception {
        Path notADirectory = Files.writeString(tmp.resolve("not-a-directory"), "x");
        Path nettyWork = Files.createDirectories(tmp.resolve("netty"));
        String text = lookout.engine.Netns.run("ip link set lo up",
                java.util.List.of("-Djava.net.preferIPv4Stack=false", "-Djava.io.tmpdir=" + notADirectory,
                        "-Dio.netty.native.workdir=" + nettyWork),
                NativeFallbackScenario.class, tmp.resolve("work").toString());
        assertThat(text).as(text).doesNotContain("FAIL ")
                .contains("unavailable: liblookoutnet.so could not be unpacked: no private directory in the temporary directory")
                .contains("read natively: false", "PASS answered through Netty", "PASS native reads refused");
    }
}
