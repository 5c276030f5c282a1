package lookout.engine.dns.answer;

import java.util.List;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;

/**
 * Names answered locally and never forwarded (RFC 6761 §6.3, RFC 6303): {@code localhost.} and
 * every name below it, and the loopback reverse names ({@code *.127.in-addr.arpa.} and the
 * {@code ::1} name in {@code ip6.arpa.}). Answered whatever the in-flight count (seed 000 §4.6.5).
 */
public final class Synthetic {

    /* Concurrency: stateless; the SOA RDATA is a constant made at class initialisation. Called from
     * the engine loop and from the listeners' threads alike. */

    public static final String LOCALHOST = "localhost.";
    public static final String V4_REVERSE = "127.in-addr.arpa.";
    public static final String V6_LOOPBACK = "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa.";
    private static final long TTL = 86_400;
    private static final byte[] SOA_RDATA = soaRdata();

    private Synthetic() {
    }

    public static boolean covers(String qname) {
        return Names.isAtOrBelow(qname, LOCALHOST) || Names.isAtOrBelow(qname, V4_REVERSE) || qname.equals(V6_LOOPBACK);
    }

    public static Answer answer(String qname, int qtype, int qclass) {
        if (Names.isAtOrBelow(qname, LOCALHOST)) {
            if (qtype == RrType.A || qtype == RrType.ANY) {
                return positive(qname, qtype, qclass, new Rr(qname, RrType.A, RrType.IN, TTL, new byte[]{127, 0, 0, 1}));
            }
            if (qtype == RrType.AAAA) {
                byte[] v6 = new byte[16];
                v6[15] = 1;
                return positive(qname, qtype, qclass, new Rr(qname, RrType.AAAA, RrType.IN, TTL, v6));
            }
            return nodata(qname, qtype, qclass, LOCALHOST, RrType.NOERROR);
        }
        String zone = qname.equals(V6_LOOPBACK) ? V6_LOOPBACK : V4_REVERSE;
        // 127.in-addr.arpa: four labels below in-addr.arpa is a host; every host in 127/8 is loopback
        if (qtype == RrType.PTR && (zone.equals(V6_LOOPBACK) || Names.labelCount(qname) == 6)) {
            return positive(qname, qtype, qclass, new Rr(qname, RrType.PTR, RrType.IN, TTL, Names.toWire(LOCALHOST)));
        }
        boolean exists = zone.equals(V6_LOOPBACK) || Names.labelCount(qname) <= 6;
        return nodata(qname, qtype, qclass, zone, exists ? RrType.NOERROR : RrType.NXDOMAIN);
    }

    private static Answer positive(String qname, int qtype, int qclass, Rr rr) {
        return new Answer(qname, qtype, qclass, RrType.NOERROR, true, List.of(rr), List.of(), List.of());
    }

    private static Answer nodata(String qname, int qtype, int qclass, String zone, int rcode) {
        Rr soa = new Rr(zone, RrType.SOA, RrType.IN, 10_800, SOA_RDATA);
        return new Answer(qname, qtype, qclass, rcode, true, List.of(), List.of(soa), List.of());
    }

    private static byte[] soaRdata() {
        byte[] m = Names.toWire(LOCALHOST);
        byte[] r = Names.toWire("nobody.invalid.");
        byte[] d = new byte[m.length + r.length + 20];
        System.arraycopy(m, 0, d, 0, m.length);
        System.arraycopy(r, 0, d, m.length, r.length);
        int p = m.length + r.length;
        long[] v = {1, 3600, 1200, 604800, 10800};
        for (long x : v) {
            d[p] = (byte) (x >>> 24);
            d[p + 1] = (byte) (x >>> 16);
            d[p + 2] = (byte) (x >>> 8);
            d[p + 3] = (byte) x;
            p += 4;
        }
        return d;
    }
}
