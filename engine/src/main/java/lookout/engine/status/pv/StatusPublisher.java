package lookout.engine.status.pv;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.StatusPvsSnapshot;
import lookout.engine.pva.pvdata.NormativeTypes;
import lookout.engine.pva.pvserve.HostedPv;
import lookout.engine.pva.pvserve.PvHost;
import lookout.engine.status.pv.StatusModel.Reading;
import lookout.engine.status.pv.StatusPvCatalog.Def;
import lookout.engine.status.pv.StatusPvCatalog.ScalarDef;
import lookout.engine.status.pv.StatusPvCatalog.TableDef;
import lookout.engine.status.pv.TableBuilder.Table;

/**
 * The status PVs under one prefix on the engine's PV server: each reading becomes a post when the
 * PV's value or alarm changed since its last post, or as a heartbeat when {@link #HEARTBEAT_NANOS}
 * passed without one (only the time stamp then changes). Called at most four times a second per
 * PV (the service's tick), which is Phoebus's own throttle. Pure but for the PV server it posts to;
 * {@code now} is given. Engine loop.
 */
final class StatusPublisher {

    /** The longest a subscriber waits for word from a PV. */
    static final long HEARTBEAT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private static final class Entry {
        final Def def;
        final HostedPv pv;
        final Object[] display;
        Reading last;
        long lastPost;

        Entry(Def def, HostedPv pv, Object[] display) {
            this.def = def;
            this.pv = pv;
            this.display = display;
        }
    }

    private final PvHost host;
    private final String prefix;
    private final List<Entry> entries = new ArrayList<>();

    /**
     * Publishes every PV of the catalog under {@code prefix} with its first reading.
     *
     * @param heapMaxMb the heap's maximum, engine:heap_used_mb's display.limitHigh
     */
    StatusPublisher(PvHost host, String prefix, List<Reading> first, Instant wall, long now, double heapMaxMb) {
        this.host = host;
        this.prefix = prefix;
        List<Def> defs = StatusPvCatalog.ALL;
        for (int i = 0; i < defs.size(); i++) {
            Def d = defs.get(i);
            Object[] display = d instanceof ScalarDef s ? display(s, heapMaxMb) : null;
            HostedPv pv = host.publish(prefix + d.suffix(), d.type(), value(d, display, first.get(i), wall));
            Entry e = new Entry(d, pv, display);
            e.last = first.get(i);
            e.lastPost = now;
            entries.add(e);
        }
    }

    String prefix() {
        return prefix;
    }

    /** Posts what changed; heartbeats what has been quiet for {@link #HEARTBEAT_NANOS}. */
    void update(List<Reading> readings, Instant wall, long now) {
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            Reading r = readings.get(i);
            BitSet changed = changes(e, r);
            if (changed.isEmpty() && now - e.lastPost < HEARTBEAT_NANOS) {
                continue;
            }
            changed.set(e.def instanceof TableDef ? NormativeTypes.TABLE_TIME : NormativeTypes.SCALAR_TIME);
            e.last = r;
            e.lastPost = now;
            host.post(e.pv, value(e.def, e.display, r, wall), changed);
        }
    }

    /** The top-level members whose content differs between the last post and {@code r}. */
    private static BitSet changes(Entry e, Reading r) {
        BitSet b = new BitSet();
        Reading l = e.last;
        boolean table = e.def instanceof TableDef;
        if (table) {
            Table a = (Table) l.value();
            Table c = (Table) r.value();
            if (!Arrays.deepEquals(a.columns(), c.columns())) {
                b.set(NormativeTypes.TABLE_VALUE);
            }
            if (a.rows() != c.rows() || a.total() != c.total()) {
                b.set(NormativeTypes.TABLE_DESCRIPTOR);
            }
        } else if (!Objects.equals(l.value(), r.value())) {
            b.set(NormativeTypes.SCALAR_VALUE);
        }
        if (l.severity() != r.severity() || l.status() != r.status() || !l.message().equals(r.message())) {
            b.set(table ? NormativeTypes.TABLE_ALARM : NormativeTypes.SCALAR_ALARM);
        }
        return b;
    }

    /** Withdraws every PV of this prefix (their channels are destroyed). */
    void withdraw() {
        for (Entry e : entries) {
            host.withdraw(e.pv.name());
        }
        entries.clear();
    }

    private static Object[] value(Def def, Object[] display, Reading r, Instant wall) {
        Object[] alarm = NormativeTypes.alarm(r.severity(), r.status(), r.message());
        Object[] time = NormativeTypes.time(wall.getEpochSecond(), wall.getNano());
        if (def instanceof TableDef t) {
            Table tab = (Table) r.value();
            String[] labels = new String[t.columns().size()];
            for (int i = 0; i < labels.length; i++) {
                labels[i] = t.columns().get(i).label();
            }
            String descriptor = t.description() + (tab.rows() < tab.total()
                    ? " (the first " + tab.rows() + " of " + tab.total() + " rows)" : "");
            return new Object[] {labels, tab.columns(), descriptor, alarm, time};
        }
        return new Object[] {r.value(), alarm, time, display};
    }

    private static Object[] display(ScalarDef s, double heapMaxMb) {
        return switch (s.kind()) {
            case STRING, BOOLEAN -> new Object[] {s.description(), s.units()};
            case DOUBLE -> new Object[] {s.low(), Double.isNaN(s.high()) ? heapMaxMb : s.high(), s.description(),
                    s.units(), s.precision()};
            default -> new Object[] {(int) s.low(), (int) s.high(), s.description(), s.units(), s.precision()};
        };
    }

    /** The PVs as the engine snapshot shows them. */
    List<StatusPvsSnapshot.Pv> describe() {
        List<StatusPvsSnapshot.Pv> out = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            Reading r = e.last;
            String type;
            String text;
            if (e.def instanceof ScalarDef s) {
                type = "NTScalar " + s.kind().word();
                text = r.value() instanceof Double d ? String.format(Locale.ROOT, "%." + s.precision() + "f", d)
                        : String.valueOf(r.value());
            } else {
                Table t = (Table) r.value();
                type = "NTTable";
                text = t.total() + (t.total() == 1 ? " row" : " rows");
            }
            out.add(new StatusPvsSnapshot.Pv(e.pv.name(), type, text, StatusPvCatalog.SEVERITY_NAMES[r.severity()],
                    r.message(), e.def.rule(), e.pv.subscribers()));
        }
        return out;
    }
}
