package lookout.engine.dns.zone;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lookout.engine.config.ZoneConfig;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.zone.ZoneTokens.Token;

/**
 * RFC 1035 §5 master files: {@code $TTL} (RFC 2308), {@code $ORIGIN}, parentheses, comments,
 * quoted strings, {@code @}, relative names, blank owner = previous owner, TTL and class in either
 * order, BIND time units ({@code 1h30m}); records SOA, NS, A, AAAA, CNAME, PTR, MX, TXT, SRV and
 * gdnsd's {@code DYNA}/{@code DYNC} with the {@code TTL/MIN} form. Every problem is reported with
 * the zone text's line and column (offset by {@link ZoneConfig#line()} for inline text), and
 * parsing goes on so one run lists them all.
 */
public final class ZoneParser {

    /** One problem, positioned in the zone's source. */
    public record Problem(String file, int line, int column, String message) {
        @Override
        public String toString() {
            return file + ":" + line + ":" + column + ": " + message;
        }
    }

    /** The zone (null when there were problems) and the problems. */
    public record Result(Zone zone, List<Problem> problems) {
    }

    /** How deep {@code $INCLUDE}s may nest (a file including itself is caught before that). */
    static final int MAX_INCLUDE_DEPTH = 8;

    private final ZoneConfig config;
    private final List<Problem> problems = new ArrayList<>();
    /** The text being read: the zone's own, or an included file's (problems name it). */
    private String source;
    private int firstLine;
    /** Where relative {@code $INCLUDE} names in {@link #source} point from. */
    private String directory;
    /** The files being read, outermost first (a cycle is a problem, not a loop). */
    private final java.util.ArrayDeque<String> reading = new java.util.ArrayDeque<>();
    private String origin;
    private long defaultTtl = -1;
    private long lastTtl = -1;
    private String lastOwner;
    private Zone zone;

    private ZoneParser(ZoneConfig config) {
        this.config = config;
        this.source = config.sourceName();
        this.firstLine = config.line();
        this.directory = config.directory();
    }

    public static Result parse(ZoneConfig config) {
        ZoneParser p = new ZoneParser(config);
        p.run();
        return new Result(p.problems.isEmpty() ? p.zone : null, List.copyOf(p.problems));
    }

    private void problem(int line, int column, String message) {
        problems.add(new Problem(source, firstLine - 1 + line, column, message));
    }

    private void problem(Token t, String message) {
        problem(t.line(), t.column(), message);
    }

    private void run() {
        String o = Names.normalize(config.origin());
        if (o == null) {
            problem(1, 1, "zone name '" + config.origin() + "' is not a valid domain name");
            return;
        }
        origin = o;
        zone = new Zone(o);
        reading.push(source);
        read(config.text());
        if (zone.soa == null) {
            problem(1, 1, "zone " + zone.origin + " has no SOA record at its apex");
        }
        if (zone.node(zone.origin) == null || zone.node(zone.origin).rrset(RrType.NS).isEmpty()) {
            // An authoritative zone without NS is odd but answerable; gdnsd requires NS at the apex.
            problem(1, 1, "zone " + zone.origin + " has no NS record at its apex");
        }
    }

    // ------------------------------------------------------------------ tokens

    /** Reads the entries of {@code text}, the text of {@link #source}. */
    private void read(String text) {
        for (ZoneTokens.Entry e : ZoneTokens.read(text, this::problem)) {
            try {
                entry(e.tokens(), e.blankOwner());
            } catch (RuntimeException x) {
                Token t = e.tokens().get(0);
                problem(t, "cannot parse this record: " + x.getMessage());
            }
        }
    }

    // ------------------------------------------------------------------ entries

    private void entry(List<Token> t, boolean blank) {
        Token first = t.get(0);
        if (!blank && first.text().startsWith("$")) {
            directive(t);
            return;
        }
        int k = 0;
        String owner;
        if (blank) {
            if (lastOwner == null) {
                problem(first, "record without an owner name and no previous owner");
                return;
            }
            owner = lastOwner;
        } else {
            owner = absolute(first);
            if (owner == null) {
                return;
            }
            k = 1;
        }
        lastOwner = owner;
        long ttl = -1;
        long minTtl = -1;
        Token ttlToken = null;
        for (int j = 0; j < 2 && k < t.size(); j++) {
            Token x = t.get(k);
            if (x.text().equalsIgnoreCase("IN")) {
                k++;
            } else if (x.text().equalsIgnoreCase("CH") || x.text().equalsIgnoreCase("HS")) {
                problem(x, "only class IN is supported");
                return;
            } else if (!x.quoted() && !x.text().isEmpty() && Character.isDigit(x.text().charAt(0))) {
                ttlToken = x;
                String s = x.text();
                int slash = s.indexOf('/');
                ttl = parseTtl(slash < 0 ? s : s.substring(0, slash));
                if (slash >= 0) {
                    minTtl = parseTtl(s.substring(slash + 1));
                    if (minTtl < 0) {
                        problem(x, "bad minimum TTL in '" + s + "'");
                        return;
                    }
                }
                if (ttl < 0) {
                    problem(x, "bad TTL '" + s + "' (seconds, or with units s m h d w, at most 2147483647)");
                    return;
                }
                k++;
            } else {
                break;
            }
        }
        if (k >= t.size()) {
            problem(t.get(t.size() - 1), "record type missing");
            return;
        }
        Token typeTok = t.get(k++);
        String type = typeTok.text().toUpperCase(Locale.ROOT);
        if (minTtl >= 0 && !type.equals("DYNA") && !type.equals("DYNC")) {
            problem(ttlToken, "the TTL/MIN form is only for DYNA and DYNC records");
            return;
        }
        if (ttl < 0) {
            ttl = defaultTtl >= 0 ? defaultTtl : lastTtl;
            if (ttl < 0 && !type.equals("SOA")) {
                problem(typeTok, "no TTL for this record and no $TTL before it");
                return;
            }
        } else {
            lastTtl = ttl;
        }
        if (!Names.isAtOrBelow(owner, origin)) {
            problem(blank ? typeTok : first, "owner " + owner + " is outside the zone " + origin);
            return;
        }
        List<Token> rdata = t.subList(k, t.size());
        record(owner, ttl, minTtl, typeTok, type, rdata);
    }

    private void directive(List<Token> t) {
        Token d = t.get(0);
        String name = d.text().toUpperCase(Locale.ROOT);
        switch (name) {
            case "$TTL" -> {
                if (t.size() != 2) {
                    problem(d, "$TTL takes one value");
                    return;
                }
                long v = parseTtl(t.get(1).text());
                if (v < 0) {
                    problem(t.get(1), "bad $TTL value '" + t.get(1).text() + "'");
                    return;
                }
                defaultTtl = v;
            }
            case "$ORIGIN" -> {
                if (t.size() != 2) {
                    problem(d, "$ORIGIN takes one domain name");
                    return;
                }
                String o = absolute(t.get(1));
                if (o != null) {
                    origin = o;
                }
            }
            case "$INCLUDE" -> include(t);
            default -> problem(d, "unknown directive " + d.text());
        }
    }

    /**
     * RFC 1035 §5.1 {@code $INCLUDE file [origin]}: the file's records are read here, under the
     * given origin if any (relative to the current one), else the current one. Afterwards the
     * origin, {@code $TTL} and the previous owner are what they were before (the parent file's are
     * never changed by an included one; BIND does the same). A relative path is relative to the
     * directory of the file that includes it. The loader read the files beforehand
     * ({@link ZoneConfig#includes()}): parsing does no I/O.
     */
    private void include(List<Token> t) {
        Token d = t.get(0);
        if (t.size() < 2 || t.size() > 3) {
            problem(d, "$INCLUDE takes a file name and an optional origin");
            return;
        }
        String path = ZoneConfig.includePath(directory, t.get(1).text());
        String newOrigin = origin;
        if (t.size() == 3) {
            newOrigin = absolute(t.get(2));
            if (newOrigin == null) {
                return;
            }
            if (!Names.isAtOrBelow(newOrigin, zone.origin)) {
                problem(t.get(2), "origin " + newOrigin + " is outside the zone " + zone.origin);
                return;
            }
        }
        if (reading.contains(path)) {
            List<String> chain = new ArrayList<>(reading);
            java.util.Collections.reverse(chain); // outermost first
            chain.add(path);
            problem(t.get(1), "'" + path + "' includes itself (" + String.join(" → ", chain) + ")");
            return;
        }
        if (reading.size() >= MAX_INCLUDE_DEPTH) {
            problem(t.get(1), "$INCLUDE nested more than " + MAX_INCLUDE_DEPTH + " deep");
            return;
        }
        ZoneConfig.Include inc = config.includes().get(path);
        if (inc == null || inc.text() == null) {
            problem(t.get(1), "cannot read the included file '" + path + "'"
                    + (inc == null || inc.error() == null ? "" : ": " + inc.error()));
            return;
        }
        String savedSource = source;
        int savedFirstLine = firstLine;
        String savedDirectory = directory;
        String savedOrigin = origin;
        long savedTtl = defaultTtl;
        String savedOwner = lastOwner;
        source = path;
        firstLine = 1;
        directory = ZoneConfig.directoryOf(path);
        origin = newOrigin;
        reading.push(path);
        try {
            read(inc.text());
        } finally {
            reading.pop();
            source = savedSource;
            firstLine = savedFirstLine;
            directory = savedDirectory;
            origin = savedOrigin;
            defaultTtl = savedTtl;
            lastOwner = savedOwner;
        }
    }

    private String absolute(Token t) {
        String s = t.text();
        String r;
        if (s.equals("@")) {
            r = origin;
        } else if (s.endsWith(".") && !s.endsWith("\\.")) {
            r = Names.normalize(s);
        } else {
            r = Names.normalize(s + "." + (origin.equals(".") ? "" : origin));
        }
        if (r == null) {
            problem(t, "'" + s + "' is not a valid domain name");
        }
        return r;
    }

    /** Seconds, or BIND units (1w2d3h4m5s); -1 when invalid. */
    static long parseTtl(String s) {
        if (s.isEmpty()) {
            return -1;
        }
        long total = 0;
        long num = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                num = (num < 0 ? 0 : num) * 10 + (c - '0');
                if (num > 0x7FFFFFFFL) {
                    return -1;
                }
                continue;
            }
            if (num < 0) {
                return -1;
            }
            long mult = switch (Character.toLowerCase(c)) {
                case 's' -> 1;
                case 'm' -> 60;
                case 'h' -> 3600;
                case 'd' -> 86400;
                case 'w' -> 604800;
                default -> -1;
            };
            if (mult < 0) {
                return -1;
            }
            total += num * mult;
            num = -1;
        }
        if (num >= 0) {
            total += num;
        }
        return total > 0x7FFFFFFFL ? -1 : total;
    }

    // ------------------------------------------------------------------ records

    private void record(String owner, long ttl, long minTtl, Token typeTok, String type, List<Token> rd) {
        switch (type) {
            case "A" -> {
                if (!count(typeTok, rd, 1)) {
                    return;
                }
                byte[] a = ipv4(rd.get(0).text());
                if (a == null) {
                    problem(rd.get(0), "'" + rd.get(0).text() + "' is not an IPv4 address");
                    return;
                }
                add(owner, typeTok, new Rr(owner, RrType.A, RrType.IN, ttl, a));
            }
            case "AAAA" -> {
                if (!count(typeTok, rd, 1)) {
                    return;
                }
                byte[] a = ipv6(rd.get(0).text());
                if (a == null) {
                    problem(rd.get(0), "'" + rd.get(0).text() + "' is not an IPv6 address");
                    return;
                }
                add(owner, typeTok, new Rr(owner, RrType.AAAA, RrType.IN, ttl, a));
            }
            case "NS", "CNAME", "PTR" -> {
                if (!count(typeTok, rd, 1)) {
                    return;
                }
                String target = absolute(rd.get(0));
                if (target == null) {
                    return;
                }
                add(owner, typeTok, new Rr(owner, RrType.parse(type), RrType.IN, ttl, Names.toWire(target)));
            }
            case "MX" -> {
                if (!count(typeTok, rd, 2)) {
                    return;
                }
                long pref = number(rd.get(0), 0xFFFF);
                String target = absolute(rd.get(1));
                if (pref < 0 || target == null) {
                    return;
                }
                byte[] n = Names.toWire(target);
                byte[] data = new byte[2 + n.length];
                data[0] = (byte) (pref >>> 8);
                data[1] = (byte) pref;
                System.arraycopy(n, 0, data, 2, n.length);
                add(owner, typeTok, new Rr(owner, RrType.MX, RrType.IN, ttl, data));
            }
            case "SRV" -> {
                if (!count(typeTok, rd, 4)) {
                    return;
                }
                long p = number(rd.get(0), 0xFFFF);
                long w = number(rd.get(1), 0xFFFF);
                long port = number(rd.get(2), 0xFFFF);
                String target = absolute(rd.get(3));
                if (p < 0 || w < 0 || port < 0 || target == null) {
                    return;
                }
                byte[] n = Names.toWire(target);
                byte[] data = new byte[6 + n.length];
                data[0] = (byte) (p >>> 8);
                data[1] = (byte) p;
                data[2] = (byte) (w >>> 8);
                data[3] = (byte) w;
                data[4] = (byte) (port >>> 8);
                data[5] = (byte) port;
                System.arraycopy(n, 0, data, 6, n.length);
                add(owner, typeTok, new Rr(owner, RrType.SRV, RrType.IN, ttl, data));
            }
            case "TXT" -> {
                if (rd.isEmpty()) {
                    problem(typeTok, "TXT needs at least one string");
                    return;
                }
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                for (Token s : rd) {
                    byte[] b = unescape(s);
                    if (b == null) {
                        return;
                    }
                    if (b.length > 255) {
                        problem(s, "TXT string longer than 255 bytes");
                        return;
                    }
                    out.write(b.length);
                    out.write(b, 0, b.length);
                }
                add(owner, typeTok, new Rr(owner, RrType.TXT, RrType.IN, ttl, out.toByteArray()));
            }
            case "SOA" -> {
                if (!count(typeTok, rd, 7)) {
                    return;
                }
                if (!owner.equals(zone.origin)) {
                    problem(typeTok, "SOA is only allowed at the zone apex " + zone.origin);
                    return;
                }
                if (zone.soa != null) {
                    problem(typeTok, "a second SOA record");
                    return;
                }
                String mname = absolute(rd.get(0));
                String rname = absolute(rd.get(1));
                long[] v = new long[5];
                for (int i = 0; i < 5; i++) {
                    v[i] = i == 0 ? number(rd.get(2), 0xFFFFFFFFL) : parseTtl(rd.get(2 + i).text());
                    if (v[i] < 0) {
                        if (i > 0) {
                            problem(rd.get(2 + i), "bad SOA time value '" + rd.get(2 + i).text() + "'");
                        }
                        return;
                    }
                }
                if (mname == null || rname == null) {
                    return;
                }
                if (ttl < 0) {
                    ttl = v[4]; // RFC 1035: without $TTL the SOA MINIMUM is the default
                    if (defaultTtl < 0) {
                        lastTtl = ttl;
                    }
                }
                byte[] m = Names.toWire(mname);
                byte[] r = Names.toWire(rname);
                byte[] data = new byte[m.length + r.length + 20];
                System.arraycopy(m, 0, data, 0, m.length);
                System.arraycopy(r, 0, data, m.length, r.length);
                int p = m.length + r.length;
                for (long x : v) {
                    data[p] = (byte) (x >>> 24);
                    data[p + 1] = (byte) (x >>> 16);
                    data[p + 2] = (byte) (x >>> 8);
                    data[p + 3] = (byte) x;
                    p += 4;
                }
                Rr soa = new Rr(owner, RrType.SOA, RrType.IN, ttl, data);
                zone.soa = soa;
                add(owner, typeTok, soa);
            }
            case "DYNA", "DYNC" -> {
                if (!count(typeTok, rd, 1)) {
                    return;
                }
                Token ref = rd.get(0);
                int bang = ref.text().indexOf('!');
                if (bang <= 0 || bang == ref.text().length() - 1) {
                    problem(ref, type + " needs plugin!resource, like weighted!pool");
                    return;
                }
                String plugin = ref.text().substring(0, bang);
                String resource = ref.text().substring(bang + 1);
                if (!plugin.equals("weighted")) {
                    problem(ref, "plugin '" + plugin + "' is not available; only 'weighted' is");
                    return;
                }
                long min = minTtl >= 0 ? minTtl : ttl / 2;
                if (min > ttl) {
                    problem(typeTok, "the minimum TTL " + min + " is above the TTL " + ttl);
                    return;
                }
                Zone.Node node = nodeFor(owner);
                if (node.dyn != null) {
                    problem(typeTok, "a second DYNA/DYNC record at " + owner);
                    return;
                }
                if (type.equals("DYNC") && !node.rrsets.isEmpty()) {
                    problem(typeTok, "DYNC at " + owner + " cannot coexist with other records");
                    return;
                }
                if (type.equals("DYNA") && (!node.rrset(RrType.A).isEmpty() || !node.rrset(RrType.AAAA).isEmpty()
                        || !node.rrset(RrType.CNAME).isEmpty())) {
                    problem(typeTok, "DYNA at " + owner + " cannot coexist with A, AAAA or CNAME records");
                    return;
                }
                node.dyn = new Zone.Dyn(type.equals("DYNC"), plugin, resource, ttl, min,
                        source, firstLine - 1 + ref.line(), ref.column());
            }
            default -> problem(typeTok, "unsupported record type '" + typeTok.text()
                    + "' (supported: SOA NS A AAAA CNAME PTR MX TXT SRV DYNA DYNC)");
        }
    }

    private Zone.Node nodeFor(String owner) {
        Zone.Node node = zone.nodes.computeIfAbsent(owner, k -> new Zone.Node());
        for (String n = owner; n != null && Names.isAtOrBelow(n, zone.origin); n = Names.parent(n)) {
            if (!zone.existing.add(n)) {
                break;
            }
        }
        return node;
    }

    private void add(String owner, Token typeTok, Rr rr) {
        Zone.Node node = nodeFor(owner);
        if (node.dyn != null) {
            if (node.dyn.dync() || rr.type() == RrType.A || rr.type() == RrType.AAAA || rr.type() == RrType.CNAME) {
                problem(typeTok, RrType.name(rr.type()) + " at " + owner + " conflicts with its "
                        + (node.dyn.dync() ? "DYNC" : "DYNA") + " record");
                return;
            }
        }
        boolean hasCname = !node.rrset(RrType.CNAME).isEmpty();
        if (rr.type() == RrType.CNAME ? !node.rrsets.isEmpty() : hasCname) {
            problem(typeTok, "CNAME at " + owner + " cannot coexist with other records (RFC 1034 §3.6.2)");
            return;
        }
        List<Rr> set = node.rrsets.computeIfAbsent(rr.type(), k -> new ArrayList<>());
        for (Rr r : set) {
            if (java.util.Arrays.equals(r.rdata(), rr.rdata())) {
                return; // duplicate record: RFC 2181 §5 sets have no duplicates
            }
        }
        if (!set.isEmpty() && set.get(0).ttl() != rr.ttl()) {
            // RFC 2181 §5.2: one TTL per RRset; the lowest wins, as BIND does
            long ttl = Math.min(set.get(0).ttl(), rr.ttl());
            set.replaceAll(r -> r.withTtl(ttl));
            rr = rr.withTtl(ttl);
        }
        set.add(rr);
    }

    private boolean count(Token typeTok, List<Token> rd, int n) {
        if (rd.size() != n) {
            problem(rd.size() > n ? rd.get(n) : typeTok, typeTok.text().toUpperCase(Locale.ROOT) + " takes " + n
                    + " field" + (n == 1 ? "" : "s") + ", found " + rd.size());
            return false;
        }
        return true;
    }

    private long number(Token t, long max) {
        try {
            long v = Long.parseLong(t.text());
            if (v >= 0 && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problem(t, "'" + t.text() + "' is not a number from 0 to " + max);
        return -1;
    }

    private byte[] unescape(Token t) {
        byte[] raw = t.text().getBytes(StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < raw.length; i++) {
            byte b = raw[i];
            if (b == '\\' && i + 1 < raw.length) {
                byte d = raw[i + 1];
                if (d >= '0' && d <= '9') {
                    if (i + 3 >= raw.length) {
                        problem(t, "bad \\DDD escape");
                        return null;
                    }
                    int v = (d - '0') * 100 + (raw[i + 2] - '0') * 10 + (raw[i + 3] - '0');
                    if (v > 255) {
                        problem(t, "bad \\DDD escape");
                        return null;
                    }
                    out.write(v);
                    i += 3;
                } else {
                    out.write(d);
                    i++;
                }
            } else {
                out.write(b);
            }
        }
        return out.toByteArray();
    }

    static byte[] ipv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] a = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit)) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            a[i] = (byte) v;
        }
        return a;
    }

    static byte[] ipv6(String s) {
        if (s.indexOf(':') < 0 || !s.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
            return null;
        }
        try {
            // a literal: no name lookup happens for a string with ':' and only hex digits
            byte[] a = java.net.InetAddress.getByName(s).getAddress();
            if (a.length == 4) {
                byte[] m = new byte[16];
                m[10] = (byte) 0xFF;
                m[11] = (byte) 0xFF;
                System.arraycopy(a, 0, m, 12, 4);
                return m;
            }
            return a;
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }
}
