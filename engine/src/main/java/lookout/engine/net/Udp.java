package lookout.engine.net;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Opens {@link UdpEndpoint}s: the engine's one way to a UDP socket, for DNS and PVA alike. Read by
 * Netty on an event loop (the portable path, every option), or natively by a reader thread of its
 * own or on an epoll loop (Linux; batches without a selector, destination addresses and chosen
 * sources on wildcard addresses; no multicast joins). Which one a service uses is its policy, from
 * {@link lookout.engine.api.EngineOptions}; this class only opens what it is asked for.
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

    /**
     * An endpoint on {@code local} read natively on {@code loop} itself (an epoll loop, which then
     * watches the socket as one of its descriptors), bound and watched before this returns: no
     * reader thread, no hop to the loop. Throws where native datagrams are unavailable or the loop
     * is not on epoll ({@link #nativeOnLoopUnavailable}).
     */
    public static UdpEndpoint nativeOnLoop(EventLoop loop, InetSocketAddress local, UdpOptions options,
                                           UdpReceiver receiver) throws IOException {
        String why = nativeOnLoopUnavailable(loop);
        if (why != null) {
            throw new IOException("UDP cannot be read natively on this loop: " + why);
        }
        return LoopNativeUdpEndpoint.open(loop, local, options, receiver);
    }

    /** Why a socket cannot be read natively on a loop of {@code group}, or null when it can. */
    public static String nativeOnLoopUnavailable(EventLoopGroup group) {
        return UdpExchanges.unavailable(group);
    }

    /** Why UDP endpoints cannot be read natively in this JVM, or null when they can. */
    public static String nativeUnavailable() {
        return Transport.nativeDatagramsUnavailable();
    }
}
