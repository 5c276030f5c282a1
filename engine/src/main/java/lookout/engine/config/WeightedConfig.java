package lookout.engine.config;

import java.util.Set;

/**
 * The gdnsd {@code plugins => { weighted => ... }} stanza. Owned by the weighted-pools work;
 * this is its seam: zones ask it whether a {@code DYNA}/{@code DYNC} resource exists.
 */
public record WeightedConfig(Set<String> addressResources, Set<String> cnameResources) {

    public WeightedConfig {
        addressResources = Set.copyOf(addressResources);
        cnameResources = Set.copyOf(cnameResources);
    }

    public static WeightedConfig empty() {
        return new WeightedConfig(Set.of(), Set.of());
    }

    public boolean hasResource(String name) {
        return addressResources.contains(name) || cnameResources.contains(name);
    }

    public boolean isCnameResource(String name) {
        return cnameResources.contains(name);
    }
}
