package lookout.engine.dns.listen;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * The listeners' part of the resolver's snapshot and metrics, read at once on the engine loop.
 *
 * @param bound          the addresses bound (port 0 resolved)
 * @param fastAnswers    local questions the UDP listeners answered on their fast path, ever (all sockets)
 * @param loopAnswers    the part of them answered off the engine loop (answer loops, native readers)
 * @param udpThreads     UDP sockets per listen address
 * @param nativeReads    whether the UDP sockets are read natively
 * @param udpSendErrors  answers the natively read sockets could not send, ever
 * @param malformed      client messages dropped or answered FORMERR (broken TCP streams included)
 * @param denied         clients outside {@code resolver.allow}
 * @param internalErrors client messages whose handling failed (a bug): 0 in every test
 * @param tcpClients     client TCP connections open
 * @param tcpRejected    client TCP connections closed at the limit
 * @param recentAnswers  the fast-path answers kept for traces
 * @param udpReceiveBuffer the smallest receive buffer the kernel keeps for a UDP listener socket, in
 *                       bytes (-1: unknown)
 * @param udpReceiveDrops datagrams the kernel dropped on the UDP listener sockets, ever (a full
 *                       receive buffer); -1 where that cannot be known
 * @param tcpClosedIdle  client TCP connections closed for being idle, ever
 * @param nativeOnLoop   whether the one UDP socket of each address is read natively on the engine loop
 */
public record ListenerStatus(List<InetSocketAddress> bound, long fastAnswers, long loopAnswers, int udpThreads,
                             boolean nativeReads, long udpSendErrors, long malformed, long denied, long internalErrors,
                             int tcpClients, long tcpRejected, List<LoopTrace> recentAnswers, int udpReceiveBuffer,
                             long udpReceiveDrops, long tcpClosedIdle,
                             boolean nativeOnLoop) {
}
