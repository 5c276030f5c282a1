package lookout.engine.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import lookout.engine.config.PvaConfig.PvaAddress;
import lookout.engine.config.vscf.Position;
import lookout.engine.config.vscf.VNode;

/**
 * Binds the {@code pva} section. For each key that is absent the matching EPICS environment
 * variable is read, then the EPICS default (seed 002 §9; pvxs's client and server config), so an
 * operator's usual {@code EPICS_PVA_*} settings carry over.
 */
final class PvaBinder {

    static final List<String> KEYS = List.of("addr_list", "auto_addr_list", "name_servers", "broadcast_port",
            "server_port", "beacon_addr_list", "auto_beacon_addr_list", "ignore_addr_list", "server", "watch",
            "discovery_at_start", "ignore_guids");
    static final List<String> SERVER_KEYS = List.of("enable", "name_server", "on_demand_limit", "on_demand_rate",
            "on_demand_per_client", "on_demand_hold", "check_interval", "check_after", "udp_threads");
    /** Upper bounds: beyond them a value is a typo, not a setting. */
    static final int MAX_ON_DEMAND_LIMIT = 10_000_000;
    static final int MAX_ON_DEMAND_RATE = 1_000_000;
    static final int MAX_SECONDS = 86_400;
    static final int MAX_UDP_THREADS = 64;

    static final int DEFAULT_BROADCAST_PORT = 5076;
    static final int DEFAULT_SERVER_PORT = 5075;

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9.])?");
    private static final Pattern GUID = Pattern.compile("(0x)?[0-9a-fA-F]{24}");

    private final Map<String, String> env;
    private final ConfigProblems p;
    /** Where environment problems are reported: the pva key, else the top of the file. */
    private final Position envPos;
    /** A variable read for two keys (pvxs fallbacks) is reported once. */
    private final java.util.Set<String> reported = new java.util.HashSet<>();

    private PvaBinder(Map<String, String> env, ConfigProblems p, Position envPos) {
        this.env = env;
        this.p = p;
        this.envPos = envPos;
    }

    static PvaConfig bind(VNode node, Position envPos, Map<String, String> env, ConfigProblems p) {
        return new PvaBinder(env, p, envPos).bind(node);
    }

    private PvaConfig bind(VNode node) {
        VNode.Hash h = null;
        if (node != null) {
            h = Bind.hash(node, "pva", p);
        }
        if (h == null) {
            h = new VNode.Hash(List.of(), envPos);
        } else {
            Bind.knownKeys(h, "pva", KEYS, p);
        }
        List<PvaAddress> addrList = addresses(h, "addr_list", "EPICS_PVA_ADDR_LIST");
        boolean autoAddrList = bool(h, "auto_addr_list", true, "EPICS_PVA_AUTO_ADDR_LIST");
        List<PvaAddress> nameServers = addresses(h, "name_servers", "EPICS_PVA_NAME_SERVERS");
        int broadcastPort = port(h, "broadcast_port", DEFAULT_BROADCAST_PORT, "EPICS_PVA_BROADCAST_PORT");
        int serverPort = port(h, "server_port", DEFAULT_SERVER_PORT, "EPICS_PVA_SERVER_PORT");
        // pvxs: the server's beacon settings fall back to the client's address list settings.
        List<PvaAddress> beaconAddrList = addresses(h, "beacon_addr_list", "EPICS_PVAS_BEACON_ADDR_LIST",
                "EPICS_PVA_ADDR_LIST");
        boolean autoBeacon = bool(h, "auto_beacon_addr_list", true, "EPICS_PVAS_AUTO_BEACON_ADDR_LIST",
                "EPICS_PVA_AUTO_ADDR_LIST");
        List<PvaAddress> ignore = addresses(h, "ignore_addr_list", "EPICS_PVAS_IGNORE_ADDR_LIST");

        PvaConfig.PvaServerConfig server = new PvaConfig.PvaServerConfig(false, false);
        if (h.get("server") != null) {
            VNode.Hash s = Bind.hash(h.get("server"), "pva.server", p);
            if (s != null) {
                server = server(s);
            }
        }
        List<String> watch = new ArrayList<>();
        java.util.Set<String> watched = new java.util.HashSet<>();
        if (h.get("watch") != null) {
            for (VNode.Scalar s : Bind.scalars(h.get("watch"), "pva.watch", "a PV name", p)) {
                if (s.value().isEmpty() || s.value().chars().anyMatch(c -> c <= 0x20 || c == 0x7f)) {
                    p.add(s, "pva.watch", "pva.watch: expected a PV name without spaces or control characters, found '"
                            + s.value() + "'");
                } else if (!watched.add(s.value())) {
                    p.add(s, "pva.watch", "pva.watch: '" + s.value() + "' is listed twice; expected each PV name once");
                } else {
                    watch.add(s.value());
                }
            }
        }
        boolean discovery = false;
        if (h.get("discovery_at_start") != null) {
            discovery = Boolean.TRUE.equals(Bind.bool(h.get("discovery_at_start"), "pva.discovery_at_start", p));
        }
        List<String> guids = new ArrayList<>();
        if (h.get("ignore_guids") != null) {
            for (VNode.Scalar s : Bind.scalars(h.get("ignore_guids"), "pva.ignore_guids", "a GUID", p)) {
                if (GUID.matcher(s.value()).matches()) {
                    String g = s.value().toLowerCase(Locale.ROOT);
                    guids.add(g.startsWith("0x") ? g.substring(2) : g);
                } else {
                    p.add(s, "pva.ignore_guids", "pva.ignore_guids: expected a server GUID of 24 hex digits, found '"
                            + s.value() + "'");
                }
            }
        }
        return new PvaConfig(addrList, autoAddrList, nameServers, broadcastPort, serverPort, beaconAddrList,
                autoBeacon, ignore, server, watch, discovery, guids);
    }

    /** {@code pva.server}: the switches, the on-demand limits, the checks of claimed servers, the responder threads. */
    private PvaConfig.PvaServerConfig server(VNode.Hash s) {
        Bind.knownKeys(s, "pva.server", SERVER_KEYS, p);
        boolean enable = s.get("enable") != null && Boolean.TRUE.equals(Bind.bool(s.get("enable"), "pva.server.enable", p));
        boolean ns = s.get("name_server") != null
                && Boolean.TRUE.equals(Bind.bool(s.get("name_server"), "pva.server.name_server", p));
        int limit = integer(s, "on_demand_limit", PvaConfig.PvaServerConfig.DEFAULT_ON_DEMAND_LIMIT, 1, MAX_ON_DEMAND_LIMIT);
        int rate = integer(s, "on_demand_rate", PvaConfig.PvaServerConfig.DEFAULT_ON_DEMAND_RATE, 1, MAX_ON_DEMAND_RATE);
        int perClient = Math.max(1, limit / 4);
        if (s.get("on_demand_per_client") != null) {
            Integer v = Bind.integer(s.get("on_demand_per_client"), "pva.server.on_demand_per_client", 1, limit, p);
            perClient = v == null ? perClient : v;
        }
        int hold = integer(s, "on_demand_hold", PvaConfig.PvaServerConfig.DEFAULT_ON_DEMAND_HOLD, 1, MAX_SECONDS);
        int interval = integer(s, "check_interval", PvaConfig.PvaServerConfig.DEFAULT_CHECK_INTERVAL, 1, MAX_SECONDS);
        int after = integer(s, "check_after", PvaConfig.PvaServerConfig.DEFAULT_CHECK_AFTER, 1, MAX_SECONDS);
        int threads = integer(s, "udp_threads", 0, 0, MAX_UDP_THREADS);
        return new PvaConfig.PvaServerConfig(enable, ns, limit, rate, perClient, hold, interval, after, threads);
    }

    private int integer(VNode.Hash s, String key, int dflt, int min, int max) {
        if (s.get(key) == null) {
            return dflt;
        }
        Integer v = Bind.integer(s.get(key), "pva.server." + key, min, max, p);
        return v == null ? dflt : v;
    }

    private void envProblem(String var, String key, String message) {
        if (reported.add(var)) {
            p.add(envPos, "pva." + key, "environment " + var + ": " + message);
        }
    }

    private String envValue(String... vars) {
        for (String v : vars) {
            String x = env.get(v);
            if (x != null) {
                return x;
            }
        }
        return null;
    }

    private String envName(String... vars) {
        for (String v : vars) {
            if (env.get(v) != null) {
                return v;
            }
        }
        return null;
    }

    private List<PvaAddress> addresses(VNode.Hash h, String key, String... vars) {
        String path = "pva." + key;
        List<PvaAddress> out = new ArrayList<>();
        VNode v = h.get(key);
        if (v != null) {
            for (VNode.Scalar s : Bind.scalars(v, path, "an address host[:port]", p)) {
                try {
                    out.add(address(s.value()));
                } catch (IllegalArgumentException e) {
                    p.add(s, path, path + ": expected host[:port], found '" + s.value() + "': " + e.getMessage());
                }
            }
            return out;
        }
        String x = envValue(vars);
        if (x == null) {
            return out;
        }
        // EPICS list syntax: entries separated by blanks.
        for (String item : x.trim().split("\\s+")) {
            if (item.isEmpty()) {
                continue;
            }
            try {
                out.add(address(item));
            } catch (IllegalArgumentException e) {
                envProblem(envName(vars), key, "expected space-separated host[:port] entries, found '"
                        + item + "': " + e.getMessage());
            }
        }
        return out;
    }

    private boolean bool(VNode.Hash h, String key, boolean dflt, String... vars) {
        VNode v = h.get(key);
        if (v != null) {
            Boolean b = Bind.bool(v, "pva." + key, p);
            return b == null ? dflt : b;
        }
        String x = envValue(vars);
        if (x == null) {
            return dflt;
        }
        switch (x.trim().toUpperCase(Locale.ROOT)) {
            case "YES", "TRUE", "1":
                return true;
            case "NO", "FALSE", "0":
                return false;
            default:
                envProblem(envName(vars), key, "expected YES or NO, found '" + x + "'");
                return dflt;
        }
    }

    private int port(VNode.Hash h, String key, int dflt, String var) {
        VNode v = h.get(key);
        if (v != null) {
            Integer i = Bind.integer(v, "pva." + key, 1, 65535, p);
            return i == null ? dflt : i;
        }
        String x = env.get(var);
        if (x == null) {
            return dflt;
        }
        try {
            return Addresses.port(x.trim(), false);
        } catch (IllegalArgumentException e) {
            envProblem(var, key, "expected a port from 1 to 65535, found '" + x + "'");
            return dflt;
        }
    }

    /** {@code host[:port]}: an IPv4 address, {@code [ipv6]} or a host name; port 0 = the list's default. */
    static PvaAddress address(String s) {
        String host = s;
        int port = 0;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("missing ']' after the IPv6 address");
            }
            host = s.substring(1, close);
            String rest = s.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw new IllegalArgumentException("expected ':port' after ']'");
                }
                port = Addresses.port(rest.substring(1), false);
            }
            if (Addresses.ipLiteral(host) == null || host.indexOf(':') < 0) {
                throw new IllegalArgumentException("'" + host + "' is not an IPv6 address");
            }
            return new PvaAddress(host, port);
        }
        int colon = s.indexOf(':');
        if (colon >= 0 && colon != s.lastIndexOf(':')) {
            if (Addresses.ipLiteral(s) == null) {
                throw new IllegalArgumentException("'" + s + "' is not an IPv6 address");
            }
            return new PvaAddress(s, 0);
        }
        if (colon >= 0) {
            host = s.substring(0, colon);
            port = Addresses.port(s.substring(colon + 1), false);
        }
        if (host.isEmpty() || !HOST.matcher(host).matches()) {
            throw new IllegalArgumentException("'" + host + "' is not an address or host name");
        }
        if (host.chars().allMatch(c -> c == '.' || Character.isDigit(c)) && Addresses.ipLiteral(host) == null) {
            throw new IllegalArgumentException("'" + host + "' is not an IPv4 address");
        }
        return new PvaAddress(host, port);
    }
}
