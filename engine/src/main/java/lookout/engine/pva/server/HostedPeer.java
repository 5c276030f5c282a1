package lookout.engine.pva.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import lookout.engine.seams.HostedPvs;

/**
 * A name-server TCP connection as the engine's hosted PVs see it ({@link HostedPvs.Peer}): writes
 * under the connection's limits — a write that would take its backlog past
 * {@link NameServerListener#MAX_BACKLOG} closes it instead (counted as refused), and reading stops
 * while it is above the high-water mark, as for search replies. Any thread.
 */
final class HostedPeer implements HostedPvs.Peer {

    private final Channel ch;
    private final AtomicLong refused;

    HostedPeer(Channel ch, AtomicLong refused) {
        this.ch = ch;
        this.refused = refused;
    }

    @Override
    public InetSocketAddress remote() {
        return (InetSocketAddress) ch.remoteAddress();
    }

    @Override
    public ByteBufAllocator alloc() {
        return ch.alloc();
    }

    @Override
    public void send(ByteBuf messages) {
        if (!ch.isActive()) {
            messages.release();
            return;
        }
        if (queued() + messages.readableBytes() > NameServerListener.MAX_BACKLOG) {
            messages.release();
            refused.incrementAndGet();
            ch.close();
            return;
        }
        ch.writeAndFlush(messages, ch.voidPromise());
        if (!ch.isWritable()) {
            ch.config().setAutoRead(false);
        }
    }

    @Override
    public long queued() {
        ChannelOutboundBuffer b = ch.unsafe().outboundBuffer();
        return b == null ? 0 : b.totalPendingWriteBytes();
    }

    @Override
    public void close() {
        ch.close();
    }
}
