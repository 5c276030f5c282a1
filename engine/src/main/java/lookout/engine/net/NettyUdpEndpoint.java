package lookout.engine.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link UdpEndpoint} read by Netty on an event loop: the portable path (epoll on Linux, NIO
 * elsewhere). A burst of datagrams is one read of the channel ({@code recvmmsg} on epoll), each
 * copied once into a scratch array of the endpoint and handed to the receiver; sends made during
 * the burst are written and flushed {@link #FLUSH_EVERY} at a time and at its end (one
 * {@code sendmmsg} on epoll).
 *
 * <p>It cannot choose a source address ({@link #choosesSource()} false): Netty has no IP_PKTINFO;
 * on epoll it learns each datagram's destination ({@code IP_RECVORIGDSTADDR}) when asked.
 *
 * <p>Concurrency: {@code scratch}, {@code inBurst}, {@code unflushed} and {@code current} belong to
 * the channel's event loop; sends from other threads go through Netty's own queue.
 */
final class NettyUdpEndpoint implements UdpEndpoint {

    private static final Logger LOG = System.getLogger("lookout.net.udp");
    private static final NetError NOT_OPEN = new NetError(NetError.EBADF, "the socket is closed", null);
    private static final NetError QUEUE_FULL = new NetError(NetError.ENOBUFS, "the send queue is full", null);

    private final DatagramChannel channel;
    private final UdpReceiver receiver;
    private final UdpOptions options;
    private final String readBy;
    private final LongAdder sendErrors = new LongAdder();
    private final LongAdder receiverErrors = new LongAdder();
    // event loop only
    private final byte[] scratch;
    private boolean inBurst;
    private int unflushed;
    private boolean flushQueued;
    private final Runnable flushTask = this::flushQueued;
    private InetSocketAddress current;

    private NettyUdpEndpoint(DatagramChannel channel, UdpReceiver receiver, UdpOptions options, String readBy) {
        this.channel = channel;
        this.receiver = receiver;
        this.options = options;
        this.readBy = readBy;
        this.scratch = new byte[options.maxDatagram()];
    }

    /**
     * Opens an endpoint on {@code local}, registered on a loop of {@code group} and bound there
     * before this returns (a bind error is thrown here, as the JDK's own {@link IOException}).
     */
    static NettyUdpEndpoint open(EventLoopGroup group, InetSocketAddress local, UdpOptions o, UdpReceiver receiver)
            throws IOException {
        Transport transport = Transport.of(group);
        // one byte more than is kept: a longer datagram then shows as such (recvmmsg cuts it silently)
        DatagramChannel ch = transport.batchedDatagram(local.getAddress(), o.maxPerRead(), o.maxDatagram() + 1);
        NettyUdpEndpoint e = new NettyUdpEndpoint(ch, receiver, o, "netty-" + transport.name().toLowerCase(java.util.Locale.ROOT));
        Transport.bind(group, ch, local, c -> {
            if (o.reusePort()) {
                transport.reusePort(c);
            }
            c.config().setReuseAddress(o.reuseAddress());
            if (o.broadcast()) {
                c.config().setBroadcast(true);
            }
            if (o.receiveBuffer() > 0) {
                transport.receiveBuffer(c, o.receiveBuffer());
            }
            if (o.destination()) {
                transport.reportOriginalDestination(c);
            }
            if (o.groupInterface() != null) {
                c.config().setNetworkInterface(o.groupInterface());
            }
            if (o.multicastTtl() >= 0) {
                c.config().setTimeToLive(o.multicastTtl());
            }
            c.config().setLoopbackModeDisabled(!o.multicastLoop());
            if (o.queueLimit() > 0) {
                c.config().setWriteBufferWaterMark(new WriteBufferWaterMark(o.queueLimit() / 4, o.queueLimit()));
            }
            if (o.noPathMtuDiscovery() && transport == Transport.EPOLL) {
                // not offered by Netty: the native layer sets IP_PMTUDISC_OMIT; here answers keep DF
                LOG.log(Level.DEBUG, "path-MTU discovery stays on for " + local + " (read through Netty)");
            }
            c.pipeline().addLast(e.new Inbound());
        });
        if (o.joinGroup() != null) {
            try {
                Transport.sync(ch.joinGroup(new InetSocketAddress(o.joinGroup(), local.getPort()), o.groupInterface()));
            } catch (IOException | RuntimeException x) {
                ch.close();
                throw x;
            }
        }
        return e;
    }

    @Override
    public InetSocketAddress localAddress() {
        return channel.localAddress();
    }

    @Override
    public boolean knowsDestination() {
        return options.destination() && Transport.of(channel.eventLoop()) == Transport.EPOLL;
    }

    @Override
    public boolean choosesSource() {
        return false;
    }

    @Override
    public boolean send(byte[] data, int offset, int length, InetSocketAddress to, InetAddress from) {
        if (!channel.isActive()) {
            return false;
        }
        // straight into a pooled direct buffer: the native transport sends only direct memory
        // and would otherwise wrap, copy and release a heap buffer per datagram itself
        ByteBuf out = channel.alloc().directBuffer(length).writeBytes(data, offset, length);
        return write(out, to);
    }

    @Override
    public boolean send(ByteBuf data, InetSocketAddress to, InetAddress from) {
        if (!channel.isActive()) {
            data.release();
            return false;
        }
        return write(data, to);
    }

    @Override
    public boolean send(ByteBuf data, InetSocketAddress to, InetAddress from, SendOutcome outcome) {
        if (!channel.isActive()) {
            data.release();
            report(outcome, NOT_OPEN);
            return false;
        }
        // a promise of its own (not the void one): Netty then tells this datagram's fate to it
        // rather than to exceptionCaught, which knows neither the datagram nor its destination
        return write(data, to, new OutcomePromise(outcome)) || report(outcome, QUEUE_FULL);
    }

    /**
     * A promise that tells its outcome as it completes: no listener object and no listener
     * notification per datagram (a reply is sent per search: this is the responder's hot path).
     * Completed on the channel's loop, like a listener would be called.
     */
    private final class OutcomePromise extends DefaultChannelPromise {
        private final SendOutcome outcome;

        OutcomePromise(SendOutcome outcome) {
            super(channel);
            this.outcome = outcome;
        }

        @Override
        public boolean trySuccess(Void result) {
            if (!super.trySuccess(result)) {
                return false;
            }
            report(outcome, null);
            return true;
        }

        @Override
        public ChannelPromise setSuccess(Void result) {
            super.setSuccess(result);
            report(outcome, null);
            return this;
        }

        @Override
        public boolean tryFailure(Throwable cause) {
            if (!super.tryFailure(cause)) {
                return false;
            }
            failed(cause);
            return true;
        }

        @Override
        public ChannelPromise setFailure(Throwable cause) {
            super.setFailure(cause);
            failed(cause);
            return this;
        }

        private void failed(Throwable cause) {
            sendErrors.increment();
            report(outcome, NetError.of(cause));
        }
    }

    /** Tells {@code outcome}; a receiver's bug is logged, never thrown into Netty. Returns false. */
    private boolean report(SendOutcome outcome, NetError error) {
        try {
            outcome.completed(error);
        } catch (RuntimeException e) {
            receiverErrors.increment();
            LOG.log(Level.WARNING, "UDP send outcome on " + localAddress() + " failed", e);
        }
        return false;
    }

    @Override
    public boolean reply(byte[] data, int offset, int length) {
        InetSocketAddress to = current;
        if (to == null || !channel.eventLoop().inEventLoop()) {
            throw new IllegalStateException("reply() outside a datagram's delivery");
        }
        return send(data, offset, length, to, null);
    }

    private boolean write(ByteBuf out, InetSocketAddress to) {
        // a void promise, no listener per datagram: a failed send surfaces in exceptionCaught
        return write(out, to, channel.voidPromise());
    }

    private boolean write(ByteBuf out, InetSocketAddress to, ChannelPromise promise) {
        if (options.queueLimit() > 0 && !channel.isWritable()) {
            out.release();
            sendErrors.increment();
            return false;
        }
        DatagramPacket p = new DatagramPacket(out, to);
        if (inBurst && channel.eventLoop().inEventLoop()) {
            // made while a read burst is delivered: leaves with the burst's others (one sendmmsg on epoll)
            channel.write(p, promise);
            if (++unflushed == FLUSH_EVERY) {
                unflushed = 0;
                channel.flush();
            }
        } else if (channel.eventLoop().inEventLoop()) {
            // made on the loop outside a burst (an answer after an upstream reply): it waits for the
            // end of the loop's round and leaves with the others made in it (one sendmmsg on epoll)
            channel.write(p, promise);
            if (++unflushed == FLUSH_EVERY) {
                unflushed = 0;
                channel.flush();
            } else if (!flushQueued) {
                flushQueued = true;
                channel.eventLoop().execute(flushTask);
            }
        } else {
            channel.writeAndFlush(p, promise);
        }
        return true;
    }

    private void flushQueued() {
        flushQueued = false;
        if (unflushed > 0) {
            unflushed = 0;
            channel.flush();
        }
    }

    @Override
    public void sendTogether(Runnable work) {
        if (!channel.eventLoop().inEventLoop() || inBurst) {
            // elsewhere Netty queues each write for the loop; inside a burst it is batched already
            work.run();
            return;
        }
        inBurst = true;
        try {
            work.run();
        } finally {
            inBurst = false;
            if (unflushed > 0) {
                unflushed = 0;
                channel.flush();
            }
        }
    }

    @Override
    public boolean onReaderThread() {
        return channel.eventLoop().inEventLoop();
    }

    @Override
    public long sendErrors() {
        return sendErrors.sum();
    }

    @Override
    public int receiveBuffer() {
        try {
            return channel.config().getReceiveBufferSize();
        } catch (RuntimeException e) {
            return -1; // closed
        }
    }

    @Override
    public long receiveDrops() {
        return Transport.receiveDrops(channel);
    }

    /** Receivers that threw (bugs), caught here. */
    long receiverErrors() {
        return receiverErrors.sum();
    }

    /** On epoll: a socket filter on the channel's descriptor ({@code fd()}, Netty's public API). */
    @Override
    public String dropFrom(java.util.List<InetSocketAddress> sources) {
        if (!(channel instanceof io.netty.channel.epoll.EpollDatagramChannel epoll)) {
            return "read through Netty " + Transport.of(channel.eventLoop()).name().toLowerCase(java.util.Locale.ROOT)
                    + ", which takes no socket filter";
        }
        if (!channel.isOpen()) {
            return "the socket is closed";
        }
        String why = Transport.nativeDatagramsUnavailable();
        if (why != null) {
            return "no native library: " + why;
        }
        return NativeDatagram.dropFrom(epoll.fd().intValue(), sources);
    }

    @Override
    public String readBy() {
        return readBy;
    }

    @Override
    public void close() {
        io.netty.channel.ChannelFuture f = channel.close();
        if (!channel.eventLoop().inEventLoop()) {
            // gone before the port is bound again (a reload without SO_REUSEPORT)
            f.awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
    }

    /** The channel, for code that still needs Netty's own API on it (joins, tests). */
    Channel channel() {
        return channel;
    }

    private void endBurst() {
        inBurst = false;
        try {
            receiver.burstEnd(this);
        } catch (RuntimeException e) {
            receiverErrors.increment();
            LOG.log(Level.WARNING, "UDP receiver on " + localAddress() + " failed at the end of a burst", e);
        }
        if (unflushed > 0) {
            unflushed = 0;
            channel.flush();
        }
    }

    /** The channel's handler: reads and the end of each read burst come here. */
    private final class Inbound extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            try {
                if (!(msg instanceof DatagramPacket p)) {
                    return;
                }
                inBurst = true;
                ByteBuf b = p.content();
                int len = Math.min(b.readableBytes(), scratch.length);
                // one bulk copy: reading a direct buffer byte by byte checks bounds and liveness per byte
                b.getBytes(b.readerIndex(), scratch, 0, len);
                InetAddress to = null;
                if (options.destination() && p.recipient() != null) {
                    to = p.recipient().getAddress();
                }
                current = p.sender();
                receiver.datagram(NettyUdpEndpoint.this, scratch, len, p.sender(), to, b.readableBytes() > scratch.length);
            } catch (RuntimeException e) {
                receiverErrors.increment();
                LOG.log(Level.WARNING, "UDP receiver on " + localAddress() + " failed", e);
            } finally {
                current = null;
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext c) {
            endBurst();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            // a send error to one peer must not close the socket (Netty reports it here)
            sendErrors.increment();
            try {
                receiver.sendFailed(NettyUdpEndpoint.this, NetError.of(cause), null);
            } catch (RuntimeException e) {
                receiverErrors.increment();
                LOG.log(Level.WARNING, "UDP receiver on " + localAddress() + " failed on a send error", e);
            }
        }
    }
}
