package lookout.engine.control;

import lookout.engine.api.Engine;

/** The engine's version as the build stamped it: the module's, else the jar's, else "unknown". */
final class ProductVersion {

    private ProductVersion() {
    }

    static String of() {
        Module m = Engine.class.getModule();
        if (m.isNamed() && m.getDescriptor() != null && m.getDescriptor().rawVersion().isPresent()) {
            return m.getDescriptor().rawVersion().get();
        }
        Package p = Engine.class.getPackage();
        if (p != null && p.getImplementationVersion() != null) {
            return p.getImplementationVersion();
        }
        return "unknown";
    }
}
