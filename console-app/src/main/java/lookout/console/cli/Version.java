package lookout.console.cli;

/** The version the launcher reports: the module's, as the build stamped it. */
public final class Version {

    private Version() {
    }

    public static String of(Class<?> anchor) {
        Module m = anchor.getModule();
        if (m.isNamed() && m.getDescriptor() != null && m.getDescriptor().rawVersion().isPresent()) {
            return m.getDescriptor().rawVersion().get();
        }
        Package p = anchor.getPackage();
        if (p != null && p.getImplementationVersion() != null) {
            return p.getImplementationVersion();
        }
        return "unknown";
    }

    /** {@code lookout 0.1.0 (Java 17.0.15, Debian)}. */
    public static String line(Class<?> anchor) {
        return "lookout " + of(anchor) + " (Java " + Runtime.version() + ", " + System.getProperty("java.vendor")
                + ")";
    }
}
