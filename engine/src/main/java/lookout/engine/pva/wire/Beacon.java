package lookout.engine.pva.wire;

import java.net.InetAddress;

/**
 * CMD_BEACON (seed 002 §2): a server announcing itself. The server status field is always sent
 * as the null type code 0xFF and ignored on receipt, like PVXS.
 *
 * @param guid          the announcing server instance
 * @param flags         "QoS", undefined, sent as 0
 * @param sequence      incremented per beacon, ignored on receipt
 * @param changeCount   incremented when the server's sources change, ignored on receipt
 * @param serverAddress "any" means the datagram's source
 * @param serverPort    TCP port
 * @param protocol      "tcp"
 */
public record Beacon(Guid guid, int flags, int sequence, int changeCount, InetAddress serverAddress,
                     int serverPort, String protocol) implements PvaMessage {

    static Beacon decode(WireReader r) throws WireReader.Malformed {
        Guid guid = r.guid();
        int flags = r.u8("beacon flags");
        int seq = r.u8("beacon sequence");
        int change = r.u16("change count");
        InetAddress addr = r.address("server address");
        int port = r.u16("server port");
        String protocol = r.string("protocol");
        // The optional server status (a type code then a value) is ignored, as PVXS does.
        return new Beacon(guid, flags, seq, change, addr, port, protocol);
    }

    @Override
    public void encode(WireWriter w) {
        int h = w.header(Pva.FLAG_SERVER, Pva.CMD_BEACON);
        w.guid(guid);
        w.u8(flags);
        w.u8(sequence);
        w.u16(changeCount);
        w.address(serverAddress);
        w.u16(serverPort);
        w.string(protocol);
        w.u8(0xFF);
        w.patchLength(h);
    }
}
