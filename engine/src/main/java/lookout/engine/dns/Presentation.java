package lookout.engine.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;

/** Records in zone-file presentation form, for traces. */
final class Presentation {

    private Presentation() {
    }

    static String rr(Rr r) {
        return r.name() + " " + r.ttl() + " " + RrType.name(r.type()) + " " + rdata(r);
    }

    static String rdata(Rr r) {
        byte[] d = r.rdata();
        try {
            switch (r.type()) {
                case RrType.A, RrType.AAAA -> {
                    return InetAddress.getByAddress(d).getHostAddress();
                }
                case RrType.NS, RrType.CNAME, RrType.PTR -> {
                    return Message.nameAt(d, 0);
                }
                case RrType.MX -> {
                    return Message.u16(d, 0) + " " + Message.nameAt(d, 2);
                }
                case RrType.TXT -> {
                    StringBuilder sb = new StringBuilder();
                    int p = 0;
                    while (p < d.length) {
                        int l = d[p] & 0xFF;
                        if (sb.length() > 0) {
                            sb.append(' ');
                        }
                        sb.append('"');
                        for (int i = 0; i < l && p + 1 + i < d.length; i++) {
                            int c = d[p + 1 + i] & 0xFF;
                            if (c == '"' || c == '\\') {
                                sb.append('\\').append((char) c);
                            } else if (c < 0x20 || c >= 0x7F) {
                                sb.append(String.format("\\%03d", c));
                            } else {
                                sb.append((char) c);
                            }
                        }
                        sb.append('"');
                        p += 1 + l;
                    }
                    return sb.toString();
                }
                case RrType.SOA -> {
                    StringBuilder sb = new StringBuilder();
                    String m = Message.nameAt(d, 0);
                    int p = skipName(d, 0);
                    String rn = Message.nameAt(d, p);
                    p = skipName(d, p);
                    sb.append(m).append(' ').append(rn);
                    for (int i = 0; i < 5; i++) {
                        sb.append(' ').append(Message.u32(d, p + 4 * i));
                    }
                    return sb.toString();
                }
                default -> {
                    StringBuilder sb = new StringBuilder("\\# ").append(d.length);
                    if (d.length > 0) {
                        sb.append(' ').append(java.util.HexFormat.of().formatHex(d));
                    }
                    return sb.toString();
                }
            }
        } catch (UnknownHostException | RuntimeException e) {
            return "\\# " + d.length;
        }
    }

    private static int skipName(byte[] d, int p) {
        while (p < d.length && d[p] != 0) {
            p += (d[p] & 0xFF) + 1;
        }
        return p + 1;
    }
}
