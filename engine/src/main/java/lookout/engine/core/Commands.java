package lookout.engine.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import lookout.engine.api.ResolveTrace;

/** Operator commands, implemented by the service that owns the state; called on the engine loop. */
public final class Commands {

    private Commands() {
    }

    public interface Resolver {
        CompletableFuture<ResolveTrace> resolve(String name, String type);
    }

    public interface Pools {
        void force(String key, String state, Duration ttl) throws Exception;

        void release(String key) throws Exception;

        /** Odds for a hypothetical state map (glob key to UP/DOWN), nothing applied. */
        java.util.List<lookout.engine.api.PoolsSnapshot.PoolResource> whatIf(java.util.Map<String, String> hypothetical);

        /** Odds a candidate configuration's weighted stanza would give under today's monitor and forced states. */
        java.util.List<lookout.engine.api.PoolsSnapshot.PoolResource> oddsFor(lookout.engine.config.Config candidate);
    }

    public interface PvaClient {
        void searchPv(String name);

        void dropPv(String name);

        void discoveryPing();

        boolean searchNow();

        /** What the client knows of one PV name (a read). */
        default lookout.engine.api.PvaChannelDiagnosis diagnose(String name) {
            throw new UnsupportedOperationException("no PV diagnosis here");
        }
    }
}
