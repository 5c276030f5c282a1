package lookout.engine.pva.pvdata;

import static lookout.engine.pva.pvdata.PvType.member;
import static lookout.engine.pva.pvdata.PvType.scalar;

import java.util.ArrayList;
import java.util.List;

/**
 * The EPICS normative types Lookout publishes (EPICS V4 Normative Types Specification; the layout
 * PVXS {@code nt.cpp} builds, which Phoebus and the Archiver Appliance read):
 *
 * <pre>
 * epics:nt/NTScalar:1.0                       epics:nt/NTTable:1.0
 *   T value                                     string[] labels
 *   alarm_t alarm                               structure value
 *     int severity                                T0[] column0 ...
 *     int status                                string descriptor
 *     string message                            alarm_t alarm
 *   time_t timeStamp                            time_t timeStamp
 *     long secondsPastEpoch
 *     int nanoseconds
 *     int userTag
 *   structure display          (numeric T)
 *     T limitLow, T limitHigh
 *     string description, string units
 *     int precision
 *   structure display          (string T)
 *     string description, string units
 * </pre>
 *
 * {@code display.precision} is what qsrv sends since EPICS 7.0.2.2 and what Phoebus formats with.
 */
public final class NormativeTypes {

    public static final String NT_SCALAR = "epics:nt/NTScalar:1.0";
    public static final String NT_TABLE = "epics:nt/NTTable:1.0";

    /** alarm_t: severity (0 NO_ALARM, 1 MINOR, 2 MAJOR, 3 INVALID), status, message. */
    public static final PvType.Struct ALARM = PvType.struct("alarm_t",
            member("severity", scalar(ScalarKind.INT)),
            member("status", scalar(ScalarKind.INT)),
            member("message", scalar(ScalarKind.STRING)));

    /** time_t: seconds since 1970-01-01 UTC (POSIX), nanoseconds, a user tag. */
    public static final PvType.Struct TIME = PvType.struct("time_t",
            member("secondsPastEpoch", scalar(ScalarKind.LONG)),
            member("nanoseconds", scalar(ScalarKind.INT)),
            member("userTag", scalar(ScalarKind.INT)));

    // alarm_t.status values (the AlarmStatus enumeration of the normative types)
    public static final int STATUS_NONE = 0;
    public static final int STATUS_DEVICE = 1;
    public static final int STATUS_DRIVER = 2;
    public static final int STATUS_RECORD = 3;
    public static final int STATUS_DB = 4;
    public static final int STATUS_CONF = 5;
    public static final int STATUS_UNDEFINED = 6;
    public static final int STATUS_CLIENT = 7;

    /** Top-level members of an NTScalar, in order. */
    public static final int SCALAR_VALUE = 0;
    public static final int SCALAR_ALARM = 1;
    public static final int SCALAR_TIME = 2;
    public static final int SCALAR_DISPLAY = 3;

    /** Top-level members of an NTTable, in order. */
    public static final int TABLE_LABELS = 0;
    public static final int TABLE_VALUE = 1;
    public static final int TABLE_DESCRIPTOR = 2;
    public static final int TABLE_ALARM = 3;
    public static final int TABLE_TIME = 4;

    private NormativeTypes() {
    }

    /** An NTScalar of {@code kind} with a display section. */
    public static PvType.Struct scalarType(ScalarKind kind) {
        PvType.Struct display;
        if (kind == ScalarKind.STRING || kind == ScalarKind.BOOLEAN) {
            display = PvType.struct("",
                    member("description", scalar(ScalarKind.STRING)),
                    member("units", scalar(ScalarKind.STRING)));
        } else {
            display = PvType.struct("",
                    member("limitLow", scalar(kind)),
                    member("limitHigh", scalar(kind)),
                    member("description", scalar(ScalarKind.STRING)),
                    member("units", scalar(ScalarKind.STRING)),
                    member("precision", scalar(ScalarKind.INT)));
        }
        return PvType.struct(NT_SCALAR,
                member("value", scalar(kind)),
                member("alarm", ALARM),
                member("timeStamp", TIME),
                member("display", display));
    }

    /** A column of an NTTable: its member name, its label, its element type. */
    public record Column(String name, String label, ScalarKind kind) {
    }

    /** An NTTable with {@code columns}. */
    public static PvType.Struct tableType(List<Column> columns) {
        List<PvType.Member> cols = new ArrayList<>(columns.size());
        for (Column c : columns) {
            cols.add(member(c.name(), PvType.array(c.kind())));
        }
        return PvType.struct(NT_TABLE,
                member("labels", PvType.array(ScalarKind.STRING)),
                member("value", new PvType.Struct("", cols)),
                member("descriptor", scalar(ScalarKind.STRING)),
                member("alarm", ALARM),
                member("timeStamp", TIME));
    }

    /** An alarm_t value. */
    public static Object[] alarm(int severity, int status, String message) {
        return new Object[] {severity, status, message};
    }

    /** A time_t value from POSIX seconds and nanoseconds. */
    public static Object[] time(long secondsPastEpoch, int nanoseconds) {
        return new Object[] {secondsPastEpoch, nanoseconds, 0};
    }
}
