package lookout.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.AddressedEnvelope;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;
import io.netty.handler.codec.dns.DatagramDnsQueryEncoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuery;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecord;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponse;
import io.netty.handler.codec.dns.DnsSection;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Encoded;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Queries;
import lookout.engine.dns.wire.Responses;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.wire.WireException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Lookout's own DNS codec ({@code lookout.engine.dns.wire}) against Netty's {@code codec-dns}
 * ({@link DatagramDnsQueryDecoder}, {@link DatagramDnsResponseEncoder} and, for the upstream side,
 * {@link DatagramDnsQueryEncoder}, {@link DatagramDnsResponseDecoder}) on the messages the resolver
 * handles most: the query {@code www.example.com. A} with EDNS (payload 1232), and its answer of two
 * A records (owners compressed to the question, our OPT record). Each side goes from the bytes or
 * the records to what it would hand on: Lookout's decoders read a {@code byte[]} (the listeners copy
 * each datagram once), Netty's a {@link DatagramPacket}; Netty's encoders write into a buffer of the
 * channel's allocator, Lookout's into a {@code byte[]}. Netty's protected codec methods are called
 * straight (subclasses below) with an {@link EmbeddedChannel}'s context, so no pipeline is measured.
 *
 * <p>{@code lookoutAnswerStamp} is what a cache hit or a local answer costs in Lookout: the answer
 * is encoded once and each client's copy is stamped (ID, flags, the client's spelling, OPT) —
 * {@code docs/adr/0001-own-dns-codec.md} says why that matters. The measurement command is there too.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "-Dio.netty.leakDetection.level=disabled")
@State(Scope.Thread)
public class DnsCodecBench {

    private static final String NAME = "www.example.com.";
    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.1", 40000);
    private static final InetSocketAddress SERVER = new InetSocketAddress("127.0.0.1", 53);
    private static final byte[] IP1 = {(byte) 192, 0, 2, 1};
    private static final byte[] IP2 = {(byte) 192, 0, 2, 2};

    private byte[] query;
    private byte[] answer;
    private ClientQuery decodedQuery;
    private Encoded encodedAnswer;
    private List<Rr> records;

    private EmbeddedChannel channel;
    private ChannelHandlerContext ctx;
    private final QueryDecoder queryDecoder = new QueryDecoder();
    private final ResponseEncoder responseEncoder = new ResponseEncoder();
    private final ResponseDecoder responseDecoder = new ResponseDecoder();
    private final QueryEncoder queryEncoder = new QueryEncoder();
    private final List<Object> out = new ArrayList<>(1);

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        query = Queries.upstream(0x1234, NAME, RrType.A, RrType.IN, false);
        records = List.of(new Rr(NAME, RrType.A, RrType.IN, 300, IP1), new Rr(NAME, RrType.A, RrType.IN, 300, IP2));
        decodedQuery = ClientQuery.decode(query, query.length, false);
        encodedAnswer = Encoded.encode(Message.QR | Message.RA, RrType.NOERROR, NAME, RrType.A, RrType.IN, records, List.of(),
                List.of());
        answer = Responses.stamp(encodedAnswer, decodedQuery, 0, -1, null);
        channel = new EmbeddedChannel();
        ctx = channel.pipeline().addLast(queryDecoder).firstContext();
        check();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.finishAndReleaseAll();
    }

    /** Both codecs read what the other wrote, or the comparison means nothing. */
    private void check() throws Exception {
        DnsQuery q = (DnsQuery) one(() -> queryDecoder.decodeInto(ctx, packet(query), out));
        try {
            DnsQuestion question = q.recordAt(DnsSection.QUESTION);
            if (!question.name().equals(NAME) || q.count(DnsSection.ADDITIONAL) != 1) {
                throw new IllegalStateException("Netty read the query as " + q);
            }
        } finally {
            q.release();
        }
        DnsResponse r = (DnsResponse) one(() -> responseDecoder.decodeInto(ctx, packet(answer), out));
        try {
            if (r.count(DnsSection.ANSWER) != 2) {
                throw new IllegalStateException("Netty read the answer as " + r);
            }
        } finally {
            r.release();
        }
        ByteBuf nettyAnswer = (ByteBuf) ((DatagramPacket) one(() -> responseEncoder.encodeInto(ctx, nettyResponse(), out)))
                .content();
        try {
            byte[] b = new byte[nettyAnswer.readableBytes()];
            nettyAnswer.getBytes(nettyAnswer.readerIndex(), b);
            Message m = Message.decodeHeaderAndQuestion(b, b.length);
            Message.decodeRecords(b, b.length, m);
            if (m.answer.size() != 2 || !m.edns || m.id != 0x1234) {
                throw new IllegalStateException("Lookout read Netty's answer with " + m.answer.size() + " records");
            }
        } finally {
            nettyAnswer.release();
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private Object one(Step s) throws Exception {
        out.clear();
        s.run();
        if (out.size() != 1) {
            throw new IllegalStateException(out.size() + " messages out");
        }
        return out.remove(0);
    }

    private static DatagramPacket packet(byte[] bytes) {
        return new DatagramPacket(Unpooled.wrappedBuffer(bytes), SERVER, CLIENT);
    }

    private static DatagramDnsResponse nettyResponse() {
        DatagramDnsResponse r = new DatagramDnsResponse(SERVER, CLIENT, 0x1234);
        r.setRecursionDesired(true).setRecursionAvailable(true);
        r.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion(NAME, DnsRecordType.A));
        r.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(NAME, DnsRecordType.A, 300, Unpooled.wrappedBuffer(IP1)));
        r.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(NAME, DnsRecordType.A, 300, Unpooled.wrappedBuffer(IP2)));
        r.addRecord(DnsSection.ADDITIONAL, opt());
        return r;
    }

    /** Our OPT record: the root, payload 1232 in the class field, no options. */
    private static DnsRecord opt() {
        return new DefaultDnsRawRecord("", DnsRecordType.OPT, Responses.OUR_PAYLOAD, 0, Unpooled.EMPTY_BUFFER);
    }

    // ------------------------------------------------------------------ the listener's side

    @Benchmark
    public ClientQuery lookoutQueryDecode() throws WireException {
        return ClientQuery.decode(query, query.length, false);
    }

    @Benchmark
    public Object nettyQueryDecode() throws Exception {
        Object q = one(() -> queryDecoder.decodeInto(ctx, packet(query), out));
        ReferenceCountUtil.release(q);
        return q;
    }

    @Benchmark
    public byte[] lookoutAnswerEncode() {
        Encoded e = Encoded.encode(Message.QR | Message.RA, RrType.NOERROR, NAME, RrType.A, RrType.IN, records, List.of(),
                List.of());
        return Responses.stamp(e, decodedQuery, 0, -1, null);
    }

    @Benchmark
    public byte[] lookoutAnswerStamp() {
        return Responses.stamp(encodedAnswer, decodedQuery, 0, -1, null);
    }

    @Benchmark
    public Object nettyAnswerEncode() throws Exception {
        Object p = one(() -> responseEncoder.encodeInto(ctx, nettyResponse(), out));
        ReferenceCountUtil.release(p);
        return p;
    }

    // ------------------------------------------------------------------ the upstream side

    @Benchmark
    public byte[] lookoutQueryEncode() {
        return Queries.upstream(0x1234, NAME, RrType.A, RrType.IN, false);
    }

    @Benchmark
    public Object nettyQueryEncode() throws Exception {
        DatagramDnsQuery q = new DatagramDnsQuery(CLIENT, SERVER, 0x1234);
        q.setRecursionDesired(true);
        q.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion(NAME, DnsRecordType.A));
        q.addRecord(DnsSection.ADDITIONAL, opt());
        Object p = one(() -> queryEncoder.encodeInto(ctx, q, out));
        ReferenceCountUtil.release(p);
        return p;
    }

    @Benchmark
    public Message lookoutAnswerDecode() throws WireException {
        Message m = Message.decodeHeaderAndQuestion(answer, answer.length);
        Message.decodeRecords(answer, answer.length, m);
        return m;
    }

    @Benchmark
    public Object nettyAnswerDecode() throws Exception {
        Object r = one(() -> responseDecoder.decodeInto(ctx, packet(answer), out));
        ReferenceCountUtil.release(r);
        return r;
    }

    // ------------------------------------------------------------------ Netty's codecs, called straight

    private static final class QueryDecoder extends DatagramDnsQueryDecoder {
        void decodeInto(ChannelHandlerContext c, DatagramPacket p, List<Object> into) throws Exception {
            try {
                decode(c, p, into);
            } finally {
                p.release();
            }
        }
    }

    private static final class ResponseDecoder extends DatagramDnsResponseDecoder {
        void decodeInto(ChannelHandlerContext c, DatagramPacket p, List<Object> into) throws Exception {
            try {
                decode(c, p, into);
            } finally {
                p.release();
            }
        }
    }

    private static final class ResponseEncoder extends DatagramDnsResponseEncoder {
        @SuppressWarnings("unchecked")
        void encodeInto(ChannelHandlerContext c, AddressedEnvelope<? extends DnsResponse, InetSocketAddress> r,
                        List<Object> into) throws Exception {
            try {
                encode(c, (AddressedEnvelope<DnsResponse, InetSocketAddress>) r, into);
            } finally {
                ReferenceCountUtil.release(r);
            }
        }
    }

    private static final class QueryEncoder extends DatagramDnsQueryEncoder {
        @SuppressWarnings("unchecked")
        void encodeInto(ChannelHandlerContext c, AddressedEnvelope<? extends DnsQuery, InetSocketAddress> q,
                        List<Object> into) throws Exception {
            try {
                encode(c, (AddressedEnvelope<DnsQuery, InetSocketAddress>) q, into);
            } finally {
                ReferenceCountUtil.release(q);
            }
        }
    }
}
