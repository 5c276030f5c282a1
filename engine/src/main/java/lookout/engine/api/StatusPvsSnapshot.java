package lookout.engine.api;

import java.util.List;

/**
 * The engine's status PVs ({@code status.pv_prefix}; docs/design/status-pvs.md): what is published,
 * the alarm each PV carries now, and who watches.
 *
 * @param prefix          the prefix the names start with
 * @param served          the engine's PVA server and its TCP port are on, so the PVs can be found and read
 * @param notServed       why they cannot be, when {@code served} is false (else null)
 * @param connections     client connections holding channels now
 * @param channels        channels open now
 * @param monitors        MONITOR subscriptions alive now
 * @param updatesSent     monitor updates sent since start
 * @param malformed       connections closed for malformed or hostile input since start
 * @param slowClients     connections closed for not reading since start
 * @param refused         channels, operations and connections refused at a limit, and writes refused, since start
 * @param pvs             every PV, in publication order
 */
public record StatusPvsSnapshot(String prefix, boolean served, String notServed, int connections, int channels,
                                int monitors, long updatesSent, long malformed, long slowClients, long refused,
                                List<Pv> pvs) {

    public StatusPvsSnapshot {
        pvs = List.copyOf(pvs);
    }

    /**
     * One PV.
     *
     * @param name     its full name
     * @param type     {@code NTScalar double}, {@code NTScalar int}, {@code NTScalar string} or {@code NTTable}
     * @param value    the value as text ({@code 3 rows} for a table)
     * @param severity {@code NO_ALARM}, {@code MINOR}, {@code MAJOR} or {@code INVALID}
     * @param message  the alarm message (empty without an alarm)
     * @param rule     when it alarms, in words (empty: never)
     * @param monitors subscriptions to it now
     */
    public record Pv(String name, String type, String value, String severity, String message, String rule,
                     int monitors) {
    }
}
