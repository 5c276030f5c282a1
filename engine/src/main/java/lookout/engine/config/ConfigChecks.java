package lookout.engine.config;

import java.util.List;

/** The cross-section checks {@link ConfigLoader} runs on a bound candidate, in order. */
public final class ConfigChecks {

    private ConfigChecks() {
    }

    public static List<ConfigCheck> all() {
        // Each service work item that validates across sections adds its check here
        // (for example the zone compiler: zone files parse, DYNA/DYNC resources exist).
        return List.of(
                new lookout.engine.dns.zone.ZoneCheck());
    }
}
