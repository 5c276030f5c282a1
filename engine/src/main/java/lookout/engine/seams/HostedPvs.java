package lookout.engine.seams;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;

/**
 * PVs the engine itself serves (its status PVs, {@code status.pv_prefix}), as the engine's PVA
 * server needs them: a name to claim in searches, and the channel side of its TCP connections.
 * Implemented by the status-PV service; used by the PVA server, which claims these names for
 * itself (its own GUID and TCP port, seed 002 §4) and hands every channel message of a validated
 * connection on its TCP port to a {@link Session}. Neither side knows the other's classes.
 */
public interface HostedPvs {

    /**
     * True when {@code name} is served here right now, so that a search may claim it (seed 002 §4
     * contract: claim only what can be created at once). Any thread; a hash lookup, no I/O.
     */
    boolean hosts(String name);

    /**
     * The channel side of a newly validated connection. Called on the connection's I/O thread;
     * returns at once (the implementation hops to its own loop).
     */
    Session open(Peer peer);

    /** The connection as the channel side sees it. Every method may be called from any thread. */
    interface Peer {

        InetSocketAddress remote();

        ByteBufAllocator alloc();

        /**
         * Writes whole PVA messages and flushes; takes ownership of {@code messages}. A connection
         * whose backlog would pass its hard limit is closed instead (the buffer released).
         */
        void send(ByteBuf messages);

        /** Bytes written and not yet taken by the kernel. */
        long queued();

        /** Closes the connection (a protocol violation, a client too slow to keep up). */
        void close();
    }

    /** One connection's channels and operations. */
    interface Session {

        /**
         * One complete PVA application message (header included) that is not connection
         * validation, search or echo: channel and operation requests. On the connection's I/O
         * thread; {@code frame} is valid only during the call.
         */
        void message(ByteBuf frame);

        /** The connection closed. On the connection's I/O thread. */
        void closed();
    }
}
