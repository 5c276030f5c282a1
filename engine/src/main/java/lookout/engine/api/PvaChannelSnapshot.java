package lookout.engine.api;

import java.time.Instant;

/**
 * One channel of the PVA client.
 *
 * @param name         PV name
 * @param cid          client channel ID, stable for the channel's life
 * @param state        {@code SEARCHING} or {@code RESOLVED}
 * @param attempts     ring attempt count (0..30; reset on resolution)
 * @param searches     searches sent since the channel was created
 * @param bucket       ring bucket (-1 when not in the ring, -2 in the initial list)
 * @param nextSearchAt when it is next searched (null when not searching)
 * @param guid         claiming server's GUID (24 hex digits) when resolved
 * @param endpoint     claiming server's TCP endpoint {@code host:port} when resolved
 * @param watched      listed in {@code pva.watch}
 * @param operator     searched by an operator ({@code searchPv})
 */
public record PvaChannelSnapshot(String name, int cid, String state, int attempts, int searches, int bucket,
                                 Instant nextSearchAt, String guid, String endpoint, boolean watched,
                                 boolean operator) {
}
