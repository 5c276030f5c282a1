package lookout.engine.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import lookout.engine.api.EngineState;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.Scheduler;
import lookout.engine.config.Config;

/**
 * The operator commands as the engine runs them, unaudited ({@link ActingEngine} audits the
 * writes among them): each hops onto the engine loop, finds the running service that implements
 * its {@link Commands} interface and completes with that service's answer.
 *
 * <p>Concurrency: callable from any thread; the bodies run on the engine loop.
 */
final class EngineCommands {

    /** Finds the running service implementing a command interface, on the engine loop. */
    interface Implementers {
        <T> T implementer(Class<T> type);
    }

    private final Supplier<EngineState> state;
    private final Supplier<Scheduler> scheduler;
    private final Implementers services;

    EngineCommands(Supplier<EngineState> state, Supplier<Scheduler> scheduler, Implementers services) {
        this.state = state;
        this.scheduler = scheduler;
        this.services = services;
    }

    CompletableFuture<ResolveTrace> resolve(String name, String type) {
        return command(Commands.Resolver.class, r -> r.resolve(name, type));
    }

    CompletableFuture<Void> force(String key, String st, Duration ttl) {
        return command(Commands.Pools.class, p -> {
            try {
                p.force(key, st, ttl);
                return CompletableFuture.completedFuture(null);
            } catch (Exception e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    CompletableFuture<Void> release(String key) {
        return command(Commands.Pools.class, p -> {
            try {
                p.release(key);
                return CompletableFuture.completedFuture(null);
            } catch (Exception e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    CompletableFuture<List<PoolsSnapshot.PoolResource>> whatIf(Map<String, String> hypothetical) {
        Map<String, String> copy = Map.copyOf(hypothetical);
        return command(Commands.Pools.class, p -> {
            try {
                return CompletableFuture.completedFuture(p.whatIf(copy));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    CompletableFuture<List<PoolsSnapshot.PoolResource>> candidateOdds(Config candidate) {
        Objects.requireNonNull(candidate, "candidate");
        return command(Commands.Pools.class, p -> {
            try {
                return CompletableFuture.completedFuture(p.oddsFor(candidate));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    CompletableFuture<Void> searchPv(String name) {
        return command(Commands.PvaClient.class, p -> {
            p.searchPv(name);
            return CompletableFuture.completedFuture(null);
        });
    }

    CompletableFuture<Void> dropPv(String name) {
        return command(Commands.PvaClient.class, p -> {
            p.dropPv(name);
            return CompletableFuture.completedFuture(null);
        });
    }

    CompletableFuture<Void> discoveryPing() {
        return command(Commands.PvaClient.class, p -> {
            p.discoveryPing();
            return CompletableFuture.completedFuture(null);
        });
    }

    CompletableFuture<lookout.engine.api.PvaChannelDiagnosis> diagnosePv(String name) {
        return command(Commands.PvaClient.class, p -> CompletableFuture.completedFuture(p.diagnose(name)));
    }

    CompletableFuture<Boolean> searchNow() {
        return command(Commands.PvaClient.class, p -> CompletableFuture.completedFuture(p.searchNow()));
    }

    private <C, R> CompletableFuture<R> command(Class<C> type, Function<C, CompletableFuture<R>> body) {
        EngineState st = state.get();
        if (st != EngineState.RUNNING) {
            return CompletableFuture.failedFuture(new IllegalStateException("engine is " + st));
        }
        CompletableFuture<R> result = new CompletableFuture<>();
        scheduler.get().execute(() -> {
            C target = services.implementer(type);
            if (target == null) {
                result.completeExceptionally(new IllegalStateException("no running service accepts "
                        + type.getSimpleName() + " commands"));
                return;
            }
            try {
                body.apply(target).whenComplete((v, e) -> {
                    if (e != null) {
                        result.completeExceptionally(e);
                    } else {
                        result.complete(v);
                    }
                });
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }
}
