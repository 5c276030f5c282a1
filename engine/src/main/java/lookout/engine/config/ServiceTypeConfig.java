package lookout.engine.config;

import java.util.Map;
import lookout.engine.config.vscf.VNode;

/**
 * One monitor type of {@code service_types} (gdnsd.config(5)), or a built-in one ({@code up},
 * {@code down}). Owned by the weighted-pools work; this is its seam.
 *
 * @param name       its key
 * @param plugin     {@code up}, {@code down}, {@code tcp_connect}, {@code http_status}, {@code static}, {@code null}
 * @param interval   seconds between probes (default 10)
 * @param timeout    seconds a probe may take (default half the interval)
 * @param upThresh   gdnsd {@code up_thresh} anti-flap count (default 20)
 * @param okThresh   gdnsd {@code ok_thresh} (default 10)
 * @param downThresh gdnsd {@code down_thresh} (default 10)
 * @param params     plugin parameters ({@code port}, {@code url_path}, {@code vhost}, {@code ok_codes}, {@code state}, {@code ttl})
 */
public record ServiceTypeConfig(String name, String plugin, int interval, int timeout,
                                int upThresh, int okThresh, int downThresh, Map<String, String> params) {
    public ServiceTypeConfig {
        params = Map.copyOf(params);
    }

    /**
     * Binds the {@code service_types} section (null when absent) and adds the built-in types
     * ({@code up}, {@code down}). SKELETON: the weighted-pools work implements it.
     */
    public static Map<String, ServiceTypeConfig> bindAll(VNode.Hash section, ConfigProblems problems) {
        return Map.of(
                "up", new ServiceTypeConfig("up", "up", 10, 5, 20, 10, 10, Map.of()),
                "down", new ServiceTypeConfig("down", "down", 10, 5, 20, 10, 10, Map.of()));
    }
}
