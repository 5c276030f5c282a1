package lookout.engine.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lookout.engine.config.vscf.VNode;

/**
 * One monitor type of {@code service_types} (gdnsd.config(5)), or a built-in one ({@code up},
 * {@code down}).
 *
 * @param name       its key
 * @param plugin     {@code up}, {@code down}, {@code tcp_connect}, {@code http_status}, {@code static}, {@code null}
 * @param interval   seconds between probes (default 10, 2 to 3600)
 * @param timeout    seconds a probe may take (default half the interval, 1 to 300, below the interval)
 * @param upThresh   gdnsd {@code up_thresh} anti-flap count (default 20, 1 to 65535)
 * @param okThresh   gdnsd {@code ok_thresh} (default 10)
 * @param downThresh gdnsd {@code down_thresh} (default 10)
 * @param params     plugin parameters ({@code port}, {@code url_path}, {@code vhost}, {@code ok_codes}
 *                   as a comma-separated list, {@code state}, {@code ttl}), defaults filled in
 */
public record ServiceTypeConfig(String name, String plugin, int interval, int timeout,
                                int upThresh, int okThresh, int downThresh, Map<String, String> params) {

    /** gdnsd's largest TTL a state can carry ({@code GDNSD_STTL_TTL_MAX}, 2^28 − 1). */
    public static final long TTL_MAX = (1L << 28) - 1;

    /** The monitor plugins Lookout implements. */
    public static final List<String> PLUGINS = List.of("tcp_connect", "http_status", "static", "null");

    private static final Set<String> COMMON_OPTIONS = Set.of("plugin", "up_thresh", "ok_thresh", "down_thresh",
            "interval", "timeout");
    private static final Map<String, Set<String>> PLUGIN_OPTIONS = Map.of(
            "tcp_connect", Set.of("port"),
            "http_status", Set.of("port", "url_path", "vhost", "ok_codes"),
            "static", Set.of("state", "ttl"),
            "null", Set.of());

    public ServiceTypeConfig {
        params = Map.copyOf(params);
    }

    /** {@code up}: always UP, TTL maximal. */
    public static ServiceTypeConfig up() {
        return new ServiceTypeConfig("up", "up", 10, 1, 20, 10, 10, Map.of());
    }

    /** {@code down}: always DOWN, TTL maximal. */
    public static ServiceTypeConfig down() {
        return new ServiceTypeConfig("down", "down", 10, 1, 20, 10, 10, Map.of());
    }

    /** True when this type can watch a CNAME (gdnsd: only the built-ins, {@code static} and {@code null}). */
    public boolean monitorsCnames() {
        return !plugin.equals("tcp_connect") && !plugin.equals("http_status");
    }

    /** The integer parameter {@code key}, or {@code fallback}. */
    public long param(String key, long fallback) {
        String v = params.get(key);
        return v == null ? fallback : Long.parseLong(v);
    }

    /**
     * Binds the {@code service_types} section (null when absent) with gdnsd's rules (mon.c,
     * tcp_connect.c, http_status.c, static.c) and adds the built-in types ({@code up},
     * {@code down}). Unlike gdnsd, which only validates types some resource uses, every type is
     * validated: an unused typo is still a typo.
     */
    public static Map<String, ServiceTypeConfig> bindAll(VNode.Hash section, ConfigProblems problems) {
        Map<String, ServiceTypeConfig> types = new LinkedHashMap<>();
        if (section != null) {
            for (VNode.Entry e : section.entries()) {
                ServiceTypeConfig t = bindOne(e, problems);
                if (t != null) {
                    types.put(t.name(), t);
                }
            }
        }
        types.put("up", up());
        types.put("down", down());
        return types;
    }

    private static ServiceTypeConfig bindOne(VNode.Entry e, ConfigProblems problems) {
        String name = e.key();
        String path = "service_types." + name;
        if (name.equals("up") || name.equals("down")) {
            problems.add(e.keyPos(), path, "Explicit service type name '" + name + "' not allowed");
            return null;
        }
        if (!(e.value() instanceof VNode.Hash h)) {
            problems.add(e.value(), path, "Definition of service type '" + name + "' must be a hash");
            return null;
        }
        VNode pluginNode = h.get("plugin");
        if (pluginNode == null) {
            problems.add(e.keyPos(), path, "Service type '" + name + "': 'plugin' must be defined");
            return null;
        }
        if (!(pluginNode instanceof VNode.Scalar ps) || ps.value().isEmpty()) {
            problems.add(pluginNode, path + ".plugin", "Service type '" + name + "': 'plugin' must be a string");
            return null;
        }
        String plugin = ps.value();
        if (!PLUGINS.contains(plugin)) {
            String hint = ConfigProblems.closest(plugin, PLUGINS);
            problems.add(pluginNode, path + ".plugin", "Service type '" + name + "' references plugin '" + plugin
                    + "', which does not support service monitoring"
                    + (hint != null ? "; did you mean '" + hint + "'?" : " (expected one of: " + String.join(", ", PLUGINS) + ")"));
            return null;
        }
        int before = problems.size();
        int upThresh = uint(h, name, path, "up_thresh", 1, 65535, 20, problems);
        int okThresh = uint(h, name, path, "ok_thresh", 1, 65535, 10, problems);
        int downThresh = uint(h, name, path, "down_thresh", 1, 65535, 10, problems);
        int interval = uint(h, name, path, "interval", 2, 3600, 10, problems);
        int timeout = uint(h, name, path, "timeout", 1, 300, interval >> 1, problems);
        if (timeout >= interval && h.get("timeout") != null) {
            problems.add(h.get("timeout"), path + ".timeout", "Service type '" + name + "': timeout must be less than interval");
        }
        Map<String, String> params = new LinkedHashMap<>();
        String prefix = "plugin_" + plugin + ": ";
        switch (plugin) {
            case "tcp_connect" -> {
                int port = uint(h, name, path, "port", 1, 65534, 0, problems, prefix);
                if (h.get("port") == null) {
                    problems.add(e.keyPos(), path, prefix + "service type '" + name + "' must have a 'port' parameter");
                }
                params.put("port", Integer.toString(port));
            }
            case "http_status" -> {
                params.put("port", Integer.toString(uint(h, name, path, "port", 1, 65534, 80, problems, prefix)));
                params.put("url_path", str(h, name, path, "url_path", "/", problems, prefix));
                String vhost = str(h, name, path, "vhost", null, problems, prefix);
                if (vhost != null) {
                    params.put("vhost", vhost);
                }
                params.put("ok_codes", okCodes(h, name, path, problems, prefix));
            }
            case "static" -> {
                VNode ttl = h.get("ttl");
                long ttlValue = TTL_MAX;
                if (ttl != null) {
                    Long v = ttl instanceof VNode.Scalar s ? parseULong(s.value()) : null;
                    if (v == null) {
                        problems.add(ttl, path + ".ttl", prefix + "service type '" + name + "': the value of 'ttl' must be a simple integer!");
                    } else if (v > TTL_MAX) {
                        problems.add(ttl, path + ".ttl", prefix + "service type '" + name + "': the value of 'ttl' must be <= " + TTL_MAX);
                    } else {
                        ttlValue = v;
                    }
                }
                params.put("ttl", Long.toString(ttlValue));
                VNode state = h.get("state");
                String stateValue = "up";
                if (state != null) {
                    if (!(state instanceof VNode.Scalar s)) {
                        problems.add(state, path + ".state", prefix + "service type '" + name + "': the value of 'state' must be 'up' or 'down' as a simple string!");
                    } else if (!s.value().equalsIgnoreCase("up") && !s.value().equalsIgnoreCase("down")) {
                        problems.add(state, path + ".state", prefix + "service type '" + name + "': the value of 'state' must be 'up' or 'down', not '" + s.value() + "'");
                    } else {
                        stateValue = s.value().toLowerCase();
                    }
                }
                params.put("state", stateValue);
            }
            default -> { }
        }
        List<String> known = new ArrayList<>(COMMON_OPTIONS);
        known.addAll(PLUGIN_OPTIONS.get(plugin));
        for (VNode.Entry o : h.entries()) {
            if (!known.contains(o.key())) {
                String hint = ConfigProblems.closest(o.key(), known);
                problems.add(o.keyPos(), path + "." + o.key(), "Service type '" + name + "', bad option '" + o.key() + "'"
                        + (hint != null ? "; did you mean '" + hint + "'?" : ""));
            }
        }
        if (problems.size() != before) {
            return null;
        }
        return new ServiceTypeConfig(name, plugin, interval, timeout, upThresh, okThresh, downThresh, params);
    }

    private static int uint(VNode.Hash h, String name, String path, String key, long min, long max, int dflt,
                            ConfigProblems problems) {
        return uint(h, name, path, key, min, max, dflt, problems, "");
    }

    private static int uint(VNode.Hash h, String name, String path, String key, long min, long max, int dflt,
                            ConfigProblems problems, String prefix) {
        VNode n = h.get(key);
        if (n == null) {
            return dflt;
        }
        Long v = n instanceof VNode.Scalar s ? parseULong(s.value()) : null;
        if (v == null) {
            problems.add(n, path + "." + key, prefix + "Service type '" + name + "': option '" + key + "': Value must be a positive integer");
            return dflt;
        }
        if (v < min || v > max) {
            problems.add(n, path + "." + key, prefix + "Service type '" + name + "': option '" + key + "': Value out of range ("
                    + min + ", " + max + ")");
            return dflt;
        }
        return (int) (long) v;
    }

    private static String str(VNode.Hash h, String name, String path, String key, String dflt,
                              ConfigProblems problems, String prefix) {
        VNode n = h.get(key);
        if (n == null) {
            return dflt;
        }
        if (!(n instanceof VNode.Scalar s)) {
            problems.add(n, path + "." + key, prefix + "Service type '" + name + "': option " + key + ": Wrong type (should be string)");
            return dflt;
        }
        return s.value();
    }

    private static String okCodes(VNode.Hash h, String name, String path, ConfigProblems problems, String prefix) {
        VNode n = h.get("ok_codes");
        if (n == null) {
            return "200";
        }
        List<VNode> items = n instanceof VNode.Array a ? a.items() : List.of(n);
        if (items.isEmpty()) {
            problems.add(n, path + ".ok_codes", prefix + "service type '" + name + "': ok_codes array cannot be empty");
            return "200";
        }
        List<String> codes = new ArrayList<>();
        for (VNode c : items) {
            String text = c instanceof VNode.Scalar s ? s.value() : c.kind();
            Long v = c instanceof VNode.Scalar s ? parseULong(s.value()) : null;
            if (v == null || v < 100 || v > 999) {
                problems.add(c, path + ".ok_codes", prefix + "service type '" + name + "': illegal ok_codes value '" + text
                        + "', must be numeric http status code (100-999)");
            } else {
                codes.add(Long.toString(v));
            }
        }
        return String.join(",", codes);
    }

    /**
     * An integer as gdnsd's vscf reads it ({@code strtol(s, &end, 0)} over the whole string):
     * optional leading blanks and sign, then hex ({@code 0x1f}), octal ({@code 017}) or decimal.
     * Null when it is not one, or beyond the range of a long.
     */
    public static Long parseCLong(String s) {
        int i = 0;
        int n = s.length();
        while (i < n && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        int radix = 10;
        if (i + 1 < n && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')) {
            radix = 16;
            i += 2;
        } else if (i + 1 < n && s.charAt(i) == '0') {
            radix = 8;
            i += 1;
        }
        if (i >= n) {
            return radix == 8 ? 0L : null; // "0" alone is fine; "0x" is not
        }
        String digits = s.substring(i);
        for (int k = 0; k < digits.length(); k++) {
            if (Character.digit(digits.charAt(k), radix) < 0) {
                return null;
            }
        }
        try {
            long v = Long.parseLong(digits, radix);
            return negative ? -v : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A non-negative integer in gdnsd's syntax ({@link #parseCLong}), or null. */
    static Long parseULong(String s) {
        Long v = parseCLong(s);
        return v == null || v < 0 ? null : v;
    }
}
