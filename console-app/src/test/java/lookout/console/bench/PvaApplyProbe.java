package lookout.console.bench;

import lookout.console.pva.PvaViewModel;
import lookout.engine.api.EngineSnapshot;

/** Times PvaViewModel.onSnapshot alone (no toolkit) on the benchmark's snapshots: where the FX thread's time goes. */
public final class PvaApplyProbe {
    public static void main(String[] args) {
        ConsoleUiBench.SyntheticEngine engine = new ConsoleUiBench.SyntheticEngine();
        engine.running = true;
        PvaViewModel vm = new PvaViewModel(null);
        for (int i = 0; i < 40; i++) {
            EngineSnapshot s = engine.snapshot();
            long t = System.nanoTime();
            vm.onSnapshot(s);
            long dt = System.nanoTime() - t;
            if (i >= 30) {
                System.out.printf("apply %.1f ms%n", dt / 1e6);
            }
        }
    }
}
