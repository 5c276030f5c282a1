package lookout.engine.config;

import java.util.Map;
import java.util.Set;
import lookout.engine.config.vscf.VNode;

/**
 * The gdnsd {@code plugins => { weighted => ... }} stanza. Owned by the weighted-pools work;
 * this is its seam: zones ask it whether a {@code DYNA}/{@code DYNC} resource exists.
 */
public record WeightedConfig(Set<String> addressResources, Set<String> cnameResources) {

    public WeightedConfig {
        addressResources = Set.copyOf(addressResources);
        cnameResources = Set.copyOf(cnameResources);
    }

    /**
     * Binds {@code plugins => { weighted => ... }} with gdnsd's rules (seed 001), reporting each
     * problem to {@code problems}. {@code stanza} is null when the file has no weighted stanza.
     * SKELETON: the weighted-pools work implements it.
     */
    public static WeightedConfig bind(VNode.Hash stanza, Map<String, ServiceTypeConfig> serviceTypes,
                                      ConfigProblems problems) {
        return empty();
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
