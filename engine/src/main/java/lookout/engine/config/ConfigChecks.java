package lookout.engine.config;

import java.util.List;
import java.util.ServiceLoader;

/**
 * The cross-section checks {@link ConfigLoader} runs on a bound candidate. They belong to the
 * services that know the sections' meaning (the zone compiler: zone files parse, DYNA/DYNC
 * resources exist) and are found as service providers of {@link ConfigCheck} — declared in the
 * engine's module descriptor ({@code provides}) and, for class-path runs, in
 * {@code META-INF/services} — so the configuration room depends on no service (no package cycle).
 */
public final class ConfigChecks {

    private ConfigChecks() {
    }

    private static final class Found {
        static final List<ConfigCheck> CHECKS = ServiceLoader.load(ConfigCheck.class, ConfigCheck.class.getClassLoader())
                .stream().map(ServiceLoader.Provider::get)
                // a stable order whatever the class path's: by class name
                .sorted(java.util.Comparator.comparing(c -> c.getClass().getName()))
                .toList();
    }

    public static List<ConfigCheck> all() {
        return Found.CHECKS;
    }
}
