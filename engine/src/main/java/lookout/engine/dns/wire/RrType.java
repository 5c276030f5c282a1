package lookout.engine.dns.wire;

/** Type and class numbers, and their mnemonics. */
public final class RrType {

    public static final int A = 1;
    public static final int NS = 2;
    public static final int CNAME = 5;
    public static final int SOA = 6;
    public static final int PTR = 12;
    public static final int MX = 15;
    public static final int TXT = 16;
    public static final int AAAA = 28;
    public static final int SRV = 33;
    public static final int OPT = 41;
    public static final int ANY = 255;
    public static final int IN = 1;

    public static final int NOERROR = 0;
    public static final int FORMERR = 1;
    public static final int SERVFAIL = 2;
    public static final int NXDOMAIN = 3;
    public static final int NOTIMP = 4;
    public static final int REFUSED = 5;
    public static final int BADVERS = 16;

    private RrType() {
    }

    public static String name(int type) {
        return switch (type) {
            case A -> "A";
            case NS -> "NS";
            case CNAME -> "CNAME";
            case SOA -> "SOA";
            case PTR -> "PTR";
            case MX -> "MX";
            case TXT -> "TXT";
            case AAAA -> "AAAA";
            case SRV -> "SRV";
            case OPT -> "OPT";
            case 65 -> "HTTPS";
            case 64 -> "SVCB";
            case 257 -> "CAA";
            case ANY -> "ANY";
            default -> "TYPE" + type;
        };
    }

    /** The type number for a mnemonic or {@code TYPEnnn}; -1 when unknown. */
    public static int parse(String s) {
        String u = s.toUpperCase(java.util.Locale.ROOT);
        switch (u) {
            case "A": return A;
            case "NS": return NS;
            case "CNAME": return CNAME;
            case "SOA": return SOA;
            case "PTR": return PTR;
            case "MX": return MX;
            case "TXT": return TXT;
            case "AAAA": return AAAA;
            case "SRV": return SRV;
            case "HTTPS": return 65;
            case "SVCB": return 64;
            case "CAA": return 257;
            case "ANY": return ANY;
            default:
                if (u.startsWith("TYPE")) {
                    try {
                        int v = Integer.parseInt(u.substring(4));
                        return v >= 0 && v <= 0xFFFF ? v : -1;
                    } catch (NumberFormatException e) {
                        return -1;
                    }
                }
                return -1;
        }
    }

    public static String rcodeName(int rcode) {
        return switch (rcode) {
            case NOERROR -> "NOERROR";
            case FORMERR -> "FORMERR";
            case SERVFAIL -> "SERVFAIL";
            case NXDOMAIN -> "NXDOMAIN";
            case NOTIMP -> "NOTIMP";
            case REFUSED -> "REFUSED";
            case 6 -> "YXDOMAIN";
            case 9 -> "NOTAUTH";
            case BADVERS -> "BADVERS";
            case 23 -> "BADCOOKIE";
            default -> "RCODE" + rcode;
        };
    }

    /**
     * Whether an address of a pool's draw answers {@code qtype} (SPEC §Weighted pools: A takes the
     * IPv4 selection, AAAA the IPv6 one, ANY both; any other type none).
     */
    public static boolean carries(int qtype, java.net.InetAddress a) {
        return switch (qtype) {
            case A -> a instanceof java.net.Inet4Address;
            case AAAA -> a instanceof java.net.Inet6Address;
            case ANY -> true;
            default -> false;
        };
    }
}
