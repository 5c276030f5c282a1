package lookout.engine.dns;

import java.net.InetSocketAddress;

/**
 * One upstream transaction as the accounting sees it (seed 000 §4.6): the candidate asked, the
 * server and transport, and when the query went out (scheduler nanoseconds).
 */
record Attempt(String candidate, InetSocketAddress server, boolean tcp, long sentAt) {
}
