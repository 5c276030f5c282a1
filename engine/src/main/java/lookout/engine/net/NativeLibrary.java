package lookout.engine.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Supplier;

/**
 * Finds and loads {@code liblookoutnet.so}, the JNI library behind {@link NativeDatagram}, once
 * per JVM, on first use; and says why not where it cannot (docs/adr/0002-native-datagrams.md).
 *
 * <p>Where it is looked for, in order:
 * <ol>
 *   <li>the JVM's own library directories ({@code System.loadLibrary}): the runtime image's
 *       {@code lib/}, where jlink/build-image.sh puts it, so that the image unpacks nothing;</li>
 *   <li>the engine's classes ({@code lookout/engine/net/native/linux-ARCH/liblookoutnet.so}, in
 *       the engine jar and every jar made from it, and in {@code target/classes} for the tests),
 *       unpacked into a fresh private directory under the temporary directory, loaded and deleted
 *       at once — as Netty does with its epoll library.</li>
 * </ol>
 * Another OS or architecture, a library missing from both places, a temporary directory mounted
 * {@code noexec} or unwritable, or a library of another build (its {@link NativeDatagram#abi()})
 * all leave {@link #unavailable()} saying so; the engine then reads UDP through Netty.
 */
final class NativeLibrary {

    static final String NAME = "lookoutnet";

    private NativeLibrary() {
    }

    /** Why the library cannot be used in this JVM, or null when it is loaded. Never throws. */
    static String unavailable() {
        return Once.REASON;
    }

    /** Loaded at most once: a class initialised on the first question. */
    private static final class Once {
        static final String REASON = loadOnce();
    }

    /**
     * The platforms the library is built for. Tried in turn rather than read off {@code os.name} /
     * {@code os.arch}: the engine reads no system property outside its options, and the loader
     * itself is the better judge — a library of another architecture or OS does not load.
     */
    static final java.util.List<String> PLATFORMS = java.util.List.of("linux-x86_64", "linux-aarch64");

    private static String loadOnce() {
        try {
            StringBuilder why = new StringBuilder();
            for (String platform : PLATFORMS) {
                String r = load(platform, () -> NativeLibrary.class.getResourceAsStream(resource(platform)), null);
                if (r == null) {
                    return checkAbi();
                }
                if (why.length() > 0) {
                    why.append("; ");
                }
                why.append(r);
                if (!r.contains("is not in the JVM's library path")) {
                    break; // this platform's library was there and would not load: say why
                }
            }
            return why.toString();
        } catch (Throwable t) { // never out of here: the engine falls back to Netty
            return "liblookoutnet.so could not be loaded: " + words(t);
        }
    }

    /** {@code linux-x86_64} or {@code linux-aarch64}; null for a platform the library is not built for. */
    static String platform(String os, String arch) {
        if (!os.equals("Linux")) {
            return null;
        }
        return switch (arch) {
            case "amd64", "x86_64" -> "linux-x86_64";
            case "aarch64" -> "linux-aarch64";
            default -> null;
        };
    }

    /** Where the library lies among the engine's classes (engine/src/main/c/build.sh puts it there). */
    static String resource(String platform) {
        return "/lookout/engine/net/native/" + platform + "/lib" + NAME + ".so";
    }

    /**
     * Loads the library from the JVM's library directories, else from {@code resource} unpacked
     * into {@code tmp} (null: the JVM's temporary directory); null when loaded, else why not.
     */
    static String load(String platform, Supplier<InputStream> resource, Path tmp) {
        String fromPath;
        try {
            System.loadLibrary(NAME);
            return null;
        } catch (UnsatisfiedLinkError e) {
            fromPath = e.getMessage();
        }
        try (InputStream in = resource.get()) {
            if (in == null) {
                return "lib" + NAME + ".so is not in the JVM's library path (" + fromPath
                        + ") nor among the engine's classes for " + platform;
            }
            return unpackAndLoad(in, tmp);
        } catch (IOException | UncheckedIOException e) {
            return "lib" + NAME + ".so could not be unpacked: " + words(e);
        }
    }

    private static String unpackAndLoad(InputStream in, Path tmp) throws IOException {
        Path dir;
        try {
            dir = tmp == null ? Files.createTempDirectory("lookout-native") : Files.createTempDirectory(tmp, "lookout-native");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "lib" + NAME + ".so could not be unpacked: no private directory in "
                    + (tmp == null ? "the temporary directory" : tmp) + " (" + words(e) + ")";
        }
        Path file = dir.resolve("lib" + NAME + ".so");
        try {
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            System.load(file.toAbsolutePath().toString());
            return null;
        } catch (UnsatisfiedLinkError e) {
            // a noexec mount: "failed to map segment from shared object"
            return "lib" + NAME + ".so unpacked to " + dir + " could not be loaded: " + e.getMessage();
        } finally {
            // mapped once loaded: the file is not needed any more (Linux)
            try {
                Files.deleteIfExists(file);
                Files.deleteIfExists(dir);
            } catch (IOException e) {
                // a leftover in the temporary directory, nothing worse
            }
        }
    }

    /** What an operator reads of a failure: its message (the kind only when it has none). */
    private static String words(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
    }

    private static String checkAbi() {
        try {
            int abi = NativeDatagram.abi();
            return abi == NativeDatagram.ABI ? null
                    : "lib" + NAME + ".so is of another build (interface " + abi + ", the engine's is " + NativeDatagram.ABI + ")";
        } catch (UnsatisfiedLinkError e) {
            return "lib" + NAME + ".so is of another build: " + e.getMessage();
        }
    }
}
