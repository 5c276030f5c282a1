package lookout.engine.dns.answer;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.config.ZoneConfig;
import lookout.engine.seams.DynamicRecords;
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
 * → one CNAME, not followed). An instance belongs to one thread (its memo); the zones it holds are
 * immutable and shared by the instances {@link #LocalZones(LocalZones)} makes for answer loops.
 */
public final class LocalZones {

    /* Concurrency: an instance belongs to one thread — the engine loop's (the resolver's) or one
     * UDP listener's reader — because of `memo`, `drawnFrom` and `lastPlan`. The parsed zones in
     * `zones` are immutable after construction and shared by the instances LocalZones(LocalZones)
     * makes, which is how a listener gets a memo of its own over the engine's zones. DYNA/DYNC
     * draws go to the DynamicRecords the caller passes: the pools' own on the engine loop,
     * forAnswerLoop() elsewhere. */

    private final Map<String, Zone> zones;
    /**
     * What each asked (name, type, class) comes to, worked out once: the zones are immutable, so a
     * static answer never changes until a reload builds a new LocalZones, and a DYNA/DYNC name
     * always leads to the same record (only the pools' draw differs per query). Bounded: cleared
     * when full (random names asked for NXDOMAIN must not grow it without end).
     */
    private final Map<lookout.engine.dns.cache.DnsCache.Key, Plan> memo = new HashMap<>();
    public static final int MEMO_LIMIT = 16_384;
    /** Set by {@link #build} when the answer came from a DYNA/DYNC record (engine loop). */
    private Zone.Dyn drawnFrom;

    /** A fixed answer, or the DYNA/DYNC record to draw from (exactly one is set). */
    public record Plan(Answer fixed, Zone zone, Zone.Dyn dyn) {
    }

    /** The plan the last {@link #answer} followed, for callers keeping a memo of their own. */
    private Plan lastPlan;

    public LocalZones(Map<String, ZoneConfig> configs) {
        zones = new HashMap<>();
        for (ZoneConfig zc : configs.values()) {
            ZoneParser.Result r = ZoneParser.parse(zc);
            if (r.zone() != null) {
                zones.put(r.zone().origin(), r.zone());
            }
        }
    }

    /**
     * The same parsed zones (immutable, shared) with a memo of its own: for an answer loop, which
     * must not share this instance's memo with the engine loop.
     */
    public LocalZones(LocalZones same) {
        zones = same.zones;
    }

    /** The parsed zones, by origin (immutable; for the status's list of local zones). */
    public Map<String, Zone> zones() {
        return java.util.Collections.unmodifiableMap(zones);
    }

    public boolean isEmpty() {
        return zones.isEmpty();
    }

    /** The zone that holds {@code qname} (the deepest one), or null. */
    public Zone find(String qname) {
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

    /**
     * What {@code qname} comes to in zone {@code z} for ({@code qtype}, {@code qclass}): worked
     * out once and remembered ({@link #lastPlan} tells how), a DYNA/DYNC record drawn from
     * {@code dyn} afresh every time.
     */
    public Answer answer(Zone z, String qname, int qtype, int qclass, DynamicRecords dyn) {
        lookout.engine.dns.cache.DnsCache.Key key = new lookout.engine.dns.cache.DnsCache.Key(qname, qtype, qclass);
        Plan p = memo.get(key);
        if (p != null) {
            lastPlan = p;
            return p.fixed() != null ? p.fixed() : draw(p.zone(), p.dyn(), qname, qtype, qclass, dyn);
        }
        drawnFrom = null;
        Answer a = build(z, qname, qtype, qclass, dyn);
        if (memo.size() >= MEMO_LIMIT) {
            memo.clear();
        }
        p = drawnFrom == null ? new Plan(a, null, null) : new Plan(null, z, drawnFrom);
        memo.put(key, p);
        lastPlan = p;
        return a;
    }

    /** The plan the last {@link #answer} on this instance followed. */
    public Plan lastPlan() {
        return lastPlan;
    }

    private Answer build(Zone z, String qname, int qtype, int qclass, DynamicRecords dyn) {
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
        boolean synthesized = false;
        if (node == null) {
            if (z.exists(qname)) {
                return negative(z, qname, qtype, qclass, RrType.NOERROR, List.of()); // empty non-terminal
            }
            node = wildcard(z, qname);
            if (node == null) {
                return negative(z, qname, qtype, qclass, RrType.NXDOMAIN, List.of());
            }
            synthesized = true;
        }
        Zone.Dyn d = node.dyn();
        if (d != null && (d.dync() || qtype == RrType.A || qtype == RrType.AAAA || qtype == RrType.ANY)) {
            drawnFrom = d;
            return draw(z, d, qname, qtype, qclass, dyn);
        }
        List<Rr> cname = synthesized ? owned(node.rrset(RrType.CNAME), qname) : node.rrset(RrType.CNAME);
        if (!cname.isEmpty() && qtype != RrType.CNAME) {
            return chase(qname, qtype, qclass, new ArrayList<>(cname), Message.nameAt(cname.get(0).rdata(), 0));
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
        return new Answer(qname, qtype, qclass, RrType.NOERROR, true, synthesized ? owned(set, qname) : set,
                List.of(), List.of());
    }

    /**
     * RFC 1034 §4.3.2 step 3a inside the local zones: follows {@code chain}'s CNAMEs from
     * {@code target} through every zone held here (at most 8 more), ending with the target's
     * records, or its NXDOMAIN (RFC 6604) or NODATA with its zone's SOA. It stops — the answer
     * then ends in a CNAME that whoever answers the client follows further — at a name outside the
     * local zones or below a delegation, and at a DYNA/DYNC, whose records are drawn per query.
     */
    private Answer chase(String qname, int qtype, int qclass, List<Rr> chain, String target) {
        boolean any = qtype == RrType.ANY;
        for (int hop = 0; hop < 8; hop++) {
            Zone tz = find(target);
            if (tz == null || delegated(tz, target)) {
                break; // not ours to answer
            }
            Zone.Node tn = tz.node(target);
            boolean synthesized = false;
            if (tn == null) {
                if (tz.exists(target)) {
                    return any ? chainOnly(qname, qtype, qclass, chain) : negative(tz, qname, qtype, qclass, RrType.NOERROR, chain);
                }
                tn = wildcard(tz, target);
                if (tn == null) {
                    return any ? chainOnly(qname, qtype, qclass, chain) : negative(tz, qname, qtype, qclass, RrType.NXDOMAIN, chain);
                }
                synthesized = true;
            }
            if (tn.dyn() != null) {
                break; // drawn per query: completed when answered
            }
            List<Rr> next = synthesized ? owned(tn.rrset(RrType.CNAME), target) : tn.rrset(RrType.CNAME);
            if (next.isEmpty()) {
                List<Rr> set = synthesized ? owned(tn.rrset(qtype), target) : tn.rrset(qtype);
                if (set.isEmpty() && !any) {
                    return negative(tz, qname, qtype, qclass, RrType.NOERROR, chain);
                }
                chain.addAll(set);
                break;
            }
            chain.addAll(next);
            target = Message.nameAt(next.get(0).rdata(), 0);
        }
        return chainOnly(qname, qtype, qclass, chain);
    }

    private static Answer chainOnly(String qname, int qtype, int qclass, List<Rr> chain) {
        return new Answer(qname, qtype, qclass, RrType.NOERROR, true, chain, List.of(), List.of());
    }

    /** Whether {@code name} lies below a delegation in {@code z} (an NS set between it and the apex). */
    private static boolean delegated(Zone z, String name) {
        for (String n = name; n != null && !n.equals(z.origin()); n = Names.parent(n)) {
            Zone.Node cut = z.node(n);
            if (cut != null && !cut.rrset(RrType.NS).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * RFC 4592 §3.3.1: the wildcard that answers {@code qname}, which does not exist — the
     * {@code *} child of its closest encloser (the nearest existing ancestor) — or null. Names
     * that exist, empty non-terminals included, are never answered from a wildcard; delegations
     * are handled before this.
     */
    private static Zone.Node wildcard(Zone z, String qname) {
        for (String n = Names.parent(qname); n != null; n = Names.parent(n)) {
            if (z.exists(n) || n.equals(z.origin())) {
                return z.node(n.equals(".") ? "*." : "*." + n);
            }
        }
        return null;
    }

    /** A wildcard's records as the asked name's own (RFC 4592 §3.3.1: the owner is the query name). */
    private static List<Rr> owned(List<Rr> records, String qname) {
        List<Rr> out = new ArrayList<>(records.size());
        for (Rr r : records) {
            out.add(new Rr(qname, r.type(), r.cls(), r.ttl(), r.rdata()));
        }
        return out;
    }

    /**
     * A fresh draw from the pools for a DYNA/DYNC record (never memoised; SERVFAIL while the pools
     * are missing may heal). Addresses are encoded straight to the wire: no records, no name table.
     */
    private Answer draw(Zone z, Zone.Dyn d, String qname, int qtype, int qclass, DynamicRecords dyn) {
        return drawn(z, d, qname, qtype, qclass, drawFrom(d, qtype, dyn));
    }

    /**
     * What the pools gave for {@code d}, or null when they could not answer: none present, or the
     * resource gone mid-reload (SERVFAIL then, not a crash).
     */
    public static DynamicRecords.Answer drawFrom(Zone.Dyn d, int qtype, DynamicRecords dyn) {
        if (dyn == null) {
            return null;
        }
        try {
            return dyn.answer(d.resource(), qtype, d.ttl(), d.minTtl());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The answer a draw from {@code d} comes to ({@code a} null: SERVFAIL). */
    public static Answer drawn(Zone z, Zone.Dyn d, String qname, int qtype, int qclass, DynamicRecords.Answer a) {
        if (a == null) {
            return new Answer(qname, qtype, qclass, RrType.SERVFAIL, false, List.of(), List.of(), List.of());
        }
        if (a.cname() != null) {
            String target = Names.normalize(a.cname());
            Rr c = new Rr(qname, RrType.CNAME, RrType.IN, a.ttl(), Names.toWire(target));
            return new Answer(qname, qtype, qclass, RrType.NOERROR, true, List.of(c), List.of(), List.of());
        }
        List<InetAddress> out = carried(a.addresses(), qtype);
        if (out.isEmpty()) {
            return negative(z, qname, qtype, qclass, RrType.NOERROR, List.of());
        }
        return Answer.addresses(qname, qtype, qclass, a.ttl(), out);
    }

    /** The addresses of a draw that answer {@code qtype} ({@link RrType#carries}); the list itself when all do. */
    public static List<InetAddress> carried(List<InetAddress> all, int qtype) {
        int matching = 0;
        for (int i = 0, n = all.size(); i < n; i++) {
            if (RrType.carries(qtype, all.get(i))) {
                matching++;
            }
        }
        if (matching == all.size()) {
            return all;
        }
        List<InetAddress> out = new ArrayList<>(matching);
        for (int i = 0, n = all.size(); i < n; i++) {
            if (RrType.carries(qtype, all.get(i))) {
                out.add(all.get(i));
            }
        }
        return out;
    }

    /** NXDOMAIN or NODATA with the SOA, its TTL the negative TTL (RFC 2308 §3). */
    private static Answer negative(Zone z, String qname, int qtype, int qclass, int rcode, List<Rr> answer) {
        Rr soa = z.soa();
        long minimum = Message.u32(soa.rdata(), soa.rdata().length - 4);
        Rr neg = soa.withTtl(Math.min(soa.ttl(), minimum));
        return new Answer(qname, qtype, qclass, rcode, true, answer, List.of(neg), List.of());
    }
}
