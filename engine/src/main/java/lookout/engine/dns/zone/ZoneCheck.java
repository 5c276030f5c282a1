package lookout.engine.dns.zone;

import lookout.engine.config.Config;
import lookout.engine.config.ConfigCheck;
import lookout.engine.config.ConfigProblems;
import lookout.engine.config.ZoneConfig;
import lookout.engine.config.vscf.Position;

/**
 * The zones' cross-section check (a {@link lookout.engine.config.ConfigCheck} provider): every
 * zone parses, reported at the zone file's FILE:LINE:COLUMN, and every DYNA/DYNC passes gdnsd's
 * {@code map_res} rules ({@link lookout.engine.config.WeightedConfig#checkUse}): the resource exists,
 * DYNA does not name a CNAME resource, a DYNC's CNAME targets are not inside its own zone.
 */
public final class ZoneCheck implements ConfigCheck {

    @Override
    public void check(Config candidate, ConfigProblems problems) {
        for (ZoneConfig zc : candidate.zones().values()) {
            ZoneParser.Result r = ZoneParser.parse(zc);
            for (ZoneParser.Problem p : r.problems()) {
                problems.add(new Position(p.file(), p.line(), p.column()), "zones." + zc.origin(), p.message());
            }
            if (r.zone() == null) {
                continue;
            }
            for (var e : r.zone().nodes().entrySet()) {
                Zone.Dyn d = e.getValue().dyn();
                if (d == null) {
                    continue;
                }
                Position pos = new Position(d.file(), d.line(), d.column());
                String kind = d.dync() ? "DYNC" : "DYNA";
                String problem = candidate.weighted() == null
                        ? "plugin_weighted: unknown resource '" + d.resource() + "'"
                        : candidate.weighted().checkUse(d.resource(), zc.origin(), !d.dync());
                if (problem != null) {
                    problems.add(pos, "zones." + zc.origin(), kind + " at " + e.getKey() + ": " + problem);
                }
            }
        }
    }
}
