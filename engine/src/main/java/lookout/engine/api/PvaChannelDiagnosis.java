package lookout.engine.api;

import java.time.Instant;
import java.util.List;

/**
 * What the PVA client knows about one PV name, for the console's "why?": how it was searched,
 * what came back and from where, and where the searches could not go. Built on the engine loop
 * ({@link Engine#diagnosePv}); the destinations and name servers themselves are in the
 * {@link PvaSnapshot}.
 *
 * @param name            the PV name asked about
 * @param known           the client has a channel for it (false: never searched, or let go)
 * @param state           {@code SEARCHING} or {@code RESOLVED} (null when not known)
 * @param watched         listed in {@code pva.watch}
 * @param operator        searched by an operator
 * @param wanted          searched for a client of the engine's own name server
 * @param attempts        the ring's attempt count (0..30)
 * @param searches        searches sent for it since the channel was created
 * @param lastSearchAt    when it was last put in a search datagram (null: not yet)
 * @param nextSearchAt    when it is searched next (null when not searching)
 * @param bucket          its ring bucket (-1 not in the ring, -2 waiting for its first search)
 * @param cursor          the ring bucket the next tick drains
 * @param replies         positive replies for it: the first (which resolved it) and any later
 *                        claim by another server (a duplicate), oldest first, at most a few
 * @param negativeReplies replies saying the server does not have it
 * @param negativeFrom    where negative replies came from (at most a few)
 * @param sendFailures    UDP destinations searches to which are failing now, with the error
 */
public record PvaChannelDiagnosis(String name, boolean known, String state, boolean watched, boolean operator,
                                  boolean wanted, int attempts, int searches, Instant lastSearchAt, Instant nextSearchAt, int bucket,
                                  int cursor, List<Reply> replies, long negativeReplies, List<String> negativeFrom,
                                  List<SendFailure> sendFailures) {

    public PvaChannelDiagnosis {
        replies = List.copyOf(replies);
        negativeFrom = List.copyOf(negativeFrom);
        sendFailures = List.copyOf(sendFailures);
    }

    /**
     * A server's claim of the name.
     *
     * @param at       when it arrived
     * @param guid     the claiming server's GUID
     * @param endpoint its TCP endpoint {@code host:port}
     * @param from     where the reply came from: the UDP sender, or the name server's address
     * @param tcp      through a TCP name-server connection
     * @param resolved this claim resolved the channel (false: a duplicate, reported and ignored)
     */
    public record Reply(Instant at, String guid, String endpoint, String from, boolean tcp, boolean resolved) {
    }

    /** A search destination whose sends fail: {@code host:port} and the system's error. */
    public record SendFailure(String destination, String error, long failures) {
    }
}
