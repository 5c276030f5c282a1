package lookout.engine.dns.listen;

import java.util.List;
import lookout.engine.config.Cidr;
import lookout.engine.dns.answer.LocalZones;

/**
 * What a UDP listener needs to answer a local question on its own thread, published whole on
 * start and reload: the engine's parsed zones (shared, immutable: each listener makes its own memo
 * over them), the allow list, and whether search domains apply to single-label names (then such a
 * name is the resolver's: its candidates may lie elsewhere).
 */
public record LoopView(LocalZones zones, List<Cidr> allow, boolean searchesSingleLabels) {
}
