package lookout.engine.config;

import java.net.InetSocketAddress;

/** The {@code status} section: {@code listen} is null when the HTTP status endpoint is off. */
public record StatusConfig(InetSocketAddress listen) {
}
