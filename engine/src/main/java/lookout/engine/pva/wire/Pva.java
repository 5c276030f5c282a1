package lookout.engine.pva.wire;

/** Constants of the PVA wire protocol and of seed 002 §9. */
public final class Pva {

    private Pva() {
    }

    public static final int MAGIC = 0xCA;
    /** SPEC §PVA: we speak protocol version 2 (PVXS 1.x, core-pva). */
    public static final int VERSION = 2;
    public static final int HEADER_SIZE = 8;

    // header flags (PVA-WIRE.md "Header")
    public static final int FLAG_CONTROL = 0x01;
    public static final int FLAG_SEGMENT_MASK = 0x30;
    public static final int FLAG_SERVER = 0x40;
    public static final int FLAG_BIG_ENDIAN = 0x80;

    // application commands
    public static final int CMD_BEACON = 0x00;
    public static final int CMD_CONNECTION_VALIDATION = 0x01;
    public static final int CMD_ECHO = 0x02;
    public static final int CMD_SEARCH = 0x03;
    public static final int CMD_SEARCH_RESPONSE = 0x04;
    public static final int CMD_CONNECTION_VALIDATED = 0x09;
    public static final int CMD_ORIGIN_TAG = 0x16;

    // control commands (flag 0x01 set)
    public static final int CTRL_SET_BYTE_ORDER = 0x02;

    // CMD_SEARCH flags (seed 002 §2)
    public static final int SEARCH_MUST_REPLY = 0x01;
    public static final int SEARCH_UNICAST = 0x80;

    /** PVXS's constant searchSequenceID, "find" (seed 002 §2). */
    public static final int SEARCH_SEQUENCE_FIND = 0x66696E64;

    /** seed 002 §3.3: a search datagram is at most 1400 bytes. */
    public static final int MAX_SEARCH_DATAGRAM = 1400;
    /** seed 002 §3.3: a name that does not fit the 64 KiB buffer is dropped. */
    public static final int MAX_BUFFER = 0x10000;
    /** Fixed part of a SEARCH with protocols ["tcp"] (seed 002 §3.3). */
    public static final int SEARCH_FIXED_TCP = 41;

    public static final int DEFAULT_BROADCAST_PORT = 5076;
    public static final int DEFAULT_SERVER_PORT = 5075;

    /** seed 002 §3.3: names per datagram for names of length {@code l}, {@code ⌊1359 / (5 + L)⌋}. */
    public static int namesPerDatagram(int l) {
        return (MAX_SEARCH_DATAGRAM - SEARCH_FIXED_TCP) / (5 + l);
    }
}
