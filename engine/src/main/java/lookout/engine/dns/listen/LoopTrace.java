package lookout.engine.dns.listen;

import java.net.InetSocketAddress;
import lookout.engine.dns.answer.Answer;
import lookout.engine.dns.answer.LocalZones;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.RrType;
import lookout.engine.seams.DynamicRecords;

/**
 * A local answer a UDP listener gave on its fast path, kept for the recent traces: the query
 * decoded, or only its name and type (answered from the memo without decoding); the answer, or the
 * draw it was written from. Both are built into whole objects only when a snapshot asks — traces
 * are read far less often than answers are given.
 */
public record LoopTrace(ClientQuery decoded, String qname, int qtype, Answer given, DynamicRecords.Answer drawn,
                        InetSocketAddress client, long startedAt, long endedAt) {

    /** The question as the resolver's traces hold it. */
    public ClientQuery q() {
        return decoded != null ? decoded : ClientQuery.local(qname, qtype);
    }

    /** The answer given. */
    public Answer a() {
        if (given != null) {
            return given;
        }
        return Answer.addresses(qname, qtype, RrType.IN, drawn.ttl(), LocalZones.carried(drawn.addresses(), qtype));
    }

    /** The client, as traces show it. */
    public ClientId clientId() {
        return new ClientId(client, false);
    }
}
