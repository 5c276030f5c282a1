package lookout.engine.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NativeLibrary}: the library the build put among the classes loads here; and every way it
 * can fail to (another platform, missing, not a library, nowhere to unpack it) gives a reason
 * instead of an exception. (The failures are tried on libraries that cannot load: nothing is
 * loaded twice into this JVM.)
 */
class NativeLibraryTest {

    @TempDir
    Path tmp;

    @Test
    void theLibraryTheBuildMadeLoadsFromTheClassPath() {
        String platform = NativeLibrary.platform(System.getProperty("os.name"), System.getProperty("os.arch"));
        org.junit.jupiter.api.Assumptions.assumeTrue(platform != null && NativeLibrary.class.getResource(NativeLibrary.resource(platform)) != null,
                "no liblookoutnet.so built for this platform (-Dlookout.native.skip=true, or not Linux x86-64/AArch64)");
        assertThat(Transport.nativeDatagramsUnavailable()).isNull();
        assertThat(Udp.nativeUnavailable()).isNull();
    }

    @Test
    void platformsAreLinuxOnX86AndArm64Only() {
        assertThat(NativeLibrary.platform("Linux", "amd64")).isEqualTo("linux-x86_64");
        assertThat(NativeLibrary.platform("Linux", "x86_64")).isEqualTo("linux-x86_64");
        assertThat(NativeLibrary.platform("Linux", "aarch64")).isEqualTo("linux-aarch64");
        assertThat(NativeLibrary.platform("Linux", "riscv64")).isNull();
        assertThat(NativeLibrary.platform("Mac OS X", "aarch64")).isNull();
        assertThat(NativeLibrary.resource("linux-aarch64")).isEqualTo("/lookout/engine/net/native/linux-aarch64/liblookoutnet.so");
    }

    @Test
    void aMissingLibraryIsAReason() {
        String why = NativeLibrary.load("linux-riscv64", () -> null, tmp);
        assertThat(why).contains("liblookoutnet.so is not in the JVM's library path").contains("linux-riscv64");
    }

    /**
     * A library built for another architecture (ours, its ELF machine changed): the dynamic
     * loader refuses it before mapping anything, and the JVM sees a non-executable stack asked for,
     * so it says nothing either.
     */
    @Test
    void aLibraryOfAnotherArchitectureIsAReasonAndNothingIsLeftBehind() throws IOException {
        String platform = NativeLibrary.platform(System.getProperty("os.name"), System.getProperty("os.arch"));
        byte[] other;
        try (var in = platform == null ? null : NativeLibrary.class.getResourceAsStream(NativeLibrary.resource(platform))) {
            org.junit.jupiter.api.Assumptions.assumeTrue(in != null, "no liblookoutnet.so built for this platform");
            other = in.readAllBytes();
        }
        int machine = platform.equals("linux-x86_64") ? 183 : 62; // e_machine: EM_AARCH64, EM_X86_64
        other[18] = (byte) machine; // little-endian, both
        other[19] = 0;
        String why = NativeLibrary.load(platform, () -> new ByteArrayInputStream(other), tmp);
        assertThat(why).contains("could not be loaded");
        try (var left = Files.list(tmp)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void nowhereToUnpackIsAReason() throws IOException {
        Path notADirectory = Files.writeString(tmp.resolve("file"), "x");
        String why = NativeLibrary.load("linux-x86_64",
                () -> new ByteArrayInputStream(new byte[] {0x7f, 'E', 'L', 'F'}), notADirectory);
        assertThat(why).contains("no private directory in " + notADirectory);
    }
}
