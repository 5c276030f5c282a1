package lookout.engine.config;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lookout.engine.config.vscf.Position;
import lookout.engine.config.vscf.VNode;

/**
 * The gdnsd {@code plugins => { weighted => ... }} stanza, bound with gdnsd 3.8's rules
 * (plugins/weighted.c; seed 001; SPEC §Weighted pools). Zones ask it whether a
 * {@code DYNA}/{@code DYNC} resource exists ({@link #hasResource}, {@link #isCnameResource},
 * {@link #checkUse}); the pools service compiles {@link #resources()}.
 *
 * @param addressResources names of resources with address data
 * @param cnameResources   names of resources with CNAME data
 * @param resources        every resource by name, in configuration order
 */
public record WeightedConfig(Set<String> addressResources, Set<String> cnameResources,
                             Map<String, WeightedResource> resources) {

    /** seed 001 LIMITS: weights are 1 to 2^20 − 1. */
    public static final int MAX_WEIGHT = 1_048_575;
    /** seed 001 LIMITS: at most 64 items (addresses, groups or CNAMEs) per level. */
    public static final int MAX_ITEMS = 64;

    private static final String P = "plugin_weighted: ";
    private static final Set<String> PARAMS = Set.of("service_types", "multi", "up_thresh");
    private static final java.util.regex.Pattern DECIMAL =
            java.util.regex.Pattern.compile("\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    public WeightedConfig {
        addressResources = Collections.unmodifiableSet(new LinkedHashSet<>(addressResources));
        cnameResources = Collections.unmodifiableSet(new LinkedHashSet<>(cnameResources));
        resources = Collections.unmodifiableMap(new LinkedHashMap<>(resources));
    }

    /** Names only (no resource data): for callers that only test existence. */
    public WeightedConfig(Set<String> addressResources, Set<String> cnameResources) {
        this(addressResources, cnameResources, Map.of());
    }

    public static WeightedConfig empty() {
        return new WeightedConfig(Set.of(), Set.of(), Map.of());
    }

    public boolean hasResource(String name) {
        return addressResources.contains(name) || cnameResources.contains(name);
    }

    public boolean isCnameResource(String name) {
        return cnameResources.contains(name);
    }

    /**
     * gdnsd's {@code map_res} checks for a use of {@code resource} in zone {@code zoneOrigin}
     * (fully qualified): null when fine, else the message. {@code dyna} is true for a
     * {@code DYNA} record, false for {@code DYNC}.
     */
    public String checkUse(String resource, String zoneOrigin, boolean dyna) {
        if (resource == null || resource.isEmpty()) {
            return P + "resource name required";
        }
        if (!hasResource(resource)) {
            return P + "unknown resource '" + resource + "'";
        }
        WeightedResource r = resources.get(resource);
        if (isCnameResource(resource)) {
            if (dyna) {
                return P + "Resource '" + resource + "' used in a DYNA RR, but has CNAME data";
            }
            if (r != null) {
                for (WeightedGroup g : r.cnames().groups()) {
                    for (WeightedItem i : g.items()) {
                        if (inZone(i.target(), zoneOrigin)) {
                            return P + "Resource '" + resource + "' CNAME value '" + i.target()
                                    + "' cannot be used within zone '" + zoneOrigin + "'";
                        }
                    }
                }
            }
        }
        return null;
    }

    static boolean inZone(String name, String zone) {
        String n = name.toLowerCase();
        String z = zone.toLowerCase();
        if (!z.endsWith(".")) {
            z = z + ".";
        }
        return z.equals(".") || n.equals(z) || n.endsWith("." + z);
    }

    // ------------------------------------------------------------------ binding

    /**
     * Binds {@code plugins => { weighted => ... }} with gdnsd's rules (seed 001), reporting each
     * problem to {@code problems}. {@code stanza} is null when the file has no weighted stanza.
     * A resource with an error is left out; binding goes on so that one run lists every error.
     */
    public static WeightedConfig bind(VNode.Hash stanza, Map<String, ServiceTypeConfig> serviceTypes,
                                      ConfigProblems problems) {
        if (stanza == null) {
            return empty();
        }
        Binder b = new Binder(serviceTypes, problems);
        Map<String, VNode> top = params(stanza);
        Map<String, WeightedResource> resources = new LinkedHashMap<>();
        Set<String> v = new LinkedHashSet<>();
        Set<String> c = new LinkedHashSet<>();
        for (VNode.Entry e : stanza.entries()) {
            if (PARAMS.contains(e.key())) {
                continue;
            }
            WeightedResource r = b.resource(e, top);
            if (r != null) {
                resources.put(r.name(), r);
                (r.isCname() ? c : v).add(r.name());
            }
        }
        return new WeightedConfig(v, c, resources);
    }

    private static Map<String, VNode> params(VNode.Hash h) {
        Map<String, VNode> m = new LinkedHashMap<>();
        for (String k : PARAMS) {
            VNode n = h.get(k);
            if (n != null) {
                m.put(k, n);
            }
        }
        return m;
    }

    /** One binding run; {@code failed} tells whether the current resource had an error. */
    private static final class Binder {
        private final Map<String, ServiceTypeConfig> serviceTypes;
        private final ConfigProblems problems;
        private boolean failed;

        Binder(Map<String, ServiceTypeConfig> serviceTypes, ConfigProblems problems) {
            this.serviceTypes = serviceTypes;
            this.problems = problems;
        }

        private void error(VNode node, String path, String message) {
            failed = true;
            problems.add(node, path, P + message);
        }

        private void error(Position pos, String path, String message) {
            failed = true;
            problems.add(pos, path, P + message);
        }

        WeightedResource resource(VNode.Entry e, Map<String, VNode> top) {
            failed = false;
            String name = e.key();
            String path = "plugins.weighted." + name;
            if (!(e.value() instanceof VNode.Hash res)) {
                error(e.value(), path, "the value of resource '" + name + "' must be a hash");
                return null;
            }
            // seed 001: service_types, multi and up_thresh trickle down top -> resource -> family
            Map<String, VNode> inherited = new LinkedHashMap<>(top);
            inherited.putAll(params(res));
            if (res.get("cnames") != null) {
                error(res.entry("cnames").keyPos(), path + ".cnames", "resource '" + name
                        + "': the pointless singleton 'cnames' substanza is no longer supported; move the data up a level without it");
                return null;
            }
            VNode.Entry v4 = res.entry("addrs_v4");
            VNode.Entry v6 = res.entry("addrs_v6");
            WeightedFamily f4 = null;
            WeightedFamily f6 = null;
            WeightedFamily cn = null;
            if (v4 != null || v6 != null) {
                if (v4 != null) {
                    f4 = explicitFamily(name, path, v4, false, inherited);
                }
                if (v6 != null) {
                    f6 = explicitFamily(name, path, v6, true, inherited);
                }
                for (VNode.Entry other : res.entries()) {
                    if (!PARAMS.contains(other.key()) && !other.key().equals("addrs_v4") && !other.key().equals("addrs_v6")) {
                        error(other.keyPos(), path + "." + other.key(), "resource '" + name
                                + "' seems to have explicit 'addrs_v4', 'addrs_v6', or 'cnames' configuration mixed with direct item config (e.g. '"
                                + other.key() + "'), which is not allowed");
                    }
                }
            } else {
                List<VNode.Entry> items = items(res);
                if (items.isEmpty()) {
                    error(e.keyPos(), path, "resource '" + name + "' (direct) contains no weighted items");
                    return null;
                }
                VNode.Entry first = items.get(0);
                String ipath = path + "." + first.key();
                if (first.value() instanceof VNode.Hash g) {
                    if (g.entries().isEmpty()) {
                        error(g, ipath, "resource '" + name + "' (direct): group '" + first.key() + "': contains no addresses");
                        return null;
                    }
                    VNode.Entry lb = g.entries().get(0);
                    if (!(lb.value() instanceof VNode.Array a) || a.items().isEmpty()
                            || !(a.items().get(0) instanceof VNode.Scalar s)) {
                        error(lb.value(), ipath + "." + lb.key(), "resource '" + name + "' (direct): group '" + first.key()
                                + "': item '" + lb.key() + "': value must be an array of [ IP, weight ]");
                        return null;
                    }
                    InetAddress addr = parseAddress(s.value());
                    if (addr == null) {
                        error(s, ipath + "." + lb.key(), "resource '" + name + "' (direct): group '" + first.key() + "': item '"
                                + lb.key() + "': could not parse '" + s.value() + "' as an IP address");
                        return null;
                    }
                    if (addr instanceof Inet6Address) {
                        f6 = family(name, path, "direct", true, res, inherited);
                    } else {
                        f4 = family(name, path, "direct", false, res, inherited);
                    }
                } else if (first.value() instanceof VNode.Array a) {
                    if (a.items().isEmpty() || !(a.items().get(0) instanceof VNode.Scalar s)) {
                        error(first.value(), ipath, "resource '" + name + "' (direct): item '" + first.key()
                                + "': first element of array should be an IP address or CNAME string");
                        return null;
                    }
                    InetAddress addr = parseAddress(s.value());
                    if (addr == null) {
                        cn = cnames(name, path, res, inherited);
                    } else if (addr instanceof Inet6Address) {
                        f6 = family(name, path, "direct", true, res, inherited);
                    } else {
                        f4 = family(name, path, "direct", false, res, inherited);
                    }
                } else {
                    error(first.value(), ipath, "resource '" + name + "' (direct): item '" + first.key()
                            + "': resource type not detectable (should be array of [ IP, weight ], array of [ CNAME, weight ], or hashed address group ...)");
                    return null;
                }
            }
            if (failed) {
                return null;
            }
            return new WeightedResource(name, f4, f6, cn, e.keyPos());
        }

        private WeightedFamily explicitFamily(String name, String path, VNode.Entry e, boolean ipv6,
                                              Map<String, VNode> inherited) {
            if (!(e.value() instanceof VNode.Hash h)) {
                error(e.value(), path + "." + e.key(), "resource '" + name + "' stanza '" + e.key() + "' value must be a hash");
                return null;
            }
            Map<String, VNode> own = new LinkedHashMap<>(inherited);
            own.putAll(params(h));
            return family(name, path + "." + e.key(), e.key(), ipv6, h, own);
        }

        private static List<VNode.Entry> items(VNode.Hash h) {
            List<VNode.Entry> l = new ArrayList<>();
            for (VNode.Entry e : h.entries()) {
                if (!PARAMS.contains(e.key())) {
                    l.add(e);
                }
            }
            return l;
        }

        private List<String> serviceTypes(String name, String stanza, String path, Map<String, VNode> params) {
            VNode n = params.get("service_types");
            if (n == null) {
                return List.of("up"); // gdnsd DEFAULT_SVCNAME
            }
            List<VNode> list = n instanceof VNode.Array a ? a.items() : List.of(n);
            List<String> out = new ArrayList<>();
            for (VNode t : list) {
                if (!(t instanceof VNode.Scalar s)) {
                    error(t, path + ".service_types", "resource '" + name + "' (" + stanza + "): service_types values must be strings");
                    return List.of();
                }
                if (!out.contains(s.value())) {
                    out.add(s.value());
                }
            }
            return out;
        }

        private double upThresh(String name, String stanza, String path, Map<String, VNode> params) {
            VNode n = params.get("up_thresh");
            if (n == null) {
                return 0.5;
            }
            double v = Double.NaN;
            // strtod over the whole string; Java's parser would also take "0.5f" or " 0.5 "
            if (n instanceof VNode.Scalar s && DECIMAL.matcher(s.value()).matches()) {
                v = Double.parseDouble(s.value().trim());
            }
            if (!(v > 0.0 && v <= 1.0)) {
                error(n, path + ".up_thresh", "resource '" + name + "' (" + stanza
                        + "): 'up_thresh' must be a floating point value in the range (0.0 - 1.0]");
                return 0.5;
            }
            return v;
        }

        private WeightedFamily family(String name, String path, String stanza, boolean ipv6, VNode.Hash cfg,
                                      Map<String, VNode> params) {
            List<String> svcs = serviceTypes(name, stanza, path, params);
            boolean multi = false;
            VNode m = params.get("multi");
            if (m != null) {
                if (m instanceof VNode.Scalar s && (s.value().equalsIgnoreCase("true") || s.value().equalsIgnoreCase("false"))) {
                    multi = s.value().equalsIgnoreCase("true");
                } else {
                    error(m, path + ".multi", "resource '" + name + "' (" + stanza + "): 'multi' must be a boolean value ('true' or 'false')");
                }
            }
            double upThresh = upThresh(name, stanza, path, params);
            List<VNode.Entry> items = items(cfg);
            if (items.size() > MAX_ITEMS) {
                error(items.get(MAX_ITEMS).keyPos(), path, "resource '" + name + "' (" + stanza
                        + "): number of direct groups or addrs within one family cannot be more than " + MAX_ITEMS);
                return null;
            }
            if (items.isEmpty()) {
                error(cfg, path, "resource '" + name + "' (" + stanza + "): empty address-family sets not allowed");
                return null;
            }
            boolean grouped;
            if (items.get(0).value() instanceof VNode.Hash) {
                grouped = true;
            } else if (items.get(0).value() instanceof VNode.Array) {
                grouped = false;
            } else {
                error(items.get(0).value(), path + "." + items.get(0).key(), "resource '" + name + "' (" + stanza
                        + "): item data must be hash (grouped mode) or array (ungrouped mode)");
                return null;
            }
            List<WeightedGroup> groups = new ArrayList<>();
            for (VNode.Entry item : items) {
                String ipath = path + "." + item.key();
                if (!grouped) {
                    WeightedItem wi = address(item.value(), ipath, ipv6, svcs, false,
                            "resource '" + name + "' (" + stanza + "): item '" + item.key() + "': ", item.key());
                    if (wi != null) {
                        groups.add(new WeightedGroup(item.key(), List.of(wi), item.keyPos()));
                    }
                    continue;
                }
                if (!(item.value() instanceof VNode.Hash g)) {
                    error(item.value(), ipath, "resource '" + name + "' (" + stanza + "), group '" + item.key()
                            + "': groups values must be a hashes");
                    continue;
                }
                if (g.entries().isEmpty()) {
                    error(g, ipath, "resource '" + name + "' (" + stanza + "), group '" + item.key()
                            + "': must contain one or more label => [ IPADDR, WEIGHT ] settings");
                    continue;
                }
                if (g.entries().size() > MAX_ITEMS) {
                    error(g.entries().get(MAX_ITEMS).keyPos(), ipath, "resource '" + name + "' (" + stanza + "), group '"
                            + item.key() + "': too many addresses (max " + MAX_ITEMS + ")");
                    continue;
                }
                List<WeightedItem> members = new ArrayList<>();
                for (VNode.Entry lb : g.entries()) {
                    WeightedItem wi = address(lb.value(), ipath + "." + lb.key(), ipv6, svcs, true,
                            "resource '" + name + "' (" + stanza + "), group '" + item.key() + "', addr '" + lb.key() + "': ",
                            lb.key());
                    if (wi != null) {
                        members.add(wi);
                    }
                }
                if (members.size() == g.entries().size()) {
                    groups.add(new WeightedGroup(item.key(), members, item.keyPos()));
                }
            }
            if (groups.size() != items.size()) {
                return null;
            }
            long total = 0;
            for (WeightedGroup gr : groups) {
                total += gr.weight();
            }
            WeightedFamily.Kind kind = ipv6 ? WeightedFamily.Kind.IPV6 : WeightedFamily.Kind.IPV4;
            return new WeightedFamily(stanza, kind, multi, grouped, upThresh, svcs, groups,
                    WeightedFamily.upWeight(total, upThresh));
        }

        /**
         * One {@code [ IPADDR, WEIGHT ]}; {@code ctx} names resource, stanza, group and item (gdnsd
         * leaves the item out of some group-mode messages; we always name it).
         */
        private WeightedItem address(VNode value, String path, boolean ipv6, List<String> svcs, boolean inGroup,
                                     String ctx, String label) {
            Integer w = weight(value);
            if (w == null) {
                error(value, path, ctx + (inGroup
                        ? "values in address group mode must be arrays of [ IPADDR, WEIGHT ], where weight must be an integer in the range 1 - "
                        : "values in addrs mode must be arrays of [ IPADDR, WEIGHT ], where weight must be an integer in the range 1 - ")
                        + MAX_WEIGHT);
                return null;
            }
            VNode.Scalar a = (VNode.Scalar) ((VNode.Array) value).items().get(0);
            InetAddress addr = parseAddress(a.value());
            if (addr == null) {
                error(a, path, ctx + "parsing '" + a.value() + "' as an IP address failed");
                return null;
            }
            if (ipv6 && !(addr instanceof Inet6Address)) {
                error(a, path, ctx + "'" + a.value() + "' is IPv4, was expecting IPv6");
                return null;
            }
            if (!ipv6 && !(addr instanceof Inet4Address)) {
                error(a, path, ctx + "'" + a.value() + "' is IPv6, was expecting IPv4");
                return null;
            }
            String text = addressText(addr);
            if (!checkServiceTypes(svcs, text, false, a, path)) {
                return null;
            }
            return new WeightedItem(label, text, w, value.pos());
        }

        private boolean checkServiceTypes(List<String> svcs, String target, boolean cname, VNode at, String path) {
            for (String s : svcs) {
                ServiceTypeConfig t = serviceTypes.get(s);
                if (t == null) {
                    String hint = ConfigProblems.closest(s, serviceTypes.keySet());
                    failed = true;
                    problems.add(at, path, "Invalid service type '" + s + "' in monitoring request for '" + target + "'"
                            + (hint != null ? "; did you mean '" + hint + "'?" : ""));
                    return false;
                }
                if (cname && !t.monitorsCnames()) {
                    failed = true;
                    problems.add(at, path, "Service type '" + s + "' does not support CNAME monitoring for '" + target + "'");
                    return false;
                }
            }
            return true;
        }

        /** The weight of {@code [ X, WEIGHT ]}, or null when the shape or the weight is wrong. */
        private static Integer weight(VNode value) {
            if (!(value instanceof VNode.Array a) || a.items().size() != 2
                    || !(a.items().get(0) instanceof VNode.Scalar) || !(a.items().get(1) instanceof VNode.Scalar ws)) {
                return null;
            }
            Long w = ServiceTypeConfig.parseCLong(ws.value());
            if (w == null || w < 1 || w > MAX_WEIGHT) {
                return null;
            }
            return (int) (long) w;
        }

        private WeightedFamily cnames(String name, String path, VNode.Hash cfg, Map<String, VNode> params) {
            String stanza = "direct";
            List<String> svcs = serviceTypes(name, stanza, path, params);
            double upThresh = upThresh(name, stanza, path, params);
            // seed 001: multi is ignored for CNAME resources (it may be inherited)
            List<VNode.Entry> items = items(cfg);
            if (items.size() > MAX_ITEMS) {
                error(items.get(MAX_ITEMS).keyPos(), path, "resource '" + name + "' (" + stanza
                        + "): number of cnames cannot be more than " + MAX_ITEMS);
                return null;
            }
            List<WeightedGroup> groups = new ArrayList<>();
            for (VNode.Entry item : items) {
                String ctx = "resource '" + name + "' (" + stanza + "), item '" + item.key() + "': ";
                String ipath = path + "." + item.key();
                Integer w = weight(item.value());
                if (w == null) {
                    error(item.value(), ipath, ctx
                            + "values in cname mode must be arrays of [ CNAME, WEIGHT ], where weight must be an integer in the range 1 - "
                            + MAX_WEIGHT);
                    continue;
                }
                VNode.Scalar cn = (VNode.Scalar) ((VNode.Array) item.value()).items().get(0);
                String text = cn.value();
                if (!legalDomainName(text)) {
                    error(cn, ipath, ctx + "'" + text + "' is not a legal domainname");
                    continue;
                }
                if (!text.endsWith(".")) {
                    error(cn, ipath, ctx + "'" + text + "' must be fully qualified (end in dot)");
                    continue;
                }
                if (!checkServiceTypes(svcs, text, true, cn, ipath)) {
                    continue;
                }
                groups.add(new WeightedGroup(item.key(), List.of(new WeightedItem(item.key(), text, w, item.value().pos())),
                        item.keyPos()));
            }
            if (groups.size() != items.size()) {
                return null;
            }
            long total = 0;
            for (WeightedGroup g : groups) {
                total += g.weight();
            }
            return new WeightedFamily(stanza, WeightedFamily.Kind.CNAME, false, false, upThresh, svcs, groups,
                    WeightedFamily.upWeight(total, upThresh));
        }
    }

    // ------------------------------------------------------------------ addresses and names

    /**
     * A numeric IPv4 (dotted quad) or IPv6 address, or null. Never consults DNS: gdnsd parses with
     * {@code AI_NUMERICHOST}.
     */
    public static InetAddress parseAddress(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (text.indexOf(':') < 0) {
            String[] parts = text.split("\\.", -1);
            if (parts.length != 4) {
                return null;
            }
            byte[] b = new byte[4];
            for (int i = 0; i < 4; i++) {
                if (parts[i].isEmpty() || parts[i].length() > 3 || !parts[i].chars().allMatch(Character::isDigit)) {
                    return null;
                }
                long v = Long.parseLong(parts[i]);
                if (v > 255) {
                    return null;
                }
                b[i] = (byte) v;
            }
            try {
                return InetAddress.getByAddress(b);
            } catch (UnknownHostException e) {
                return null;
            }
        }
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (!(ch == ':' || ch == '.' || Character.digit(ch, 16) >= 0)) {
                return null;
            }
        }
        try {
            // A literal with ':' is parsed, never looked up.
            InetAddress a = InetAddress.getByName(text);
            if (a instanceof Inet4Address) {
                // Java folds ::ffff:a.b.c.d to IPv4; getaddrinfo keeps it IPv6.
                byte[] b = new byte[16];
                b[10] = (byte) 0xff;
                b[11] = (byte) 0xff;
                System.arraycopy(a.getAddress(), 0, b, 12, 4);
                return Inet6Address.getByAddress(null, b, -1);
            }
            return a;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** inet_ntop's text: dotted quad, or RFC 5952 (lower case, longest zero run as "::", mapped IPv4 dotted). */
    public static String addressText(InetAddress a) {
        return lookout.engine.net.HostPort.address(a);
    }

    /** A domain name gdnsd accepts: labels of 1 to 63 octets, 255 octets in all, optional final dot. */
    static boolean legalDomainName(String text) {
        if (text.isEmpty() || text.length() > 254 || text.equals(".")) {
            return text.equals(".");
        }
        String body = text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
        for (String label : body.split("\\.", -1)) {
            if (label.isEmpty() || label.length() > 63) {
                return false;
            }
        }
        return true;
    }
}
