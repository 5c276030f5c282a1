package lookout.engine.pva.pvserve;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Scheduler;
import lookout.engine.pva.pvdata.PvDataException;
import lookout.engine.pva.pvdata.PvReader;
import lookout.engine.pva.pvdata.PvStatus;
import lookout.engine.pva.pvdata.PvType;
import lookout.engine.pva.pvdata.PvWriter;
import lookout.engine.pva.pvdata.TypeCodec;
import lookout.engine.pva.pvdata.ValueCodec;
import lookout.engine.seams.HostedPvs;

import static lookout.engine.pva.pvserve.ChannelMessages.*;

/**
 * The server side of PVA channels on one TCP connection (pvAccess protocol; PVXS
 * {@code serverconn.cpp}, {@code serverchan.cpp}, {@code serverget.cpp}, {@code servermon.cpp},
 * {@code serverintrospect.cpp}): CREATE_CHANNEL, DESTROY_CHANNEL, GET, MONITOR (start, stop,
 * pipeline acks, destroy), GET_FIELD, DESTROY_REQUEST and CANCEL_REQUEST; PUT, PUT_GET, RPC,
 * PROCESS and ARRAY refused with an error status (the status PVs take no writes). Segmented
 * requests are reassembled up to {@link PvServeLimits#maxMessageBytes()}.
 *
 * <p>Malformed input (truncated, inconsistent, an IOID reused, a segment out of place) closes the
 * connection, counted; an unknown command is counted and skipped, as PVXS does. A connection
 * whose unsent bytes stay above {@link PvServeLimits#softQueueBytes()} gets no more updates
 * (they merge, see {@link MonitorFlow}) and is closed after {@link PvServeLimits#slowClientNanos()}.
 *
 * <p>Concurrency: {@link #message} and {@link #closed} arrive on the connection's I/O thread and
 * hop onto the engine loop, which owns every other field. Nothing thrown leaves a handler.
 */
final class ChannelSession implements HostedPvs.Session {

    private static final Logger LOG = System.getLogger("lookout.pva.pvs");
    private static final String READ_ONLY = " refused: Lookout's status PVs are read-only";
    private static final long RETRY_MS = 100;

    /** What a session needs of the PV server it belongs to. */
    interface Host {
        HostedPv find(String name);

        PvServeLimits limits();

        PvServeCounters counters();

        Scheduler scheduler();

        /** The session has output to flush at the end of this loop task. */
        void dirty(ChannelSession session);

        /** The session ended (its connection closed). */
        void ended(ChannelSession session);
    }

    private final Host host;
    private final HostedPvs.Peer peer;
    private final Scheduler scheduler;
    private final Map<Integer, Channel> channels = new HashMap<>();
    private final Map<Integer, Op> ops = new HashMap<>();
    private final TypeCodec.Registry types = new TypeCodec.Registry();
    private final Set<Monitor> waiting = new LinkedHashSet<>();
    private int nextSid = 1;
    private boolean admitted = true;
    private boolean ended;
    private ByteBuf out;
    private ByteBuf assembling;
    private int assemblingCommand;
    private boolean assemblingBigEndian;
    private long congestedSince;
    private boolean congested;
    private Scheduler.Cancellable retry = Scheduler.Cancellable.NONE;

    ChannelSession(Host host, HostedPvs.Peer peer) {
        this.host = host;
        this.peer = peer;
        this.scheduler = host.scheduler();
    }

    private record Channel(int sid, int cid, HostedPv pv, Set<Integer> ioids) {
    }

    private interface Op {
        Channel channel();

        default void end() {
        }
    }

    private record Get(int ioid, Channel channel, BitSet mask) implements Op {
    }

    /** Refuses every channel: the connection came over {@link PvServeLimits#maxConnections()}. */
    void refuse() {
        admitted = false;
    }

    int channelCount() {
        return channels.size();
    }

    int monitorCount() {
        int n = 0;
        for (Op op : ops.values()) {
            n += op instanceof Monitor ? 1 : 0;
        }
        return n;
    }

    // ---------------------------------------------------------------- I/O thread

    @Override
    public void message(ByteBuf frame) {
        byte[] copy = new byte[frame.readableBytes()];
        frame.getBytes(frame.readerIndex(), copy);
        scheduler.run(() -> receive(copy));
    }

    @Override
    public void closed() {
        scheduler.run(() -> end(false));
    }

    // ---------------------------------------------------------------- engine loop

    private void receive(byte[] msg) {
        if (ended) {
            return;
        }
        try {
            frame(Unpooled.wrappedBuffer(msg));
        } catch (PvDataException e) {
            violation(e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "PVA channel request from " + peer.remote() + " failed", e);
            violation("unexpected " + e);
        } finally {
            flush();
        }
    }

    private void frame(ByteBuf m) throws PvDataException {
        if (m.readableBytes() < HEADER) {
            throw new PvDataException("truncated header");
        }
        int flags = m.getUnsignedByte(2);
        boolean be = (flags & 0x80) != 0;
        int command = m.getUnsignedByte(3);
        if ((flags & 0x01) != 0) {
            return; // control messages are the connection's business
        }
        ByteBuf body = m.slice(HEADER, m.readableBytes() - HEADER);
        int segment = flags & 0x30;
        if (segment == 0) {
            if (assembling != null) {
                throw new PvDataException("unsegmented message inside a segmented one");
            }
            dispatch(command, body, be);
            return;
        }
        if (segment == 0x10) {
            if (assembling != null) {
                throw new PvDataException("a second first segment");
            }
            assembling = Unpooled.buffer(Math.max(256, body.readableBytes() * 2));
            assemblingCommand = command;
            assemblingBigEndian = be;
        } else if (assembling == null || assemblingCommand != command) {
            throw new PvDataException("segment of no message");
        }
        if (assembling.readableBytes() + body.readableBytes() > host.limits().maxMessageBytes()) {
            throw new PvDataException("segmented message over " + host.limits().maxMessageBytes() + " bytes");
        }
        assembling.writeBytes(body);
        if (segment == 0x20) {
            ByteBuf whole = assembling;
            assembling = null;
            try {
                dispatch(assemblingCommand, whole, assemblingBigEndian);
            } finally {
                whole.release();
            }
        }
    }

    private void dispatch(int command, ByteBuf body, boolean be) throws PvDataException {
        PvReader r = new PvReader(body, body.readerIndex(), body.writerIndex(), be);
        switch (command) {
            case CMD_CREATE_CHANNEL -> createChannels(r);
            case CMD_DESTROY_CHANNEL -> destroyChannel(r);
            case CMD_GET -> get(r);
            case CMD_MONITOR -> monitor(r);
            case CMD_GET_FIELD -> getField(r);
            case CMD_PUT, CMD_PUT_GET, CMD_RPC, CMD_PROCESS, CMD_ARRAY -> refuseWrite(command, r);
            case CMD_DESTROY_REQUEST -> destroyRequest(r);
            case CMD_CANCEL_REQUEST -> cancelRequest(r);
            case CMD_MESSAGE, 0x05, 0x06 -> {
                // MESSAGE, AUTHNZ, ACL_CHANGE from a client: nothing to do
            }
            default -> host.counters().unknownCommands++;
        }
    }

    private void createChannels(PvReader r) throws PvDataException {
        int count = r.u16("channel count");
        for (int i = 0; i < count; i++) {
            int cid = r.i32("cid");
            String name = r.string("channel name");
            PvServeLimits limits = host.limits();
            HostedPv pv = host.find(name);
            PvStatus refusal = null;
            if (!admitted) {
                refusal = PvStatus.error("too many connections to Lookout's status PVs (limit " + limits.maxConnections() + ")");
            } else if (pv == null) {
                refusal = PvStatus.error("no PV called " + name + " here");
            } else if (channels.size() >= limits.maxChannels()) {
                refusal = PvStatus.error("too many channels on this connection (limit " + limits.maxChannels() + ")");
            }
            if (refusal != null) {
                host.counters().channelsRefused++;
                ChannelMessages.createChannel(out(), cid, -1, refusal);
                continue;
            }
            while (channels.containsKey(nextSid) || nextSid == -1) {
                nextSid++;
            }
            int sid = nextSid++;
            channels.put(sid, new Channel(sid, cid, pv, new LinkedHashSet<>()));
            host.counters().channelsCreated++;
            ChannelMessages.createChannel(out(), cid, sid, PvStatus.OK);
        }
    }

    private void destroyChannel(PvReader r) throws PvDataException {
        int sid = r.i32("sid");
        int cid = r.i32("cid");
        Channel ch = channels.remove(sid);
        if (ch == null) {
            return; // PVXS: a destroy may cross ours
        }
        endOps(ch);
        ChannelMessages.destroyChannel(out(), sid, cid);
    }

    private void endOps(Channel ch) {
        for (Integer ioid : ch.ioids()) {
            Op op = ops.remove(ioid);
            if (op != null) {
                op.end();
            }
        }
        ch.ioids().clear();
    }

    /** Reads the INIT of an operation: its channel and pvRequest, or a refusal already sent. */
    private PvRequest init(int command, int sid, int ioid, Channel[] channel, PvReader r) throws PvDataException {
        ValueCodec.AnyValue request = ValueCodec.decodeTyped(r, types);
        if (ops.containsKey(ioid)) {
            throw new PvDataException("IOID " + ioid + " already in use");
        }
        Channel ch = channels.get(sid);
        PvStatus refusal = null;
        PvRequest req = null;
        if (ch == null) {
            refusal = PvStatus.error("no channel " + sid + " on this connection");
        } else if (ops.size() >= host.limits().maxOperations()) {
            refusal = PvStatus.error("too many operations on this connection (limit " + host.limits().maxOperations() + ")");
        } else {
            req = PvRequest.of(request, ch.pv().type());
            if (req.problem() != null) {
                refusal = PvStatus.error(req.problem());
            }
        }
        if (refusal != null) {
            host.counters().operationsRefused++;
            ChannelMessages.status(out(), command, ioid, SUB_INIT, refusal);
            return null;
        }
        channel[0] = ch;
        return req;
    }

    private void get(PvReader r) throws PvDataException {
        int sid = r.i32("sid");
        int ioid = r.i32("ioid");
        int subcmd = r.u8("subcommand");
        if ((subcmd & SUB_INIT) != 0) {
            Channel[] ch = new Channel[1];
            PvRequest req = init(CMD_GET, sid, ioid, ch, r);
            if (req != null) {
                ops.put(ioid, new Get(ioid, ch[0], req.members()));
                ch[0].ioids().add(ioid);
                ChannelMessages.init(out(), CMD_GET, ioid, PvStatus.OK, ch[0].pv().type());
            }
            return;
        }
        Op op = ops.get(ioid);
        if (op == null) {
            return; // destroyed, or never made: PVXS ignores it too
        }
        if (!(op instanceof Get g)) {
            throw new PvDataException("GET on the IOID of another operation");
        }
        host.counters().gets++;
        ByteBuf o = out();
        int at = ChannelMessages.begin(o, CMD_GET);
        PvWriter w = new PvWriter(o);
        w.i32(ioid).u8(subcmd);
        PvStatus.OK.encode(w);
        g.channel().pv().getBody(g.mask(), w);
        ChannelMessages.end(o, at);
        if ((subcmd & SUB_DESTROY) != 0) {
            remove(ioid);
        }
    }

    private void monitor(PvReader r) throws PvDataException {
        int sid = r.i32("sid");
        int ioid = r.i32("ioid");
        int subcmd = r.u8("subcommand");
        if ((subcmd & SUB_INIT) != 0) {
            Channel[] ch = new Channel[1];
            PvRequest req = init(CMD_MONITOR, sid, ioid, ch, r);
            long nfree = (subcmd & SUB_PIPELINE) != 0 ? r.i32("nfree") & 0xFFFF_FFFFL : 0;
            if (req != null) {
                boolean pipeline = req.pipeline() || (subcmd & SUB_PIPELINE) != 0;
                // PVXS before 1.4.0 sent nfree 0 and meant queueSize; take the larger
                long window = Math.max(nfree, pipeline ? req.queueSize() : 0);
                Monitor m = new Monitor(ioid, ch[0], req.members(), new MonitorFlow(pipeline, window));
                ops.put(ioid, m);
                ch[0].ioids().add(ioid);
                ch[0].pv().subscribe(m);
                host.counters().monitorsCreated++;
                ChannelMessages.init(out(), CMD_MONITOR, ioid, PvStatus.OK, ch[0].pv().type());
            }
            return;
        }
        long nack = (subcmd & SUB_PIPELINE) != 0 ? r.i32("nack") & 0xFFFF_FFFFL : 0;
        Op op = ops.get(ioid);
        if (op == null) {
            return;
        }
        if (!(op instanceof Monitor m) || m.channel().sid() != sid) {
            throw new PvDataException("MONITOR on the IOID of another operation");
        }
        if ((subcmd & SUB_PIPELINE) != 0) {
            m.flow.ack(nack);
        }
        if ((subcmd & SUB_START_STOP) != 0) {
            if ((subcmd & SUB_GET) != 0) {
                m.flow.start(m.channel().pv().allMembers());
            } else {
                m.flow.stop();
            }
        }
        if ((subcmd & SUB_DESTROY) != 0) {
            remove(ioid);
            return;
        }
        m.send();
    }

    private void getField(PvReader r) throws PvDataException {
        int sid = r.i32("sid");
        int ioid = r.i32("ioid");
        String field = r.string("sub-field");
        Channel ch = channels.get(sid);
        if (ch == null) {
            ChannelMessages.getField(out(), ioid, PvStatus.error("no channel " + sid + " on this connection"), null);
            return;
        }
        PvType t = ch.pv().type();
        if (!field.isEmpty()) {
            for (String part : field.split("\\.", -1)) {
                int i = t instanceof PvType.Struct s ? s.indexOf(part) : -1;
                if (i < 0) {
                    ChannelMessages.getField(out(), ioid, PvStatus.error("no field " + field + " in " + ch.pv().name()), null);
                    return;
                }
                t = ((PvType.Struct) t).members().get(i).type();
            }
        }
        ChannelMessages.getField(out(), ioid, PvStatus.OK, t);
    }

    private void refuseWrite(int command, PvReader r) throws PvDataException {
        r.i32("sid");
        int ioid = r.i32("ioid");
        int subcmd = r.u8("subcommand");
        if ((subcmd & SUB_INIT) != 0) {
            host.counters().writesRefused++;
            String what = switch (command) {
                case CMD_PUT -> "PUT";
                case CMD_PUT_GET -> "PUT_GET";
                case CMD_RPC -> "RPC";
                case CMD_PROCESS -> "PROCESS";
                default -> "ARRAY";
            };
            ChannelMessages.status(out(), command, ioid, SUB_INIT, PvStatus.error(what + READ_ONLY));
        }
    }

    private void destroyRequest(PvReader r) throws PvDataException {
        r.i32("sid");
        remove(r.i32("ioid"));
    }

    private void cancelRequest(PvReader r) throws PvDataException {
        r.i32("sid");
        if (ops.get(r.i32("ioid")) instanceof Monitor m) {
            m.flow.stop();
        }
    }

    private void remove(int ioid) {
        Op op = ops.remove(ioid);
        if (op != null) {
            op.channel().ioids().remove(ioid);
            op.end();
        }
    }

    /** The PV went away (the prefix changed, the service stopped): its channels end, the client told. */
    void withdrawn(HostedPv pv) {
        if (ended) {
            return;
        }
        List<Channel> gone = new ArrayList<>();
        for (Channel ch : channels.values()) {
            if (ch.pv() == pv) {
                gone.add(ch);
            }
        }
        for (Channel ch : gone) {
            channels.remove(ch.sid());
            endOps(ch);
            ChannelMessages.destroyChannel(out(), ch.sid(), ch.cid());
        }
    }

    // ---------------------------------------------------------------- output

    private ByteBuf out() {
        if (out == null) {
            out = peer.alloc().buffer(256);
            host.dirty(this);
        }
        return out;
    }

    /** Sends what was written since the last flush. */
    void flush() {
        ByteBuf o = out;
        out = null;
        if (o == null) {
            return;
        }
        if (ended || !o.isReadable()) {
            o.release();
            return;
        }
        peer.send(o);
    }

    private boolean backedUp() {
        long pending = peer.queued() + (out == null ? 0 : out.readableBytes());
        if (pending <= host.limits().softQueueBytes()) {
            return false;
        }
        if (!congested) {
            congested = true;
            congestedSince = scheduler.nanoTime();
            retry = scheduler.schedule(this::retry, RETRY_MS, TimeUnit.MILLISECONDS);
        }
        return true;
    }

    private void retry() {
        if (ended) {
            return;
        }
        congested = false;
        if (peer.queued() > host.limits().softQueueBytes()) {
            if (scheduler.nanoTime() - congestedSince > host.limits().slowClientNanos()) {
                host.counters().slowClients++;
                LOG.log(Level.DEBUG, "PVA client " + peer.remote() + " reads too slowly: closing its connection");
                end(true);
                return;
            }
            congested = true;
            retry = scheduler.schedule(this::retry, RETRY_MS, TimeUnit.MILLISECONDS);
            return;
        }
        List<Monitor> again = new ArrayList<>(waiting);
        waiting.clear();
        for (Monitor m : again) {
            m.send();
        }
        flush();
    }

    private void violation(String reason) {
        host.counters().malformed++;
        LOG.log(Level.DEBUG, "PVA client " + peer.remote() + ": " + reason + "; closing its connection");
        end(true);
    }

    /** Ends the session; {@code close} closes the connection too (else it closed already). */
    private void end(boolean close) {
        if (ended) {
            return;
        }
        ended = true;
        for (Op op : ops.values()) {
            op.end();
        }
        ops.clear();
        channels.clear();
        waiting.clear();
        retry.cancel();
        if (out != null) {
            out.release();
            out = null;
        }
        if (assembling != null) {
            assembling.release();
            assembling = null;
        }
        host.ended(this);
        if (close) {
            peer.close();
        }
    }

    /** A MONITOR subscription: a subscriber of its PV, sending through this connection. */
    private final class Monitor implements Op, HostedPv.Subscriber {
        final int ioid;
        final Channel channel;
        final BitSet mask;
        final MonitorFlow flow;

        Monitor(int ioid, Channel channel, BitSet mask, MonitorFlow flow) {
            this.ioid = ioid;
            this.channel = channel;
            this.mask = mask;
            this.flow = flow;
        }

        @Override
        public Channel channel() {
            return channel;
        }

        @Override
        public void posted(HostedPv pv, BitSet members) {
            if (mask != null && !members.intersects(mask)) {
                return;
            }
            flow.offer(members);
            send();
        }

        void send() {
            if (ended || !flow.open()) {
                return;
            }
            if (backedUp()) {
                waiting.add(this);
                return;
            }
            HostedPv pv = channel.pv();
            BitSet overrun = new BitSet();
            BitSet members = flow.take(overrun);
            byte[] body = pv.updateBody(pv.wireBits(members, mask), pv.overrunBits(overrun, mask));
            ChannelMessages.monitorUpdate(out(), ioid, body);
            host.counters().updatesSent++;
        }

        @Override
        public void end() {
            channel.pv().unsubscribe(this);
            waiting.remove(this);
        }
    }
}
