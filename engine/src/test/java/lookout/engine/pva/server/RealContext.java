package lookout.engine.pva.server;

import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lookout.engine.core.TestServiceContext;
import lookout.engine.pva.udp.PortOwner;
import lookout.engine.seams.PvaPorts;

/**
 * A production-like service context: real clock, and the engine loop is the Netty I/O loop (as
 * the engine runs with a real clock), with sibling services registered by the test.
 */
final class RealContext extends TestServiceContext {

    /** The engine's owner of the PVA UDP ports, as the composition root makes it. */
    final PortOwner ports = new PortOwner();

    RealContext(Map<String, String> env) {
        super(null, new SplittableRandom(), Path.of(System.getProperty("java.io.tmpdir")), env);
        ports.start(this, null);
        register(PvaPorts.class, ports);
    }

    @Override
    public void close() {
        ports.stop();
        super.close();
    }

    <T> T onLoop(Callable<T> body) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        scheduler.execute(() -> {
            try {
                f.complete(body.call());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f.get(30, TimeUnit.SECONDS);
    }
}
