package lookout.engine.net;

import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Opens {@link UdpEndpoint}s: the engine's one way to a UDP socket, for DNS and PVA alike. Read by
 * Netty on an event loop (the portable path, every option), or natively by a reader thread of its
 * own (Linux; batches without a selector, destination addresses and chosen sources on wildcard
 * addresses; no multicast joins, no sharing with other processes). Which one a service uses is its
 * policy, from {@link lookout.engine.api.EngineOptions}; this class only opens what it is asked for.
 */
public final class Udp {

    private Udp() {
    }

    /**
     * An endpoint on {@code local}, registered on a loop of {@code group} (whose transport it takes)
     * and bound before this returns.
     */
    public static UdpEndpoint netty(EventLoopGroup group, InetSocketAddress local, UdpOptions options,
                                    UdpReceiver receiver) throws IOException {
        return NettyUdpEndpoint.open(group, local, options, receiver);
    }

    /**
     * An endpoint on {@code local} read natively by a new thread named {@code threadName}, bound and
     * reading before this returns. Throws when native datagrams are unavailable here
     * ({@link #nativeUnavailable()}) or the options need what only Netty does.
     */
    public static UdpEndpoint nativeRead(InetSocketAddress local, UdpOptions options, UdpReceiver receiver,
                                         String threadName) throws IOException {
        String why = nativeUnavailable();
        if (why != null) {
            throw new IOException("UDP cannot be read natively here: " + why);
        }
        return NativeUdpEndpoint.open(local, options, receiver, threadName);
    }

    /** Why UDP endpoints cannot be read natively in this JVM, or null when they can. */
    public static String nativeUnavailable() {
        return Transport.nativeDatagramsUnavailable();
    }
}
