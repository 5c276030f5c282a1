package lookout.engine.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;

/**
 * The process {@link KillDuringApplyTest} kills: an engine on {@code FILE} that applies the texts of
 * {@code A} and {@code B} in turn, for ever, each written back to {@code FILE}; one line per apply.
 * {@code ApplyLoop FILE A B}.
 */
public final class ApplyLoop {

    private ApplyLoop() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        String a = Files.readString(Path.of(args[1]));
        String b = Files.readString(Path.of(args[2]));
        ConfigResult r = new ConfigLoader(Map.of()).load(file);
        if (!r.ok()) {
            System.out.println("invalid " + r.problems());
            System.exit(3);
        }
        Engine engine = Engines.create(EngineOptions.defaults().withEnvironment(Map.of())
                .withUdpReads(EngineOptions.UdpReads.NETTY).withPvaForwarding(false));
        engine.start(r.config());
        System.out.println("started " + engine.snapshot().config().version());
        System.out.flush();
        boolean onA = r.config().source().text().equals(a);
        while (true) {
            ApplyOutcome o = engine.applyText(onA ? b : a, ApplyRequest.plain());
            if (!o.applied() || o.saved() == null) {
                System.out.println("refused " + o.status() + ": " + o.message());
                System.exit(4);
            }
            onA = !onA;
            System.out.println("applied " + o.version());
            System.out.flush();
        }
    }
}
