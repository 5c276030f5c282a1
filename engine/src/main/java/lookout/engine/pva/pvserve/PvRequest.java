package lookout.engine.pva.pvserve;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import lookout.engine.pva.pvdata.PvType;
import lookout.engine.pva.pvdata.ValueCodec.AnyValue;

/**
 * What a client asks for in the pvRequest of a GET or MONITOR (pvAccess "pvRequest"; PVXS
 * {@code pvrequest.cpp}): {@code field(a,b.c)} selects top-level fields (a sub-field selects the
 * top-level field that holds it: the reply carries a little more, never less), and
 * {@code record._options} carries {@code pipeline} and {@code queueSize} (booleans and numbers
 * arrive as such, or as strings, depending on the client).
 *
 * @param members  the selected top-level members of the target, or null for all of them
 * @param pipeline {@code record._options.pipeline}
 * @param queueSize {@code record._options.queueSize}, 0 when absent
 * @param problem  why the request cannot be served (no selected field exists), or null
 */
record PvRequest(BitSet members, boolean pipeline, int queueSize, String problem) {

    static final PvRequest ALL = new PvRequest(null, false, 0, null);

    /** Reads the decoded pvRequest {@code request} against the PV structure {@code target}. */
    static PvRequest of(AnyValue request, PvType.Struct target) {
        if (!(request.type() instanceof PvType.Struct root) || !(request.value() instanceof Object[] values)) {
            return ALL;
        }
        BitSet members = null;
        String problem = null;
        Member field = member(root, values, "field");
        if (field != null && field.type() instanceof PvType.Struct fs && !fs.members().isEmpty()) {
            members = new BitSet();
            List<String> unknown = new ArrayList<>();
            for (PvType.Member m : fs.members()) {
                int i = target.indexOf(m.name());
                if (i >= 0) {
                    members.set(i);
                } else if (unknown.size() < 8) {
                    unknown.add(m.name());
                }
            }
            if (members.isEmpty()) {
                problem = "no field of the request exists in " + target.id() + ": " + String.join(", ", unknown);
            }
        }
        boolean pipeline = false;
        int queueSize = 0;
        Member record = member(root, values, "record");
        Member options = record == null ? null : member(record, "_options");
        if (options != null) {
            Member p = member(options, "pipeline");
            pipeline = p != null && truth(p.value());
            Member q = member(options, "queueSize");
            queueSize = q == null ? 0 : number(q.value());
        }
        return new PvRequest(members, pipeline, queueSize, problem);
    }

    private record Member(PvType type, Object value) {
    }

    private static Member member(Member parent, String name) {
        return parent.type() instanceof PvType.Struct s && parent.value() instanceof Object[] v ? member(s, v, name) : null;
    }

    private static Member member(PvType.Struct s, Object[] values, String name) {
        int i = s.indexOf(name);
        return i < 0 || i >= values.length ? null : new Member(s.members().get(i).type(), values[i]);
    }

    private static boolean truth(Object v) {
        if (v instanceof Boolean b) {
            return b;
        }
        return v instanceof String s && s.trim().equalsIgnoreCase("true");
    }

    private static int number(Object v) {
        if (v instanceof Number n) {
            return (int) Math.max(0, Math.min(Integer.MAX_VALUE, n.longValue()));
        }
        if (v instanceof String s) {
            try {
                return Math.max(0, Integer.parseInt(s.trim()));
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return 0;
    }
}
