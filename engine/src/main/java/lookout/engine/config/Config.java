package lookout.engine.config;

import java.nio.file.Path;
import java.util.Map;

/**
 * A whole, validated configuration: an immutable value. The engine keeps the effective copy it
 * runs on; live reload builds a new one, diffs it ({@link ConfigDiff}) and applies it atomically.
 *
 * @param source       the text it was built from
 * @param resolver     the {@code resolver} section
 * @param zones        the {@code zones} section: zone name (fully qualified, lower case) to zone
 * @param serviceTypes the {@code service_types} section, plus the built-in types
 * @param weighted     the {@code plugins => { weighted => ... }} stanza
 * @param pva          the {@code pva} section, environment variables already folded in
 * @param status       the {@code status} section
 * @param stateDir     {@code state_dir}, resolved against the file's directory
 */
public record Config(ConfigSource source,
                     ResolverConfig resolver,
                     Map<String, ZoneConfig> zones,
                     Map<String, ServiceTypeConfig> serviceTypes,
                     WeightedConfig weighted,
                     PvaConfig pva,
                     StatusConfig status,
                     Path stateDir) {

    public Config {
        zones = Map.copyOf(zones);
        serviceTypes = Map.copyOf(serviceTypes);
    }
}
