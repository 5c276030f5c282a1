package lookout.engine.net;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * An endpoint that puts nothing on a wire, for tests of what sits above one: every send is taken
 * (a buffer released), nothing is read, no thread reads it. A test overrides what it watches.
 */
public class IdleUdpEndpoint implements UdpEndpoint {

    private final InetSocketAddress local;

    public IdleUdpEndpoint(InetSocketAddress local) {
        this.local = local;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public boolean knowsDestination() {
        return false;
    }

    @Override
    public boolean choosesSource() {
        return false;
    }

    @Override
    public boolean send(byte[] data, int offset, int length, InetSocketAddress to, InetAddress from) {
        return true;
    }

    @Override
    public boolean send(ByteBuf data, InetSocketAddress to, InetAddress from) {
        data.release();
        return true;
    }

    @Override
    public boolean reply(byte[] data, int offset, int length) {
        return true;
    }

    @Override
    public void sendTogether(Runnable work) {
        work.run();
    }

    @Override
    public boolean onReaderThread() {
        return false;
    }

    @Override
    public long sendErrors() {
        return 0;
    }

    @Override
    public String readBy() {
        return "test";
    }

    @Override
    public void close() {
    }
}
