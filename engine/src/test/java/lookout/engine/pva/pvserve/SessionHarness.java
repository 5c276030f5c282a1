package lookout.engine.pva.pvserve;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.util.BitSet;
import java.util.List;
import lookout.engine.pva.pvdata.NormativeTypes;
import lookout.engine.pva.pvdata.PvType;
import lookout.engine.pva.pvdata.ScalarKind;
import lookout.engine.seams.HostedPvs;
import lookout.engine.testing.VirtualScheduler;

/**
 * A PV server in virtual time with connections that are byte sinks: what a session sends is
 * collected, and {@link Peer#queued} is whatever the test says (a client that never reads).
 */
final class SessionHarness implements AutoCloseable {

    static final String PV = "test:value";
    static final String TABLE = "test:table";

    final VirtualScheduler clock = new VirtualScheduler();
    final PvHost host;
    HostedPv scalar;
    HostedPv table;

    SessionHarness() {
        this(PvServeLimits.DEFAULT);
    }

    SessionHarness(PvServeLimits limits) {
        host = new PvHost(clock, limits);
        clock.call(() -> {
            scalar = host.publish(PV, NormativeTypes.scalarType(ScalarKind.DOUBLE), scalarValue(1.5, 0, ""));
            table = host.publish(TABLE, NormativeTypes.tableType(List.of(
                    new NormativeTypes.Column("name", "name", ScalarKind.STRING))), tableValue("a"));
            return null;
        });
    }

    static Object[] scalarValue(double v, int severity, String message) {
        return new Object[] {v, NormativeTypes.alarm(severity, severity == 0 ? 0 : 3, message),
                NormativeTypes.time(1_767_225_600L, 0), new Object[] {0.0, 10.0, "a test", "u", 1}};
    }

    static Object[] tableValue(String... names) {
        return new Object[] {new String[] {"name"}, new Object[] {names}, "", NormativeTypes.alarm(0, 0, ""),
                NormativeTypes.time(0, 0)};
    }

    /** Posts a new scalar value that changed the given members. */
    void post(double v, int severity, int... members) {
        BitSet changed = new BitSet();
        for (int m : members) {
            changed.set(m);
        }
        clock.call(() -> {
            host.post(scalar, scalarValue(v, severity, severity == 0 ? "" : "alarm"), changed);
            return null;
        });
        settle();
    }

    /** Lets queued loop tasks (hops, the end-of-task flush) run. */
    void settle() {
        clock.call(() -> null);
        clock.call(() -> null);
    }

    final class Peer implements HostedPvs.Peer {
        final ByteArrayOutputStream sent = new ByteArrayOutputStream();
        volatile long queued;
        volatile boolean closed;
        HostedPvs.Session session;
        int read;

        @Override
        public InetSocketAddress remote() {
            return new InetSocketAddress("127.0.0.1", 40000);
        }

        @Override
        public ByteBufAllocator alloc() {
            return UnpooledByteBufAllocator.DEFAULT;
        }

        @Override
        public synchronized void send(ByteBuf messages) {
            try {
                if (!closed) {
                    byte[] b = new byte[messages.readableBytes()];
                    messages.readBytes(b);
                    sent.writeBytes(b);
                }
            } finally {
                messages.release();
            }
        }

        @Override
        public long queued() {
            return queued;
        }

        @Override
        public void close() {
            closed = true;
        }

        /** Sends client bytes (one whole message) and lets the loop handle them. */
        void write(byte[] message) {
            session.message(Unpooled.wrappedBuffer(message));
            settle();
        }

        /** What the server sent since the last call. */
        synchronized List<PvClientBytes.Reply> replies() {
            byte[] all = sent.toByteArray();
            byte[] fresh = java.util.Arrays.copyOfRange(all, read, all.length);
            read = all.length;
            return PvClientBytes.split(fresh);
        }
    }

    Peer connect() {
        Peer p = new Peer();
        p.session = host.open(p);
        settle();
        return p;
    }

    @Override
    public void close() {
        clock.close();
    }
}
