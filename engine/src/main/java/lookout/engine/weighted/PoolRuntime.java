package lookout.engine.weighted;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import lookout.engine.config.ServiceTypeConfig;
import lookout.engine.config.WeightedFamily;
import lookout.engine.config.WeightedResource;
import lookout.engine.health.AdminState;
import lookout.engine.health.MonitorKey;

/**
 * The pools' running state per resource and family: the compiled plan, the monitors of each item,
 * the current DOWN set and live view. Engine-loop confined ({@link PoolsService} owns it); what the
 * answering threads read is {@link PoolAnswers}' published copy.
 */
final class PoolRuntime {

    private PoolRuntime() {
    }

    /**
     * admin_state keys {@code weighted!GLOB} force whole resources (SPEC: "force an address or a
     * resource"); every other key is a gdnsd monitor glob. A forced resource counts every item
     * UP (monitors ignored) or DOWN (then failover: answered as if all were UP, failure signalled),
     * with the forced TTL.
     */
    static final String RESOURCE_PREFIX = "weighted!";

    /** A family with its monitors per item and its current live view; engine-loop confined. */
    static final class Family {
        final String family;
        final FamilyPlan plan;
        final List<List<MonitorKey>> monitors; // per item
        boolean[] down;
        LiveFamily live;
        boolean announcedFailover;

        Family(String family, WeightedFamily config) {
            this.family = family;
            this.plan = new FamilyPlan(config);
            this.monitors = new ArrayList<>(plan.items());
            for (int i = 0; i < plan.items(); i++) {
                List<MonitorKey> keys = new ArrayList<>();
                for (String st : config.serviceTypes()) {
                    keys.add(new MonitorKey(plan.target(i), st, config.kind() == WeightedFamily.Kind.CNAME));
                }
                monitors.add(List.copyOf(keys));
            }
            this.down = new boolean[plan.items()];
            this.live = LiveFamily.of(plan, down);
        }
    }

    static final class Resource {
        final String name;
        final Family v4;
        final Family v6;
        final Family cname;
        final List<Family> families = new ArrayList<>();
        long monitorTtl = ServiceTypeConfig.TTL_MAX;
        /** Answers drawn, by any answerer; carried across reloads. */
        LongAdder answers = new LongAdder();
        AdminState.Entry forced; // a weighted!GLOB entry of admin_state, or null

        Resource(WeightedResource r) {
            this.name = r.name();
            this.v4 = r.v4() == null ? null : new Family("ipv4", r.v4());
            this.v6 = r.v6() == null ? null : new Family("ipv6", r.v6());
            this.cname = r.cnames() == null ? null : new Family("cname", r.cnames());
            for (Family f : new Family[] {v4, v6, cname}) {
                if (f != null) {
                    families.add(f);
                }
            }
        }
    }
}
