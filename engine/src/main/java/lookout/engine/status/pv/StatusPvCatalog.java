package lookout.engine.status.pv;

import java.util.List;
import lookout.engine.pva.pvdata.NormativeTypes;
import lookout.engine.pva.pvdata.NormativeTypes.Column;
import lookout.engine.pva.pvdata.PvType;
import lookout.engine.pva.pvdata.ScalarKind;

/**
 * Every status PV, its type, its display and its alarm rule (issue 15; docs/design/status-pvs.md
 * lists the same). A name is the prefix and the suffix joined directly
 * ({@code LOOKOUT:demo:resolver:inflight}).
 */
final class StatusPvCatalog {

    private StatusPvCatalog() {
    }

    /** alarm_t severities (normative types' AlarmSeverity). */
    static final int NO_ALARM = 0;
    static final int MINOR = 1;
    static final int MAJOR = 2;
    static final int INVALID = 3;

    static final String[] SEVERITY_NAMES = {"NO_ALARM", "MINOR", "MAJOR", "INVALID"};

    /** seed 000 §4.6.5: the in-flight ceiling is 4 096; the issue alarms HIGH above 3 500. */
    static final int INFLIGHT_HIGH = 3500;
    static final int INFLIGHT_CEILING = 4096;

    /** Rows a table carries at most; its descriptor says when more exist. */
    static final int MAX_ROWS = 2000;

    sealed interface Def permits ScalarDef, TableDef {
        String suffix();

        String description();

        /** When it alarms, in words; empty when it never does. */
        String rule();

        PvType.Struct type();
    }

    /**
     * An NTScalar.
     *
     * @param low       display.limitLow (numeric only)
     * @param high      display.limitHigh; NaN: set at publication (the heap's maximum)
     * @param precision display.precision
     */
    record ScalarDef(String suffix, ScalarKind kind, String description, String units, double low, double high,
                     int precision, String rule) implements Def {
        @Override
        public PvType.Struct type() {
            return NormativeTypes.scalarType(kind);
        }
    }

    /** An NTTable. */
    record TableDef(String suffix, String description, List<Column> columns) implements Def {
        @Override
        public String rule() {
            return "";
        }

        @Override
        public PvType.Struct type() {
            return NormativeTypes.tableType(columns);
        }
    }

    private static ScalarDef count(String suffix, String description, String units, String rule) {
        return new ScalarDef(suffix, ScalarKind.INT, description, units, 0, 0, 0, rule);
    }

    private static Column col(String name, String label, ScalarKind kind) {
        return new Column(name, label, kind);
    }

    static final ScalarDef CONFIG_VERSION = count("config:version", "running configuration version", "", "");
    static final ScalarDef CONFIG_LAST_RELOAD = new ScalarDef("config:last_reload", ScalarKind.STRING,
            "last reload: OK or its first problem", "", 0, 0, 0, "");
    static final ScalarDef QUERIES_PER_S = new ScalarDef("resolver:queries_per_s", ScalarKind.DOUBLE,
            "client questions in the last second", "q/s", 0, 0, 1, "");
    static final ScalarDef INFLIGHT = new ScalarDef("resolver:inflight", ScalarKind.INT,
            "upstream transactions outstanding", "queries", 0, INFLIGHT_CEILING, 0,
            "MINOR (HIGH) above " + INFLIGHT_HIGH + " of " + INFLIGHT_CEILING);
    static final ScalarDef REFUSED_PER_MIN = count("resolver:refused_per_min",
            "questions refused at the in-flight ceiling in the last minute", "q/min", "");
    static final ScalarDef SERVERS_TOTAL = count("resolver:servers_total", "upstream servers of the scopes", "servers", "");
    static final ScalarDef SERVERS_HEALTHY = count("resolver:servers_healthy", "upstream servers not demoted", "servers", "");
    static final ScalarDef SERVERS_DEMOTED = count("resolver:servers_demoted", "upstream servers demoted now",
            "servers", "MINOR when any server is demoted, MAJOR when every server of a scope is");
    static final ScalarDef POOL_RESOURCES = count("pools:resources", "weighted resources", "resources", "");
    static final ScalarDef POOL_FAILOVER = count("pools:failover", "resource families in failover", "families",
            "MAJOR when any family is in failover");
    static final ScalarDef PVA_ONLINE = count("pva:servers_online", "PVA servers heard from recently", "servers", "");
    static final ScalarDef PVA_STALE = count("pva:servers_stale", "PVA servers silent for over 195 s", "servers", "");
    static final ScalarDef PVA_RESTARTS = count("pva:restarts_last_hour", "PVA server restarts seen in the last hour",
            "restarts", "");
    static final ScalarDef PVA_SEARCHING = count("pva:searching", "PV names still searched for", "channels", "");
    static final ScalarDef PVA_DUPLICATES = count("pva:duplicate_claims",
            "claims of a resolved name by another server in the last hour", "claims",
            "MINOR when any in the last hour");
    static final ScalarDef UPTIME = count("engine:uptime_s", "time since the engine started", "s", "");
    static final ScalarDef HEAP = new ScalarDef("engine:heap_used_mb", ScalarKind.DOUBLE, "Java heap in use", "MB", 0,
            Double.NaN, 1, "");

    static final TableDef SERVERS_TABLE = new TableDef("resolver:servers", "upstream servers by scope", List.of(
            col("scope", "scope", ScalarKind.STRING),
            col("server", "server", ScalarKind.STRING),
            col("state", "state", ScalarKind.STRING),
            col("mark_left_s", "mark s left", ScalarKind.DOUBLE),
            col("reason", "reason", ScalarKind.STRING),
            col("failures", "failures", ScalarKind.LONG),
            col("p50_ms", "p50 ms", ScalarKind.DOUBLE),
            col("p99_ms", "p99 ms", ScalarKind.DOUBLE)));
    static final TableDef POOL_ITEMS = new TableDef("pools:items", "weighted pool items and their odds", List.of(
            col("resource", "resource", ScalarKind.STRING),
            col("family", "family", ScalarKind.STRING),
            col("group", "group", ScalarKind.STRING),
            col("item", "item", ScalarKind.STRING),
            col("address", "address", ScalarKind.STRING),
            col("weight", "weight", ScalarKind.INT),
            col("monitored", "monitored", ScalarKind.STRING),
            col("forced", "forced", ScalarKind.BOOLEAN),
            col("effective", "effective", ScalarKind.STRING),
            col("odds", "odds", ScalarKind.DOUBLE)));
    static final TableDef PVA_SERVERS = new TableDef("pva:servers", "PVA servers seen (beacons, discovery)", List.of(
            col("guid", "GUID", ScalarKind.STRING),
            col("endpoint", "endpoint", ScalarKind.STRING),
            col("protocol", "protocol", ScalarKind.STRING),
            col("first_seen", "first seen", ScalarKind.STRING),
            col("last_seen", "last seen", ScalarKind.STRING),
            col("beacons", "beacons", ScalarKind.LONG),
            col("restarts", "restarts", ScalarKind.LONG),
            col("state", "state", ScalarKind.STRING)));
    static final TableDef PVA_CHANNELS = new TableDef("pva:channels", "PV names the engine searches or resolved",
            List.of(
                    col("name", "name", ScalarKind.STRING),
                    col("state", "state", ScalarKind.STRING),
                    col("attempts", "attempts", ScalarKind.INT),
                    col("server", "server", ScalarKind.STRING)));

    /** Every PV, in publication order. */
    static final List<Def> ALL = List.of(CONFIG_VERSION, CONFIG_LAST_RELOAD, QUERIES_PER_S, INFLIGHT,
            REFUSED_PER_MIN, SERVERS_TOTAL, SERVERS_HEALTHY, SERVERS_DEMOTED, POOL_RESOURCES, POOL_FAILOVER,
            PVA_ONLINE, PVA_STALE, PVA_RESTARTS, PVA_SEARCHING, PVA_DUPLICATES, UPTIME, HEAP,
            SERVERS_TABLE, POOL_ITEMS, PVA_SERVERS, PVA_CHANNELS);
}
