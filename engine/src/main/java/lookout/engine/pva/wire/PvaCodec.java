package lookout.engine.pva.wire;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Bytes ⇄ PVA messages. Pure and stateless: decoding never moves the buffer's indices, never
 * throws, and reports truncated or inconsistent input as a drop with a reason the caller counts.
 */
public final class PvaCodec {

    /** At most this many messages in one datagram (an ORIGIN_TAG and a SEARCH in practice). */
    private static final int MAX_MESSAGES_PER_DATAGRAM = 64;

    private PvaCodec() {
    }

    /**
     * Decodes every message of a UDP datagram ({@code readerIndex..writerIndex}). Datagrams with
     * the control or segmentation bits set are dropped (PVA-WIRE.md).
     */
    public static DatagramContents decodeDatagram(ByteBuf in) {
        try {
            int pos = in.readerIndex();
            int end = in.writerIndex();
            if (pos == end) {
                return DatagramContents.drop("empty datagram");
            }
            List<Frame> frames = new ArrayList<>(2);
            while (pos < end) {
                if (frames.size() == MAX_MESSAGES_PER_DATAGRAM) {
                    return DatagramContents.drop("more than " + MAX_MESSAGES_PER_DATAGRAM + " messages");
                }
                if (end - pos < Pva.HEADER_SIZE) {
                    return DatagramContents.drop("truncated header");
                }
                PvaHeader h = header(in, pos);
                String bad = checkHeader(in, pos, h);
                if (bad != null) {
                    return DatagramContents.drop(bad);
                }
                if (h.control() || h.segmented()) {
                    return DatagramContents.drop("control or segmented message over UDP");
                }
                int bodyStart = pos + Pva.HEADER_SIZE;
                if (h.payloadLength() > end - bodyStart) {
                    return DatagramContents.drop("truncated message: length " + h.payloadLength()
                            + ", " + (end - bodyStart) + " bytes left");
                }
                int bodyEnd = bodyStart + (int) h.payloadLength();
                Decoded d = body(in, h, bodyStart, bodyEnd);
                if (d instanceof Decoded.Dropped dr) {
                    return DatagramContents.drop(dr.reason());
                }
                frames.add(((Decoded.Ok) d).frame());
                pos = bodyEnd;
            }
            return new DatagramContents(frames, null);
        } catch (RuntimeException e) {
            // Defence in depth: the readers are bounds-checked, but a decoder must never throw.
            return DatagramContents.drop("undecodable datagram: " + e);
        }
    }

    /**
     * Length of the complete TCP frame starting at {@code index} (header + body; a control
     * message is 8 bytes), or -1 when more bytes are needed, or -2 when the bytes there are not a
     * PVA header (the stream is unusable).
     */
    public static long frameLength(ByteBuf in, int index) {
        if (in.writerIndex() - index < Pva.HEADER_SIZE) {
            return -1;
        }
        PvaHeader h = header(in, index);
        if (checkHeader(in, index, h) != null) {
            return -2;
        }
        long len = h.control() ? Pva.HEADER_SIZE : Pva.HEADER_SIZE + h.payloadLength();
        return in.writerIndex() - index < len ? -1 : len;
    }

    /** The payload length the header at {@code index} announces (at least 8 bytes must be readable there). */
    public static long payloadLength(ByteBuf in, int index) {
        return header(in, index).payloadLength();
    }

    /** Decodes one complete frame ({@code readerIndex..writerIndex}) received over TCP. */
    public static Decoded decodeFrame(ByteBuf in) {
        try {
            int pos = in.readerIndex();
            int end = in.writerIndex();
            if (end - pos < Pva.HEADER_SIZE) {
                return new Decoded.Dropped("truncated header");
            }
            PvaHeader h = header(in, pos);
            String bad = checkHeader(in, pos, h);
            if (bad != null) {
                return new Decoded.Dropped(bad);
            }
            if (h.control()) {
                PvaMessage m = h.command() == Pva.CTRL_SET_BYTE_ORDER
                        ? new SetByteOrder(h.bigEndian()) : new Unhandled(true, h.command());
                return new Decoded.Ok(new Frame(h, m));
            }
            int bodyStart = pos + Pva.HEADER_SIZE;
            if (h.payloadLength() > end - bodyStart) {
                return new Decoded.Dropped("truncated message");
            }
            if (h.segmented()) {
                // Search traffic is never segmented; a segmented message is skipped whole.
                return new Decoded.Ok(new Frame(h, new Unhandled(false, h.command())));
            }
            return body(in, h, bodyStart, bodyStart + (int) h.payloadLength());
        } catch (RuntimeException e) {
            return new Decoded.Dropped("undecodable message: " + e);
        }
    }

    /** A SEARCH body's fixed part before its protocols: sequence, flags, reserved, reply address and port. */
    private static final int SEARCH_FIXED = 4 + 1 + 3 + 16 + 2;

    /**
     * seed 002 §5 steps 1–3 on the bytes as received, not a new encoding: an ORIGIN_TAG carrying
     * {@code origin} (in the search's byte order), then the SEARCH at {@code offset} of
     * {@code datagram} as it arrived, its Unicast flag cleared and its reply address set to
     * {@code client} (the resolved reply address; the port, the names and everything else stay as
     * sent). These are the bytes of encoding the decoded request so changed wherever the client
     * encodes as this codec does. Reads {@code datagram} by index only; writes nothing and returns
     * false when the bytes at {@code offset} are not one whole, unsegmented SEARCH.
     */
    public static boolean forwardedSearch(ByteBuf datagram, int offset, InetAddress origin, InetAddress client,
                                          ByteBuf out) {
        int end = datagram.writerIndex();
        if (offset < 0 || end - offset < Pva.HEADER_SIZE + SEARCH_FIXED
                || datagram.getUnsignedByte(offset) != Pva.MAGIC
                || datagram.getUnsignedByte(offset + 3) != Pva.CMD_SEARCH) {
            return false;
        }
        PvaHeader h = header(datagram, offset);
        if (h.version() == 0 || h.control() || h.segmented() || h.payloadLength() < SEARCH_FIXED
                || h.payloadLength() > end - offset - Pva.HEADER_SIZE) {
            return false;
        }
        int length = Pva.HEADER_SIZE + (int) h.payloadLength();
        new OriginTag(origin).encode(new WireWriter(out, h.bigEndian()));
        int body = out.writerIndex() + Pva.HEADER_SIZE;
        out.writeBytes(datagram, offset, length);
        out.setByte(body + 4, out.getUnsignedByte(body + 4) & ~Pva.SEARCH_UNICAST); // §5 step 2
        int written = out.writerIndex();
        out.writerIndex(body + 8);
        WireAddress.write(out, client); // §5 step 1
        out.writerIndex(written);
        return true;
    }

    /** Encodes {@code message} big-endian at the buffer's writer index. */
    public static void encode(PvaMessage message, ByteBuf out) {
        message.encode(new WireWriter(out));
    }

    /** Little-endian encoding, for tests that play a little-endian peer. */
    static void encodeLittleEndian(PvaMessage message, ByteBuf out) {
        message.encode(new WireWriter(out, false));
    }

    static PvaHeader header(ByteBuf in, int pos) {
        int flags = in.getUnsignedByte(pos + 2);
        boolean be = (flags & Pva.FLAG_BIG_ENDIAN) != 0;
        long len = (be ? in.getInt(pos + 4) : in.getIntLE(pos + 4)) & 0xFFFF_FFFFL;
        return new PvaHeader(in.getUnsignedByte(pos + 1), flags, in.getUnsignedByte(pos + 3), len);
    }

    private static String checkHeader(ByteBuf in, int pos, PvaHeader h) {
        if (in.getUnsignedByte(pos) != Pva.MAGIC) {
            return "bad magic";
        }
        if (h.version() == 0) {
            return "protocol version 0";
        }
        return null;
    }

    private static Decoded body(ByteBuf in, PvaHeader h, int start, int end) {
        WireReader r = new WireReader(in, start, end, h.bigEndian());
        try {
            PvaMessage m = switch (h.command()) {
                case Pva.CMD_SEARCH -> SearchRequest.decode(r);
                case Pva.CMD_SEARCH_RESPONSE -> SearchResponse.decode(r);
                case Pva.CMD_BEACON -> Beacon.decode(r);
                case Pva.CMD_ORIGIN_TAG -> OriginTag.decode(r);
                case Pva.CMD_CONNECTION_VALIDATION ->
                        h.fromServer() ? ServerValidation.decode(r) : ClientValidation.decode(r);
                case Pva.CMD_CONNECTION_VALIDATED -> ConnectionValidated.decode(r);
                default -> new Unhandled(false, h.command());
            };
            return new Decoded.Ok(new Frame(h, m));
        } catch (WireReader.Malformed e) {
            return new Decoded.Dropped(commandName(h.command()) + ": " + e.getMessage());
        }
    }

    public static String commandName(int command) {
        return switch (command) {
            case Pva.CMD_SEARCH -> "SEARCH";
            case Pva.CMD_SEARCH_RESPONSE -> "SEARCH_RESPONSE";
            case Pva.CMD_BEACON -> "BEACON";
            case Pva.CMD_ORIGIN_TAG -> "ORIGIN_TAG";
            case Pva.CMD_CONNECTION_VALIDATION -> "CONNECTION_VALIDATION";
            case Pva.CMD_CONNECTION_VALIDATED -> "CONNECTION_VALIDATED";
            default -> "command 0x" + Integer.toHexString(command);
        };
    }
}
