package lookout.engine.dns;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.config.ZoneConfig;
import lookout.engine.core.DynamicRecords;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.zone.Zone;
import lookout.engine.dns.zone.ZoneParser;

/**
 * The {@code zones} section answered authoritatively (AA set; NXDOMAIN and NODATA with the SOA in
 * the authority section, RFC 2308 §3), with DYNA/DYNC drawn from the weighted pools (SPEC §Weighted
 * pools: A → IPv4 selection, AAAA → IPv6 selection, a missing family → NODATA; DYNC with a CNAME
 * → one CNAME, not followed). Immutable apart from the pools it asks; engine loop only.
 */
final class LocalZones {

    private final Map<String, Zone> zones = new HashMap<>();

    LocalZones(Map<String, ZoneConfig> configs) {
        for (ZoneConfig zc : configs.values()) {
            ZoneParser.Result r = ZoneParser.parse(zc);
            if (r.zone() != null) {
                zones.put(r.zone().origin(), r.zone());
            }
        }
    }

    boolean isEmpty() {
        return zones.isEmpty();
    }

    /** The zone that holds {@code qname} (the deepest one), or null. */
    Zone find(String qname) {
        if (zones.isEmpty()) {
            return null;
        }
        for (String n = qname; n != null; n = Names.parent(n)) {
            Zone z = zones.get(n);
            if (z != null) {
                return z;
            }
        }
        return null;
    }

    /** Origins, for telling whether routing of a name changed on reload. */
    java.util.Set<String> origins() {
        return zones.keySet();
    }

    Answer answer(Zone z, String qname, int qtype, int qclass, DynamicRecords dyn) {
        // delegations below the apex: a referral, not authoritative (RFC 1034 §4.3.2 step 3b)
        for (String n = qname; n != null && !n.equals(z.origin()); n = Names.parent(n)) {
            Zone.Node cut = z.node(n);
            if (cut != null && !cut.rrset(RrType.NS).isEmpty()) {
                List<Rr> glue = new ArrayList<>();
                for (Rr ns : cut.rrset(RrType.NS)) {
                    Zone.Node g = z.node(Message.nameAt(ns.rdata(), 0));
                    if (g != null) {
                        glue.addAll(g.rrset(RrType.A));
                        glue.addAll(g.rrset(RrType.AAAA));
                    }
                }
                return new Answer(qname, qtype, qclass, RrType.NOERROR, false, List.of(), cut.rrset(RrType.NS), glue);
            }
        }
        Zone.Node node = z.node(qname);
        if (node == null) {
            return negative(z, qname, qtype, qclass, z.exists(qname) ? RrType.NOERROR : RrType.NXDOMAIN, List.of());
        }
        Zone.Dyn d = node.dyn();
        if (d != null && (d.dync() || qtype == RrType.A || qtype == RrType.AAAA || qtype == RrType.ANY)) {
            if (dyn == null) {
                return new Answer(qname, qtype, qclass, RrType.SERVFAIL, false, List.of(), List.of(), List.of());
            }
            DynamicRecords.Answer a;
            try {
                a = dyn.answer(d.resource(), qtype, d.ttl(), d.minTtl());
            } catch (RuntimeException e) {
                // the pools could not answer (resource gone mid-reload): SERVFAIL, not a crash
                return new Answer(qname, qtype, qclass, RrType.SERVFAIL, false, List.of(), List.of(), List.of());
            }
            if (a.cname() != null) {
                String target = Names.normalize(a.cname());
                Rr c = new Rr(qname, RrType.CNAME, RrType.IN, a.ttl(), Names.toWire(target));
                return new Answer(qname, qtype, qclass, RrType.NOERROR, true, List.of(c), List.of(), List.of());
            }
            List<Rr> out = new ArrayList<>();
            for (InetAddress ip : a.addresses()) {
                boolean v4 = ip instanceof Inet4Address;
                if ((qtype == RrType.A || qtype == RrType.ANY) && v4) {
                    out.add(new Rr(qname, RrType.A, RrType.IN, a.ttl(), ip.getAddress()));
                } else if ((qtype == RrType.AAAA || qtype == RrType.ANY) && !v4) {
                    out.add(new Rr(qname, RrType.AAAA, RrType.IN, a.ttl(), ip.getAddress()));
                }
            }
            if (out.isEmpty()) {
                return negative(z, qname, qtype, qclass, RrType.NOERROR, List.of());
            }
            return new Answer(qname, qtype, qclass, RrType.NOERROR, true, out, List.of(), List.of());
        }
        List<Rr> cname = node.rrset(RrType.CNAME);
        if (!cname.isEmpty() && qtype != RrType.CNAME) {
            List<Rr> chain = new ArrayList<>(cname);
            String target = Message.nameAt(cname.get(0).rdata(), 0);
            for (int hop = 0; hop < 8; hop++) {
                Zone tz = find(target);
                if (tz != z) {
                    break; // out of this zone: the client follows it
                }
                Zone.Node tn = z.node(target);
                if (tn == null) {
                    break;
                }
                List<Rr> next = tn.rrset(RrType.CNAME);
                if (next.isEmpty()) {
                    chain.addAll(tn.rrset(qtype));
                    break;
                }
                chain.addAll(next);
                target = Message.nameAt(next.get(0).rdata(), 0);
            }
            return new Answer(qname, qtype, qclass, RrType.NOERROR, true, chain, List.of(), List.of());
        }
        List<Rr> set;
        if (qtype == RrType.ANY) {
            set = new ArrayList<>();
            for (List<Rr> l : node.rrsets().values()) {
                set.addAll(l);
            }
        } else {
            set = node.rrset(qtype);
        }
        if (set.isEmpty()) {
            return negative(z, qname, qtype, qclass, RrType.NOERROR, List.of());
        }
        return new Answer(qname, qtype, qclass, RrType.NOERROR, true, set, List.of(), List.of());
    }

    /** NXDOMAIN or NODATA with the SOA, its TTL the negative TTL (RFC 2308 §3). */
    private static Answer negative(Zone z, String qname, int qtype, int qclass, int rcode, List<Rr> answer) {
        Rr soa = z.soa();
        long minimum = Message.u32(soa.rdata(), soa.rdata().length - 4);
        Rr neg = soa.withTtl(Math.min(soa.ttl(), minimum));
        return new Answer(qname, qtype, qclass, rcode, true, answer, List.of(neg), List.of());
    }
}
