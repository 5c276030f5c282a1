package lookout.engine.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.config.vscf.Position;
import lookout.engine.config.vscf.VNode;

/** Binds the {@code resolver} section (SPEC "Configuration", seed 000 for the server lists). */
final class ResolverBinder {

    static final List<String> KEYS = List.of("listen", "allow", "scopes", "fallback_servers", "search", "cache_size", "udp_threads",
            "udp_receive_buffer", "serve_stale", "tcp_idle_timeout", "tcp_clients", "tcp_pipeline");
    static final List<String> SCOPE_KEYS = List.of("domains", "servers", "default");

    static final int DEFAULT_CACHE_SIZE = 10_000;
    static final int MAX_CACHE_SIZE = 10_000_000;
    /** gdnsd allows up to 1024; more loops than cores only add wake-ups. */
    static final int MAX_UDP_THREADS = 64;
    /** The smallest receive buffer asked for (Linux keeps at least about 2 KiB whatever is asked). */
    static final int MIN_UDP_RECEIVE_BUFFER = 4096;
    static final int MAX_UDP_RECEIVE_BUFFER = 1 << 30;
    /** RFC 8767 §5 suggests a stale limit of one to three days; a week at most. */
    static final int MAX_SERVE_STALE = 7 * 86_400;
    static final int MAX_TCP_IDLE_TIMEOUT = 3600;
    static final int MAX_TCP_CLIENTS = 65_536;
    static final int MAX_TCP_PIPELINE = 1024;
    /** A listen address without a port takes DNS's own port. */
    static final int DNS_PORT = 53;

    private ResolverBinder() {
    }

    static ResolverConfig defaults() {
        return new ResolverConfig(
                List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 8053)),
                defaultAllow(), List.of(), List.of(), List.of(), DEFAULT_CACHE_SIZE);
    }

    /** Never an open resolver by default: 127.0.0.0/8 and ::1/128. */
    static List<Cidr> defaultAllow() {
        return List.of(Addresses.cidr("127.0.0.0/8"), Addresses.cidr("::1/128"));
    }

    static ResolverConfig bind(VNode node, ConfigProblems p) {
        ResolverConfig d = defaults();
        if (node == null) {
            return d;
        }
        VNode.Hash h = Bind.hash(node, "resolver", p);
        if (h == null) {
            return d;
        }
        Bind.knownKeys(h, "resolver", KEYS, p);
        List<InetSocketAddress> listen = d.listen();
        if (h.get("listen") != null) {
            listen = servers(h.get("listen"), "resolver.listen", DNS_PORT, true, p);
        }
        List<Cidr> allow = d.allow();
        if (h.get("allow") != null) {
            allow = new ArrayList<>();
            for (VNode.Scalar s : Bind.scalars(h.get("allow"), "resolver.allow", "an address prefix", p)) {
                try {
                    allow.add(Addresses.cidr(s.value()));
                } catch (IllegalArgumentException e) {
                    p.add(s, "resolver.allow", "resolver.allow: expected an address prefix such as 10.0.0.0/8 or "
                            + "::1/128, found '" + s.value() + "': " + e.getMessage());
                }
            }
        }
        List<ResolverConfig.Scope> scopes = List.of();
        if (h.get("scopes") != null) {
            scopes = scopes(h.get("scopes"), p);
        }
        List<InetSocketAddress> fallback = List.of();
        if (h.get("fallback_servers") != null) {
            fallback = servers(h.get("fallback_servers"), "resolver.fallback_servers", DNS_PORT, false, p);
        }
        List<String> search = List.of();
        if (h.get("search") != null) {
            search = domains(h.get("search"), "resolver.search", p);
        }
        int cacheSize = d.cacheSize();
        if (h.get("cache_size") != null) {
            Integer c = Bind.integer(h.get("cache_size"), "resolver.cache_size", 0, MAX_CACHE_SIZE, p);
            cacheSize = c == null ? cacheSize : c;
        }
        int udpThreads = d.udpThreads();
        if (h.get("udp_threads") != null) {
            Integer t = Bind.integer(h.get("udp_threads"), "resolver.udp_threads", 1, MAX_UDP_THREADS, p);
            udpThreads = t == null ? udpThreads : t;
        }
        int receiveBuffer = d.udpReceiveBuffer();
        if (h.get("udp_receive_buffer") != null) {
            Integer b = bytes(h.get("udp_receive_buffer"), "resolver.udp_receive_buffer", p);
            receiveBuffer = b == null ? receiveBuffer : b;
        }
        int serveStale = integer(h, "serve_stale", 0, MAX_SERVE_STALE, d.serveStale(), p);
        int tcpIdle = integer(h, "tcp_idle_timeout", 1, MAX_TCP_IDLE_TIMEOUT, d.tcpIdleTimeout(), p);
        int tcpClients = integer(h, "tcp_clients", 1, MAX_TCP_CLIENTS, d.tcpClients(), p);
        int tcpPipeline = integer(h, "tcp_pipeline", 1, MAX_TCP_PIPELINE, d.tcpPipeline(), p);
        return new ResolverConfig(listen, allow, scopes, fallback, search, cacheSize, udpThreads, receiveBuffer, serveStale,
                tcpIdle, tcpClients, tcpPipeline);
    }

    /** {@code resolver.KEY} as an integer within [min, max], or {@code otherwise} when absent or wrong (reported). */
    private static int integer(VNode.Hash h, String key, int min, int max, int otherwise, ConfigProblems p) {
        if (h.get(key) == null) {
            return otherwise;
        }
        Integer v = Bind.integer(h.get(key), "resolver." + key, min, max, p);
        return v == null ? otherwise : v;
    }

    /**
     * A size in bytes: a number, or one with {@code k} or {@code m} after it (KiB, MiB, as unbound's
     * {@code so-rcvbuf: 4m}); 0 for the system's default, else from 4096 up to 1 GiB.
     */
    static Integer bytes(VNode v, String path, ConfigProblems p) {
        if (v instanceof VNode.Scalar s) {
            String t = s.value().trim().toLowerCase(java.util.Locale.ROOT);
            long unit = t.endsWith("k") ? 1024 : t.endsWith("m") ? 1024 * 1024 : 1;
            String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
            try {
                long x = Long.parseLong(digits) * unit;
                if (x == 0 || (x >= MIN_UDP_RECEIVE_BUFFER && x <= MAX_UDP_RECEIVE_BUFFER)) {
                    return (int) x;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        p.add(v, path, path + ": expected a size in bytes from " + MIN_UDP_RECEIVE_BUFFER + " to " + MAX_UDP_RECEIVE_BUFFER
                + " (or with k or m after it, such as 4m), or 0 for the system's default, found "
                + (v instanceof VNode.Scalar s ? "'" + s.value() + "'" : "a list or hash"));
        return null;
    }

    private static List<ResolverConfig.Scope> scopes(VNode node, ConfigProblems p) {
        List<ResolverConfig.Scope> out = new ArrayList<>();
        VNode.Hash h = Bind.hash(node, "resolver.scopes", p);
        if (h == null) {
            return out;
        }
        String defaultScope = null;
        Position defaultPos = null;
        Map<String, String> routedBy = new HashMap<>();
        for (VNode.Entry e : h.entries()) {
            String path = "resolver.scopes." + e.key();
            VNode.Hash s = Bind.hash(e.value(), path, p);
            if (s == null) {
                continue;
            }
            Bind.knownKeys(s, path, SCOPE_KEYS, p);
            List<String> domains = List.of();
            if (s.get("domains") != null) {
                domains = domains(s.get("domains"), path + ".domains", p);
                for (String d : domains) {
                    String other = routedBy.putIfAbsent(d, e.key());
                    if (other != null) {
                        p.add(s.get("domains"), path + ".domains", path + ".domains: domain '" + d
                                + "' is already routed by scope '" + other + "'; expected each domain in one scope");
                    }
                }
            }
            List<InetSocketAddress> servers = List.of();
            if (s.get("servers") != null) {
                servers = servers(s.get("servers"), path + ".servers", DNS_PORT, false, p);
            }
            boolean isDefault = false;
            Boolean b = null;
            if (s.get("default") != null) {
                b = Bind.bool(s.get("default"), path + ".default", p);
                isDefault = b != null && b;
                if (isDefault && defaultScope != null) {
                    p.add(s.get("default"), path + ".default", path + ".default: scope '" + defaultScope
                            + "' (line " + defaultPos.line() + ") is already the default; expected at most one default scope");
                } else if (isDefault) {
                    defaultScope = e.key();
                    defaultPos = s.get("default").pos();
                }
            }
            // Not when 'default' was given but invalid: that error is already reported.
            boolean defaultUnreadable = s.get("default") != null && b == null;
            if (domains.isEmpty() && !isDefault && !defaultUnreadable && s.get("domains") == null) {
                p.add(e.keyPos(), path, path + ": expected 'domains' or 'default => true' (a scope without either routes nothing)");
            }
            out.add(new ResolverConfig.Scope(e.key(), domains, servers, isDefault));
        }
        return out;
    }

    static List<InetSocketAddress> servers(VNode node, String path, int defaultPort, boolean allowPortZero,
                                           ConfigProblems p) {
        List<InetSocketAddress> out = new ArrayList<>();
        for (VNode.Scalar s : Bind.scalars(node, path, "an address (ip or ip:port)", p)) {
            try {
                InetSocketAddress a = Addresses.socket(s.value(), defaultPort, allowPortZero);
                if (out.contains(a) && a.getPort() != 0) {
                    // seed 000 §4.6.1: attempts walk the servers in configured order; a repeat is a typo.
                    p.add(s, path, path + ": '" + s.value() + "' is listed twice; expected each address once");
                    continue;
                }
                out.add(a);
            } catch (IllegalArgumentException e) {
                p.add(s, path, path + ": expected an address as ip, ip:port or [ipv6]:port, found '" + s.value()
                        + "': " + e.getMessage());
            }
        }
        return out;
    }

    static List<String> domains(VNode node, String path, ConfigProblems p) {
        List<String> out = new ArrayList<>();
        for (VNode.Scalar s : Bind.scalars(node, path, "a domain name", p)) {
            try {
                out.add(Addresses.domain(s.value()));
            } catch (IllegalArgumentException e) {
                p.add(s, path, path + ": expected a domain name, found '" + s.value() + "': " + e.getMessage());
            }
        }
        return out;
    }
}
