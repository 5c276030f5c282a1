package lookout.engine.dns.wire;

/**
 * One resource record. {@code rdata} holds the wire RDATA with any names in it uncompressed, so it
 * can be copied into another message as is.
 */
public record Rr(String name, int type, int cls, long ttl, byte[] rdata) {

    public Rr withTtl(long newTtl) {
        return new Rr(name, type, cls, newTtl, rdata);
    }
}
