package lookout.engine.pva.wire;

import java.net.InetAddress;

/**
 * CMD_ORIGIN_TAG (seed 002 §2, §5): prepended to a search forwarded over loopback multicast.
 *
 * @param origin the destination address of the original search datagram
 */
public record OriginTag(InetAddress origin) implements PvaMessage {

    static OriginTag decode(WireReader r) throws WireReader.Malformed {
        return new OriginTag(r.address("origin address"));
    }

    @Override
    public void encode(WireWriter w) {
        int h = w.header(0, Pva.CMD_ORIGIN_TAG);
        w.address(origin);
        w.patchLength(h);
    }
}
