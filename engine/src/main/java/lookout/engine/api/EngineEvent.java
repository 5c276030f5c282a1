package lookout.engine.api;

import java.time.Instant;
import java.util.List;

/**
 * Something that happened in the engine, in the order it happened. Every event says when, from
 * which subsystem, how severe, and a one-line message fit for the console's Events pane.
 */
public sealed interface EngineEvent {

    Instant at();

    Subsystem subsystem();

    Severity severity();

    String message();

    // ---- lifecycle and configuration ----

    record EngineStarted(Instant at, long configVersion) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.ENGINE; }
        public Severity severity() { return Severity.INFO; }
        public String message() { return "engine started on configuration version " + configVersion; }
    }

    record EngineStopped(Instant at) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.ENGINE; }
        public Severity severity() { return Severity.INFO; }
        public String message() { return "engine stopped"; }
    }

    record ConfigApplied(Instant at, long version, String hash, List<String> changes) implements EngineEvent {
        public ConfigApplied {
            changes = List.copyOf(changes);
        }
        public Subsystem subsystem() { return Subsystem.CONFIG; }
        public Severity severity() { return Severity.NOTICE; }
        public String message() {
            return "configuration version " + version + " applied (" + changes.size() + " change"
                    + (changes.size() == 1 ? "" : "s") + ")";
        }
    }

    record ConfigRejected(Instant at, List<String> errors) implements EngineEvent {
        public ConfigRejected {
            errors = List.copyOf(errors);
        }
        public Subsystem subsystem() { return Subsystem.CONFIG; }
        public Severity severity() { return Severity.WARNING; }
        public String message() {
            return "configuration rejected, running configuration kept: "
                    + (errors.isEmpty() ? "" : errors.get(0)) + (errors.size() > 1 ? " (+" + (errors.size() - 1) + " more)" : "");
        }
    }

    // ---- resolver ----

    /** seed 000 §4.6.3: an upstream address was demoted (or its mark renewed) until {@code until}. */
    record UpstreamDemoted(Instant at, String address, String reason, Instant until, boolean renewed) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.RESOLVER; }
        public Severity severity() { return Severity.WARNING; }
        public String message() {
            return "upstream " + address + (renewed ? " demotion renewed: " : " demoted: ") + reason;
        }
    }

    /** A used NOERROR/NXDOMAIN reply cleared an address's mark, or the mark ran out. */
    record UpstreamRestored(Instant at, String address, String how) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.RESOLVER; }
        public Severity severity() { return Severity.INFO; }
        public String message() { return "upstream " + address + " restored (" + how + ")"; }
    }

    // ---- pools and monitors ----

    record MonitorStateChanged(Instant at, String target, String serviceType, String from, String to) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.MONITOR; }
        public Severity severity() { return "DOWN".equals(to) ? Severity.WARNING : Severity.INFO; }
        public String message() { return target + "/" + serviceType + " " + from + " -> " + to; }
    }

    record ForcedStateChanged(Instant at, String key, String state, String detail) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.POOLS; }
        public Severity severity() { return Severity.NOTICE; }
        public String message() { return "forced state " + key + " = " + state + (detail.isEmpty() ? "" : " (" + detail + ")"); }
    }

    record PoolFailover(Instant at, String resource, String family, boolean inFailover) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.POOLS; }
        public Severity severity() { return inFailover ? Severity.WARNING : Severity.INFO; }
        public String message() {
            return "pool " + resource + (family.isEmpty() ? "" : " (" + family + ")")
                    + (inFailover ? " entered failover: live weight below up_thresh" : " left failover");
        }
    }

    // ---- PVA ----

    record PvaServerFound(Instant at, String guid, String endpoint, String via) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.PVA_CLIENT; }
        public Severity severity() { return Severity.INFO; }
        public String message() { return "PVA server " + endpoint + " found (" + via + ", GUID " + guid + ")"; }
    }

    record PvaServerLost(Instant at, String guid, String endpoint) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.PVA_CLIENT; }
        public Severity severity() { return Severity.WARNING; }
        public String message() { return "PVA server " + endpoint + " lost (no beacon, GUID " + guid + ")"; }
    }

    record PvaServerRestarted(Instant at, String endpoint, String oldGuid, String newGuid) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.PVA_CLIENT; }
        public Severity severity() { return Severity.WARNING; }
        public String message() { return "PVA server " + endpoint + " restarted (GUID " + oldGuid + " -> " + newGuid + ")"; }
    }

    record PvResolved(Instant at, String name, String guid, String endpoint) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.PVA_CLIENT; }
        public Severity severity() { return Severity.INFO; }
        public String message() { return "PV " + name + " resolved to " + endpoint; }
    }

    /** seed 002 §3.5 step 5: a second server claims a name already resolved; reported, never re-resolved. */
    record DuplicatePvClaim(Instant at, String name, String resolvedGuid, String resolvedEndpoint,
                            String otherGuid, String otherEndpoint) implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.PVA_CLIENT; }
        public Severity severity() { return Severity.ERROR; }
        public String message() {
            return "duplicate PV name " + name + ": claimed by " + otherEndpoint + " (GUID " + otherGuid
                    + ") but resolved to " + resolvedEndpoint + " (GUID " + resolvedGuid + ")";
        }
    }

    // ---- control ----

    /**
     * A write was asked of the engine and recorded in {@code STATE_DIR/audit.log}, accepted or
     * refused (see {@link AuditRecord}); {@code summary} is the action and its arguments in words.
     */
    record AuditRecorded(Instant at, String token, String peer, String action, String summary, String result)
            implements EngineEvent {
        public Subsystem subsystem() { return Subsystem.STATUS; }
        public Severity severity() {
            return result.equals("ok") || result.startsWith("ok:") ? Severity.NOTICE : Severity.WARNING;
        }
        public String message() {
            return summary + " by " + (token == null ? "" : token + " at ") + peer + ": " + result;
        }
    }

    // ---- anything else ----

    /** A free-form event for conditions without a record of their own (send errors, table full, ...). */
    record Notice(Instant at, Subsystem subsystem, Severity severity, String message) implements EngineEvent {
    }
}
