/*
 * liblookoutnet: the natively read UDP socket of lookout.engine.net.NativeDatagram (JNI).
 *
 * What Java cannot do with its own sockets, as gdnsd does it (dnsio_udp.c): a reader thread
 * blocked in recvmmsg(MSG_WAITFORONE) takes up to a batch of datagrams, with each one's sender
 * and, on a wildcard address, its destination (IP_PKTINFO / IPV6_PKTINFO); the answers of a burst
 * leave in one sendmmsg, each from the address its question was sent to.
 *
 * Memory: Java allocates direct buffers once per batch (datagrams in, answers out, and the
 * records below) and a state buffer in which batchInit lays out the kernel's structures
 * (mmsghdr, iovec, sockaddr, cmsg) pointing into them. A receive or a flush is then one JNI call
 * on that state: no allocation, no array pinning, no JNI call per datagram.
 *
 * Java reads and writes records of its own (struct lk_address, lk_received, lk_queued), never
 * the kernel's structures: their sizes and offsets are the constants of NativeDatagram.java,
 * which javac -h puts in the generated header and the _Static_asserts below check.
 *
 * Errors: errno is read right after the call that failed, before any other call can change it,
 * and handed back as a negative return value (-errno) or in a thrown
 * lookout.engine.net.NetError$NativeIoError(message, errno). strerror_r gives the message's
 * words only; Java classifies by the number.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jni.h>
#include <linux/filter.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lookout_engine_net_LoopNativeUdpEndpoint.h"
#include "lookout_engine_net_NativeDatagram.h"
#include "lookout_engine_net_UdpExchanges.h"

#define J(name) lookout_engine_net_NativeDatagram_##name

#ifndef IP_PMTUDISC_OMIT
#define IP_PMTUDISC_OMIT 5
#endif
#ifndef IPV6_PMTUDISC_OMIT
#define IPV6_PMTUDISC_OMIT 5
#endif

/* An address as Java reads and writes it: family 4 or 6 (0: none), port, scope, the bytes. */
struct lk_address {
    int32_t family;
    int32_t port;
    uint32_t scope; /* sin6_scope_id; for a destination, the interface it arrived on */
    int32_t reserved;
    uint8_t bytes[16]; /* IPv4: the first 4 */
};

/* What a receive says about datagram i. */
struct lk_received {
    int32_t length;
    int32_t truncated;
    struct lk_address sender;
    struct lk_address destination; /* family 0 unless the socket reads destinations */
};

/* An answer queued by Java: its bytes in the out buffer, where it goes, where it leaves from. */
struct lk_queued {
    int32_t offset;
    int32_t length;
    int32_t to;   /* >= 0: the sender of received datagram `to`, its name as received; J(TO_ADDRESS): address */
    int32_t from; /* >= 0: the destination of received datagram `from`; J(FROM_VIA): via; J(FROM_KERNEL) */
    struct lk_address address;
    struct lk_address via;
};

_Static_assert(sizeof(struct lk_address) == J(ADDRESS), "ADDRESS");
_Static_assert(offsetof(struct lk_address, family) == J(ADDRESS_FAMILY), "ADDRESS_FAMILY");
_Static_assert(offsetof(struct lk_address, port) == J(ADDRESS_PORT), "ADDRESS_PORT");
_Static_assert(offsetof(struct lk_address, scope) == J(ADDRESS_SCOPE), "ADDRESS_SCOPE");
_Static_assert(offsetof(struct lk_address, bytes) == J(ADDRESS_BYTES), "ADDRESS_BYTES");
_Static_assert(sizeof(struct lk_received) == J(RECEIVED), "RECEIVED");
_Static_assert(offsetof(struct lk_received, length) == J(RECEIVED_LENGTH), "RECEIVED_LENGTH");
_Static_assert(offsetof(struct lk_received, truncated) == J(RECEIVED_TRUNCATED), "RECEIVED_TRUNCATED");
_Static_assert(offsetof(struct lk_received, sender) == J(RECEIVED_SENDER), "RECEIVED_SENDER");
_Static_assert(offsetof(struct lk_received, destination) == J(RECEIVED_DESTINATION), "RECEIVED_DESTINATION");
_Static_assert(sizeof(struct lk_queued) == J(QUEUED), "QUEUED");
_Static_assert(offsetof(struct lk_queued, offset) == J(QUEUED_OFFSET), "QUEUED_OFFSET");
_Static_assert(offsetof(struct lk_queued, length) == J(QUEUED_LENGTH), "QUEUED_LENGTH");
_Static_assert(offsetof(struct lk_queued, to) == J(QUEUED_TO), "QUEUED_TO");
_Static_assert(offsetof(struct lk_queued, from) == J(QUEUED_FROM), "QUEUED_FROM");
_Static_assert(offsetof(struct lk_queued, address) == J(QUEUED_ADDRESS), "QUEUED_ADDRESS");
_Static_assert(offsetof(struct lk_queued, via) == J(QUEUED_VIA), "QUEUED_VIA");
/* the option numbers Java's tests read back with socketOption */
_Static_assert(J(SOL_SOCKET) == SOL_SOCKET && J(SO_RCVBUF) == SO_RCVBUF, "SO_RCVBUF");
_Static_assert(J(SOL_IP) == IPPROTO_IP && J(SOL_IPV6) == IPPROTO_IPV6, "SOL_IP");
_Static_assert(J(IP_MTU_DISCOVER) == IP_MTU_DISCOVER && J(IPV6_MTU_DISCOVER) == IPV6_MTU_DISCOVER, "MTU_DISCOVER");
_Static_assert(J(PMTUDISC_OMIT) == IP_PMTUDISC_OMIT && J(PMTUDISC_OMIT) == IPV6_PMTUDISC_OMIT, "PMTUDISC_OMIT");
_Static_assert(J(EINTR) == EINTR && J(EAGAIN) == EAGAIN, "EINTR");

union lk_name {
    struct sockaddr sa;
    struct sockaddr_in in4;
    struct sockaddr_in6 in6;
};

/* Room for the control messages of one datagram: its IPv4 or IPv6 destination (both, to be safe). */
#define CONTROL (CMSG_SPACE(sizeof(struct in_pktinfo)) + CMSG_SPACE(sizeof(struct in6_pktinfo)))

union lk_control {
    struct cmsghdr align;
    unsigned char bytes[CONTROL];
};

/* A batch: Java's buffers and the kernel's structures pointing into them (in the state buffer). */
struct lk_batch {
    int count;
    int slot;
    int inet6;
    int pktinfo;
    unsigned char *in_data;
    struct lk_received *received;
    unsigned char *out_data;
    size_t out_capacity;
    struct lk_queued *queued;
    struct mmsghdr *in;
    struct iovec *in_iov;
    union lk_name *in_names;
    union lk_control *in_control;
    struct mmsghdr *out;
    struct iovec *out_iov;
    union lk_name *out_names;
    union lk_control *out_control;
};

#define PIECES 9 /* the batch and its eight arrays, each aligned on 16 bytes */

static size_t state_size(int count) {
    size_t each = 2 * (sizeof(struct mmsghdr) + sizeof(struct iovec) + sizeof(union lk_name) + sizeof(union lk_control));
    return sizeof(struct lk_batch) + (size_t) count * each + 16 * (PIECES + 1);
}

static void *carve(unsigned char **at, size_t size) {
    uintptr_t a = ((uintptr_t) *at + 15) & ~(uintptr_t) 15;
    *at = (unsigned char *) a + size;
    return (void *) a;
}

/* ------------------------------------------------------------------ messages and exceptions */

/*
 * Copies `text` into `out` as the modified UTF-8 NewStringUTF takes, replacing whatever is not
 * a whole UTF-8 sequence of the Basic Multilingual Plane by '?': strerror speaks the host's
 * language, in its locale's encoding, which need not be UTF-8.
 */
static void to_utf8(const char *text, char *out, size_t room) {
    size_t o = 0;
    const unsigned char *s = (const unsigned char *) text;
    while (*s && o + 4 < room) {
        int n = *s < 0x80 ? 1 : (*s & 0xE0) == 0xC0 ? 2 : (*s & 0xF0) == 0xE0 ? 3 : 0;
        int ok = n > 0;
        for (int k = 1; ok && k < n; k++) {
            ok = (s[k] & 0xC0) == 0x80;
        }
        if (ok) {
            memcpy(out + o, s, (size_t) n);
            o += (size_t) n;
            s += n;
        } else {
            out[o++] = '?';
            s++;
        }
    }
    out[o] = 0;
}

static jstring errno_text(JNIEnv *env, int e) {
    char buf[256];
    char text[256];
    const char *s = strerror_r(e, buf, sizeof buf); /* GNU: may return a static string */
    to_utf8(s, text, sizeof text);
    return (*env)->NewStringUTF(env, text);
}

/* Throws NetError.NativeIoError("what: <strerror> (errno e)", e); what may be NULL. */
static void throw_errno(JNIEnv *env, const char *what, int e) {
    char buf[256];
    char text[256];
    char message[400];
    to_utf8(strerror_r(e, buf, sizeof buf), text, sizeof text);
    if (what != NULL) {
        snprintf(message, sizeof message, "%s: %s (errno %d)", what, text, e);
    } else {
        snprintf(message, sizeof message, "%s (errno %d)", text, e);
    }
    jclass type = (*env)->FindClass(env, "lookout/engine/net/NetError$NativeIoError");
    if (type == NULL) {
        return; /* NoClassDefFoundError is pending */
    }
    jmethodID make = (*env)->GetMethodID(env, type, "<init>", "(Ljava/lang/String;ILjava/lang/Throwable;)V");
    jstring m = (*env)->NewStringUTF(env, message);
    if (make == NULL || m == NULL) {
        return;
    }
    jobject x = (*env)->NewObject(env, type, make, m, (jint) e, NULL);
    if (x != NULL) {
        (*env)->Throw(env, (jthrowable) x);
    }
}

static void throw_argument(JNIEnv *env, const char *message) {
    jclass type = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
    if (type != NULL) {
        (*env)->ThrowNew(env, type, message);
    }
}

/* ------------------------------------------------------------------ addresses */

static void to_address(const union lk_name *n, socklen_t length, struct lk_address *a) {
    memset(a, 0, sizeof *a);
    if (n->sa.sa_family == AF_INET && length >= (socklen_t) sizeof n->in4) {
        a->family = 4;
        a->port = ntohs(n->in4.sin_port);
        memcpy(a->bytes, &n->in4.sin_addr, 4);
    } else if (n->sa.sa_family == AF_INET6 && length >= (socklen_t) sizeof n->in6) {
        a->family = 6;
        a->port = ntohs(n->in6.sin6_port);
        a->scope = n->in6.sin6_scope_id;
        memcpy(a->bytes, &n->in6.sin6_addr, 16);
    }
}

/*
 * `a` as the name a socket of the given family sends to: an IPv4 address becomes IPv4-mapped on
 * an IPv6 socket; an IPv6 address on an IPv4 socket stays IPv6, and the kernel refuses it
 * (EAFNOSUPPORT), so that the refusal comes with its errno. Its length; 0 for no address.
 */
static socklen_t to_name(const struct lk_address *a, int inet6, union lk_name *n) {
    memset(n, 0, sizeof *n);
    if (a->family == 4 && !inet6) {
        n->in4.sin_family = AF_INET;
        n->in4.sin_port = htons((uint16_t) a->port);
        memcpy(&n->in4.sin_addr, a->bytes, 4);
        return sizeof n->in4;
    }
    if (a->family == 4) {
        n->in6.sin6_family = AF_INET6;
        n->in6.sin6_port = htons((uint16_t) a->port);
        n->in6.sin6_addr.s6_addr[10] = 0xff;
        n->in6.sin6_addr.s6_addr[11] = 0xff;
        memcpy(&n->in6.sin6_addr.s6_addr[12], a->bytes, 4);
        return sizeof n->in6;
    }
    if (a->family == 6) {
        n->in6.sin6_family = AF_INET6;
        n->in6.sin6_port = htons((uint16_t) a->port);
        n->in6.sin6_scope_id = a->scope;
        memcpy(&n->in6.sin6_addr, a->bytes, 16);
        return sizeof n->in6;
    }
    return 0;
}

/* The destination a datagram came with (IP_PKTINFO's ipi_addr, IPV6_PKTINFO's address). */
static void read_destination(struct msghdr *h, struct lk_address *d) {
    memset(d, 0, sizeof *d);
    for (struct cmsghdr *c = CMSG_FIRSTHDR(h); c != NULL; c = CMSG_NXTHDR(h, c)) {
        if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO
                && c->cmsg_len >= CMSG_LEN(sizeof(struct in_pktinfo))) {
            struct in_pktinfo p;
            memcpy(&p, CMSG_DATA(c), sizeof p);
            d->family = 4;
            d->scope = (uint32_t) p.ipi_ifindex;
            memcpy(d->bytes, &p.ipi_addr, 4);
            return;
        }
        if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_PKTINFO
                && c->cmsg_len >= CMSG_LEN(sizeof(struct in6_pktinfo))) {
            struct in6_pktinfo p;
            memcpy(&p, CMSG_DATA(c), sizeof p);
            d->family = 6;
            d->scope = p.ipi6_ifindex;
            memcpy(d->bytes, &p.ipi6_addr, 16);
            return;
        }
    }
}

/*
 * The control message that makes an answer leave from `via`: IP_PKTINFO with ipi_spec_dst and no
 * interface (the route decides), or IPV6_PKTINFO with the address and its interface (a
 * link-local address needs it). Its length; 0 for none.
 */
static size_t write_via(const struct lk_address *via, int inet6, union lk_control *out) {
    struct msghdr m;
    memset(&m, 0, sizeof m);
    memset(out, 0, sizeof *out);
    m.msg_control = out->bytes;
    m.msg_controllen = sizeof out->bytes;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    if (via->family == 4) {
        struct in_pktinfo p;
        memset(&p, 0, sizeof p);
        memcpy(&p.ipi_spec_dst, via->bytes, 4);
        c->cmsg_level = IPPROTO_IP;
        c->cmsg_type = IP_PKTINFO;
        c->cmsg_len = CMSG_LEN(sizeof p);
        memcpy(CMSG_DATA(c), &p, sizeof p);
        return CMSG_SPACE(sizeof p);
    }
    if (via->family == 6 && inet6) {
        struct in6_pktinfo p;
        memset(&p, 0, sizeof p);
        memcpy(&p.ipi6_addr, via->bytes, 16);
        p.ipi6_ifindex = via->scope;
        c->cmsg_level = IPPROTO_IPV6;
        c->cmsg_type = IPV6_PKTINFO;
        c->cmsg_len = CMSG_LEN(sizeof p);
        memcpy(CMSG_DATA(c), &p, sizeof p);
        return CMSG_SPACE(sizeof p);
    }
    return 0;
}

/* ------------------------------------------------------------------ the socket */

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void) vm;
    (void) reserved;
    return JNI_VERSION_1_8;
}

JNIEXPORT jint JNICALL Java_lookout_engine_net_NativeDatagram_abi(JNIEnv *env, jclass type) {
    (void) env;
    (void) type;
    return J(ABI);
}

JNIEXPORT jstring JNICALL Java_lookout_engine_net_NativeDatagram_errnoText(JNIEnv *env, jclass type, jint e) {
    (void) type;
    return errno_text(env, e);
}

/* Sets an int option; the errno (0: done). */
static int set_int(int fd, int level, int option, int value) {
    return setsockopt(fd, level, option, &value, sizeof value) == 0 ? 0 : errno;
}

static void give_up(JNIEnv *env, int fd, const char *what, int e) {
    close(fd);
    throw_errno(env, what, e);
}

/* openSocket's sharing flags (NativeDatagram.SHARE_*) */
#define LK_REUSE_PORT 1
#define LK_REUSE_ADDR 2
#define LK_BROADCAST 4

JNIEXPORT jint JNICALL Java_lookout_engine_net_NativeDatagram_openSocket(JNIEnv *env, jclass type, jbyteArray address,
        jint share, jint receive_buffer, jboolean wildcard, jbyteArray bound) {
    (void) type;
    struct lk_address want;
    if ((*env)->GetArrayLength(env, address) != (jsize) sizeof want
            || (*env)->GetArrayLength(env, bound) != (jsize) sizeof want) {
        throw_argument(env, "address records are 32 bytes");
        return -1;
    }
    (*env)->GetByteArrayRegion(env, address, 0, sizeof want, (jbyte *) &want);
    int v6 = want.family == 6;
    int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        throw_errno(env, "socket", errno);
        return -1;
    }
    int e;
    if ((share & LK_REUSE_PORT) && (e = set_int(fd, SOL_SOCKET, SO_REUSEPORT, 1)) != 0) {
        give_up(env, fd, "SO_REUSEPORT", e);
        return -1;
    }
    /* PVA's broadcast port is shared with the other PVA servers of the host (seed 002 §5) */
    if ((share & LK_REUSE_ADDR) && (e = set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1)) != 0) {
        give_up(env, fd, "SO_REUSEADDR", e);
        return -1;
    }
    if ((share & LK_BROADCAST) && (e = set_int(fd, SOL_SOCKET, SO_BROADCAST, 1)) != 0) {
        give_up(env, fd, "SO_BROADCAST", e);
        return -1;
    }
    /* beyond net.core.rmem_max only with CAP_NET_ADMIN (SO_RCVBUFFORCE), as unbound does; without
       it the kernel caps SO_RCVBUF silently, and the caller reads back what it got */
    if (receive_buffer > 0 && set_int(fd, SOL_SOCKET, SO_RCVBUFFORCE, receive_buffer) != 0
            && (e = set_int(fd, SOL_SOCKET, SO_RCVBUF, receive_buffer)) != 0) {
        give_up(env, fd, "SO_RCVBUF", e);
        return -1;
    }
    /*
     * As gdnsd does (dnsio_udp.c): answers leave without DF and without path-MTU state, so that a
     * forged ICMP "fragmentation needed" cannot shrink them into fragments an off-path attacker
     * could replace, and no PMTU black hole swallows them; IPv6 answers fragment at the minimum
     * MTU. Kernels without OMIT (before 3.15) get DONT. An IPv6 socket sets the IPv4 option too,
     * for its mapped clients.
     */
    if (set_int(fd, IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_OMIT) != 0 && !v6) {
        set_int(fd, IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DONT);
    }
    if (v6) {
        if (set_int(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, IPV6_PMTUDISC_OMIT) != 0) {
            set_int(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, IPV6_PMTUDISC_DONT);
        }
        set_int(fd, IPPROTO_IPV6, IPV6_MTU, 1280);
    }
    if (wildcard) {
        /* every datagram's destination, so that its answer leaves from it; an IPv6 socket takes
           IPv4 clients too (mapped): both kinds of destination */
        if ((e = set_int(fd, IPPROTO_IP, IP_PKTINFO, 1)) != 0 && !v6) {
            give_up(env, fd, "IP_PKTINFO", e);
            return -1;
        }
        if (v6 && (e = set_int(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, 1)) != 0) {
            give_up(env, fd, "IPV6_RECVPKTINFO", e);
            return -1;
        }
    }
    union lk_name name;
    socklen_t length = to_name(&want, v6, &name);
    if (bind(fd, &name.sa, length) != 0) {
        give_up(env, fd, NULL, errno);
        return -1;
    }
    length = sizeof name;
    if (getsockname(fd, &name.sa, &length) != 0) {
        give_up(env, fd, "getsockname", errno);
        return -1;
    }
    struct lk_address got;
    to_address(&name, length, &got);
    (*env)->SetByteArrayRegion(env, bound, 0, sizeof got, (const jbyte *) &got);
    return fd;
}

JNIEXPORT jint JNICALL Java_lookout_engine_net_NativeDatagram_socketOption(JNIEnv *env, jclass type, jint fd,
        jint level, jint option) {
    (void) env;
    (void) type;
    int value = 0;
    socklen_t length = sizeof value;
    return getsockopt(fd, level, option, &value, &length) == 0 ? value : -1;
}

/*
 * Datagrams the kernel dropped on this socket, ever (sk_drops: a full receive buffer, mostly),
 * read with SO_MEMINFO when asked. SO_RXQ_OVFL reports the same counter, but as a control
 * message on every datagram received after a drop, and only when one is received: this costs
 * nothing per datagram and sees drops after the last one too. -errno on failure.
 */
JNIEXPORT jlong JNICALL Java_lookout_engine_net_NativeDatagram_receiveDrops(JNIEnv *env, jclass type, jint fd) {
    (void) env;
    (void) type;
    uint32_t info[SK_MEMINFO_VARS];
    socklen_t length = sizeof info;
    memset(info, 0, sizeof info);
    if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, info, &length) != 0) {
        return -errno;
    }
    return length > SK_MEMINFO_DROPS * sizeof(uint32_t) ? (jlong) info[SK_MEMINFO_DROPS] : -EINVAL;
}

/*
 * A socket filter (SO_ATTACH_FILTER, classic BPF) dropping every IPv4 datagram whose source is one
 * of count (address, port) pairs — the PVA server's own forwarding sockets, on the group socket
 * their copies loop back to (seed 002 §5): the kernel drops them before they are queued, so they
 * wake no reader and cost no receive. The program:
 *
 *   ldb [net+0]; and #0xf0; jeq #0x40 else accept     an IPv4 header (else: accepted)
 *   ld  [net+12]; st M[0]                             the IPv4 source address
 *   ldh [0]; tax                                      the UDP source port: a UDP socket's filter
 *                                                     sees the datagram from its UDP header
 *                                                     (SourceFilterTest checks it on the kernel)
 *   per pair: ld M[0]; jeq #addr else next; txa; jeq #port then drop
 *   accept: ret #0xffffffff    drop: ret #0
 *
 * A load beyond the packet ends the program with 0 (dropped): an IPv4 datagram has both fields.
 * count 0 detaches any filter. Addresses and ports in host order (what BPF's loads give).
 * 0, or -errno (-EINVAL for more pairs than LK_FILTER_PAIRS).
 */
#define LK_FILTER_PAIRS 32

JNIEXPORT jint JNICALL Java_lookout_engine_net_NativeDatagram_filterSources(JNIEnv *env, jclass type, jint fd,
        jintArray addresses, jintArray ports, jint count) {
    (void) type;
    if (count == 0) {
        int dummy = 0;
        if (setsockopt(fd, SOL_SOCKET, SO_DETACH_FILTER, &dummy, sizeof dummy) != 0 && errno != ENOENT) {
            return -errno;
        }
        return 0;
    }
    if (count < 0 || count > LK_FILTER_PAIRS) {
        return -EINVAL;
    }
    jint addr[LK_FILTER_PAIRS];
    jint port[LK_FILTER_PAIRS];
    (*env)->GetIntArrayRegion(env, addresses, 0, count, addr);
    (*env)->GetIntArrayRegion(env, ports, 0, count, port);
    if ((*env)->ExceptionCheck(env)) {
        return -EINVAL;
    }
    struct sock_filter code[7 + 4 * LK_FILTER_PAIRS + 2];
    unsigned n = 0;
    unsigned accept = 7 + 4 * (unsigned) count; /* index of "ret accept"; "ret drop" follows it */
    code[n++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_B | BPF_ABS, (uint32_t) SKF_NET_OFF);
    code[n++] = (struct sock_filter) BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf0);
    code[n] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x40, 0, (uint8_t) (accept - n - 1));
    n++;
    code[n++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t) (SKF_NET_OFF + 12));
    code[n++] = (struct sock_filter) BPF_STMT(BPF_ST, 0);
    code[n++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 0);
    code[n++] = (struct sock_filter) BPF_STMT(BPF_MISC | BPF_TAX, 0);
    for (jint i = 0; i < count; i++) {
        code[n++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_MEM, 0);
        code[n++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t) addr[i], 0, 2);
        code[n++] = (struct sock_filter) BPF_STMT(BPF_MISC | BPF_TXA, 0);
        code[n] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t) port[i] & 0xffffu,
                (uint8_t) (accept + 1 - n - 1), 0);
        n++;
    }
    code[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, 0xffffffffu);
    code[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, 0);
    struct sock_fprog program = {.len = (unsigned short) n, .filter = code};
    return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &program, sizeof program) == 0 ? 0 : -errno;
}

/*
 * Steers the datagrams of the SO_REUSEPORT group fd is in (SO_ATTACH_REUSEPORT_CBPF, Linux 4.5):
 * first true, all of them to the group's first socket — "ret #0" is the index of the socket that
 * joined the group first —; false, "ret #0xffffffff", an index beyond the group, which the kernel
 * takes as no choice and falls back on its own spreading by the flow's hash (what it does with no
 * program; detaching, SO_DETACH_REUSEPORT_BPF, came only in 5.3). 0, or -errno.
 */
JNIEXPORT jint JNICALL Java_lookout_engine_net_LoopNativeUdpEndpoint_steer(JNIEnv *env, jclass type, jint fd,
        jboolean first) {
    (void) env;
    (void) type;
    struct sock_filter code[1] = {BPF_STMT(BPF_RET | BPF_K, first ? 0u : 0xffffffffu)};
    struct sock_fprog program = {.len = 1, .filter = code};
    return setsockopt(fd, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &program, sizeof program) == 0 ? 0 : -errno;
}

JNIEXPORT jint JNICALL Java_lookout_engine_net_NativeDatagram_shutdownSocket(JNIEnv *env, jclass type, jint fd) {
    (void) env;
    (void) type;
    /* Linux wakes a receive blocked on an unconnected UDP socket shut down (and says ENOTCONN) */
    return shutdown(fd, SHUT_RDWR) == 0 ? 0 : -errno;
}

JNIEXPORT jint JNICALL Java_lookout_engine_net_NativeDatagram_closeSocket(JNIEnv *env, jclass type, jint fd) {
    (void) env;
    (void) type;
    return close(fd) == 0 ? 0 : -errno;
}

/* ------------------------------------------------------------------ batches */

JNIEXPORT jint JNICALL Java_lookout_engine_net_NativeDatagram_stateSize(JNIEnv *env, jclass type, jint count) {
    (void) env;
    (void) type;
    return (jint) state_size(count);
}

/* The address of a direct buffer of at least `need` bytes, 8-aligned; NULL (and an exception) if not. */
static unsigned char *buffer(JNIEnv *env, jobject b, size_t need, const char *what) {
    unsigned char *p = b == NULL ? NULL : (*env)->GetDirectBufferAddress(env, b);
    if (p == NULL || (size_t) (*env)->GetDirectBufferCapacity(env, b) < need || ((uintptr_t) p & 7) != 0) {
        throw_argument(env, what);
        return NULL;
    }
    return p;
}

JNIEXPORT jlong JNICALL Java_lookout_engine_net_NativeDatagram_batchInit(JNIEnv *env, jclass type, jobject state,
        jint count, jint slot, jobject in_data, jobject received, jobject out_data, jobject queued,
        jboolean inet6, jboolean pktinfo) {
    (void) type;
    if (count <= 0 || count > 1024 || slot < 0) {
        throw_argument(env, "batch: bad count or slot");
        return 0;
    }
    unsigned char *at = buffer(env, state, state_size(count), "batch: state buffer too small");
    unsigned char *received_at = at == NULL ? NULL
            : buffer(env, received, (size_t) count * sizeof(struct lk_received), "batch: received records");
    unsigned char *queued_at = received_at == NULL ? NULL
            : buffer(env, queued, (size_t) count * sizeof(struct lk_queued), "batch: queued records");
    unsigned char *out_at = queued_at == NULL ? NULL : buffer(env, out_data, 1, "batch: out buffer");
    unsigned char *in_at = NULL;
    if (out_at != NULL && slot > 0) {
        in_at = buffer(env, in_data, (size_t) count * (size_t) slot, "batch: in buffer");
        if (in_at == NULL) {
            return 0;
        }
    }
    if (out_at == NULL) {
        return 0;
    }
    memset(at, 0, state_size(count));
    struct lk_batch *b = carve(&at, sizeof *b);
    b->count = count;
    b->slot = slot;
    b->inet6 = inet6 != 0;
    b->pktinfo = pktinfo != 0;
    b->in_data = in_at;
    b->received = (struct lk_received *) received_at;
    b->out_data = out_at;
    b->out_capacity = (size_t) (*env)->GetDirectBufferCapacity(env, out_data);
    b->queued = (struct lk_queued *) queued_at;
    b->in = carve(&at, (size_t) count * sizeof *b->in);
    b->in_iov = carve(&at, (size_t) count * sizeof *b->in_iov);
    b->in_names = carve(&at, (size_t) count * sizeof *b->in_names);
    b->in_control = carve(&at, (size_t) count * sizeof *b->in_control);
    b->out = carve(&at, (size_t) count * sizeof *b->out);
    b->out_iov = carve(&at, (size_t) count * sizeof *b->out_iov);
    b->out_names = carve(&at, (size_t) count * sizeof *b->out_names);
    b->out_control = carve(&at, (size_t) count * sizeof *b->out_control);
    for (int i = 0; i < count; i++) {
        b->in_iov[i].iov_base = in_at == NULL ? NULL : in_at + (size_t) i * (size_t) slot;
        b->in_iov[i].iov_len = in_at == NULL ? 0 : (size_t) slot;
        b->in[i].msg_hdr.msg_iov = &b->in_iov[i];
        b->in[i].msg_hdr.msg_iovlen = 1;
        b->out[i].msg_hdr.msg_iov = &b->out_iov[i];
        b->out[i].msg_hdr.msg_iovlen = 1;
    }
    return (jlong) (uintptr_t) b;
}

/* Takes up to the batch with `flags`: how many, or -errno. */
static int receive(struct lk_batch *b, int fd, int flags) {
    for (int i = 0; i < b->count; i++) {
        struct msghdr *h = &b->in[i].msg_hdr;
        h->msg_name = &b->in_names[i];
        h->msg_namelen = sizeof b->in_names[i];
        h->msg_control = b->pktinfo ? b->in_control[i].bytes : NULL;
        h->msg_controllen = b->pktinfo ? sizeof b->in_control[i].bytes : 0;
        h->msg_flags = 0;
    }
    int n = recvmmsg(fd, b->in, (unsigned int) b->count, flags, NULL);
    if (n < 0) {
        return -errno;
    }
    for (int i = 0; i < n; i++) {
        struct msghdr *h = &b->in[i].msg_hdr;
        struct lk_received *r = &b->received[i];
        unsigned int length = b->in[i].msg_len;
        r->length = (int32_t) (length < (unsigned int) b->slot ? length : (unsigned int) b->slot);
        r->truncated = (h->msg_flags & MSG_TRUNC) != 0;
        to_address(&b->in_names[i], h->msg_namelen, &r->sender);
        if (b->pktinfo) {
            read_destination(h, &r->destination);
        } else {
            memset(&r->destination, 0, sizeof r->destination);
        }
    }
    return n;
}

/*
 * Blocks until at least one datagram is there and takes up to the batch (MSG_WAITFORONE): how
 * many, 0 once the socket is shut down, -errno on an error (EINTR included: Java retries).
 */
JNIEXPORT jint JNICALL Java_lookout_engine_net_NativeDatagram_receiveBatch(JNIEnv *env, jclass type, jlong handle,
        jint fd) {
    (void) env;
    (void) type;
    return receive((struct lk_batch *) (uintptr_t) handle, fd, MSG_WAITFORONE);
}

/*
 * What is there now, without waiting (MSG_DONTWAIT): for a socket an event loop watches, read
 * when the loop says it is readable. How many, or -errno (-EAGAIN: nothing).
 */
JNIEXPORT jint JNICALL Java_lookout_engine_net_NativeDatagram_receiveNow(JNIEnv *env, jclass type, jlong handle,
        jint fd) {
    (void) env;
    (void) type;
    return receive((struct lk_batch *) (uintptr_t) handle, fd, MSG_DONTWAIT);
}

/*
 * Sends the first `queued` answers (sendmmsg, MSG_DONTWAIT: a full send buffer loses the answer,
 * UDP's loss, as in gdnsd; past a datagram the kernel refused, so one bad address loses one
 * answer). Returns how many were refused (high 32 bits) and the errno of the last refusal (low).
 */
JNIEXPORT jlong JNICALL Java_lookout_engine_net_NativeDatagram_sendBatch(JNIEnv *env, jclass type, jlong handle,
        jint fd, jint queued) {
    (void) env;
    (void) type;
    struct lk_batch *b = (struct lk_batch *) (uintptr_t) handle;
    int n = queued < b->count ? queued : b->count;
    uint32_t refused = 0;
    int last = 0;
    int first = 0;
    for (int k = 0; k < n; k++) {
        const struct lk_queued *q = &b->queued[k];
        struct msghdr *h = &b->out[k].msg_hdr;
        if (q->offset < 0 || q->length < 0 || (size_t) q->offset + (size_t) q->length > b->out_capacity) {
            b->out_iov[k].iov_base = b->out_data;
            b->out_iov[k].iov_len = 0;
            h->msg_name = NULL; /* no address: the kernel refuses it (EDESTADDRREQ) */
            h->msg_namelen = 0;
        } else {
            b->out_iov[k].iov_base = b->out_data + q->offset;
            b->out_iov[k].iov_len = (size_t) q->length;
            if (q->to >= 0 && q->to < b->count) {
                h->msg_name = &b->in_names[q->to]; /* the sender's own name, as received */
                h->msg_namelen = b->in[q->to].msg_hdr.msg_namelen;
            } else {
                h->msg_namelen = to_name(&q->address, b->inet6, &b->out_names[k]);
                h->msg_name = h->msg_namelen > 0 ? &b->out_names[k] : NULL;
            }
        }
        const struct lk_address *via = q->from >= 0 && q->from < b->count ? &b->received[q->from].destination
                : q->from == J(FROM_VIA) ? &q->via : NULL;
        size_t control = via == NULL ? 0 : write_via(via, b->inet6, &b->out_control[k]);
        h->msg_control = control > 0 ? b->out_control[k].bytes : NULL;
        h->msg_controllen = control;
        h->msg_flags = 0;
    }
    while (first < n) {
        int r = sendmmsg(fd, b->out + first, (unsigned int) (n - first), MSG_DONTWAIT);
        if (r > 0) {
            first += r;
        } else if (r < 0 && errno == EINTR) {
            continue;
        } else {
            last = r < 0 ? errno : 0;
            refused++;
            first++; /* this one is lost; the rest still go */
        }
    }
    return (jlong) (((uint64_t) refused << 32) | (uint32_t) last);
}

/* ------------------------------------------------------------------ exchanges */

/*
 * lookout.engine.net.UdpExchanges: one connected UDP socket per query-and-reply exchange (the
 * resolver's upstream transactions: seed 000 wants a socket of its own for each), watched by one
 * epoll set of our own, which sits as a single descriptor on the Netty loop that owns them.
 * Opening an exchange is one JNI call (socket, connect, epoll_ctl, send); reading the replies of
 * a wake-up is one call (epoll_wait, then one recv on each ready socket, packed into Java's
 * buffer); closing is one call (close, which also takes the socket out of the set). No channel,
 * no pipeline, no per-socket registration on the Netty loop.
 */

struct lk_exchange {
    int32_t handle;    /* Java's name for the exchange (slot and generation) */
    int32_t offset;    /* where its datagram lies in the in buffer */
    int32_t length;    /* its length (at most the room it was given) */
    int32_t truncated; /* longer than that room: cut */
    int32_t error;     /* 0, or the errno of a failed receive (ECONNREFUSED after an ICMP refusal) */
    int32_t reserved;
};

#define JX(name) lookout_engine_net_UdpExchanges_##name

_Static_assert(sizeof(struct lk_exchange) == JX(RECORD), "RECORD");
_Static_assert(offsetof(struct lk_exchange, handle) == JX(RECORD_HANDLE), "RECORD_HANDLE");
_Static_assert(offsetof(struct lk_exchange, offset) == JX(RECORD_OFFSET), "RECORD_OFFSET");
_Static_assert(offsetof(struct lk_exchange, length) == JX(RECORD_LENGTH), "RECORD_LENGTH");
_Static_assert(offsetof(struct lk_exchange, truncated) == JX(RECORD_TRUNCATED), "RECORD_TRUNCATED");
_Static_assert(offsetof(struct lk_exchange, error) == JX(RECORD_ERROR), "RECORD_ERROR");
_Static_assert(JX(ADDRESS) == J(ADDRESS), "ADDRESS");

JNIEXPORT jint JNICALL Java_lookout_engine_net_UdpExchanges_epollCreate(JNIEnv *env, jclass type) {
    (void) env;
    (void) type;
    int fd = epoll_create1(EPOLL_CLOEXEC);
    return fd >= 0 ? fd : -errno;
}

JNIEXPORT jint JNICALL Java_lookout_engine_net_UdpExchanges_eventSize(JNIEnv *env, jclass type) {
    (void) env;
    (void) type;
    return (jint) sizeof(struct epoll_event);
}

/*
 * A socket connected to the address record at out[0, ADDRESS), watched by `set` with `handle`,
 * and the `length` bytes at out[ADDRESS, ...) sent on it. Returns the descriptor, or
 * -(phase << 16 | errno) with the phase that failed (nothing is left open then).
 */
JNIEXPORT jlong JNICALL Java_lookout_engine_net_UdpExchanges_openExchange(JNIEnv *env, jclass type, jint set,
        jobject out, jint length, jint handle) {
    (void) type;
    unsigned char *at = (*env)->GetDirectBufferAddress(env, out);
    jlong capacity = (*env)->GetDirectBufferCapacity(env, out);
    if (at == NULL || length < 0 || capacity < (jlong) JX(ADDRESS) + length) {
        return -(((jlong) JX(PHASE_SEND) << 16) | EINVAL);
    }
    struct lk_address to;
    memcpy(&to, at, sizeof to);
    int v6 = to.family == 6;
    /* non-blocking from the start (no fcntl), closed on exec */
    int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -(((jlong) JX(PHASE_SOCKET) << 16) | errno);
    }
    union lk_name name;
    socklen_t name_length = to_name(&to, v6, &name);
    /* connected: the kernel takes replies from that address only, and an ICMP refusal shows as an
       error on the socket at once; connect binds an ephemeral port the kernel picks at random */
    if (connect(fd, &name.sa, name_length) != 0) {
        int e = errno;
        close(fd);
        return -(((jlong) JX(PHASE_CONNECT) << 16) | e);
    }
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = EPOLLIN; /* level-triggered; EPOLLERR comes unasked */
    ev.data.u64 = ((uint64_t) (uint32_t) handle << 32) | (uint32_t) fd;
    if (epoll_ctl(set, EPOLL_CTL_ADD, fd, &ev) != 0) {
        int e = errno;
        close(fd);
        return -(((jlong) JX(PHASE_WATCH) << 16) | e);
    }
    ssize_t sent;
    do {
        sent = send(fd, at + JX(ADDRESS), (size_t) length, MSG_DONTWAIT);
    } while (sent < 0 && errno == EINTR);
    if (sent < 0) {
        /* a fresh socket's send buffer is empty: EAGAIN can only mean the host is out of buffers */
        int e = errno == EAGAIN || errno == EWOULDBLOCK ? ENOBUFS : errno;
        close(fd);
        return -(((jlong) JX(PHASE_SEND) << 16) | e);
    }
    return fd;
}

/*
 * What the exchanges' sockets have for us now: epoll_wait(set, 0) for up to `max` ready sockets,
 * then one recv on each, packed one after the other into `in` (each given up to 65 536 bytes of
 * room; the rest of the ready sockets wait for the next call while less is left: the set is
 * level-triggered). A record per datagram or receive error; a socket with nothing after all
 * (EAGAIN) gets none. Returns the number of records, or -errno.
 */
JNIEXPORT jint JNICALL Java_lookout_engine_net_UdpExchanges_pollExchanges(JNIEnv *env, jclass type, jint set,
        jobject events, jint max, jobject in, jobject records) {
    (void) type;
    struct epoll_event *ev = (*env)->GetDirectBufferAddress(env, events);
    unsigned char *data = (*env)->GetDirectBufferAddress(env, in);
    struct lk_exchange *rec = (*env)->GetDirectBufferAddress(env, records);
    if (ev == NULL || data == NULL || rec == NULL || max <= 0
            || (*env)->GetDirectBufferCapacity(env, events) < (jlong) max * (jlong) sizeof *ev
            || (*env)->GetDirectBufferCapacity(env, records) < (jlong) max * (jlong) sizeof *rec) {
        return -EINVAL;
    }
    size_t capacity = (size_t) (*env)->GetDirectBufferCapacity(env, in);
    if (capacity < 65536) {
        return -EINVAL;
    }
    int n;
    do {
        n = epoll_wait(set, ev, max, 0);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        return -errno;
    }
    size_t used = 0;
    int count = 0;
    for (int i = 0; i < n; i++) {
        const size_t room = 65536; /* any datagram whole */
        if (capacity - used < room) {
            break; /* the rest next time */
        }
        int fd = (int) (uint32_t) ev[i].data.u64;
        struct lk_exchange *r = &rec[count];
        memset(r, 0, sizeof *r);
        r->handle = (int32_t) (ev[i].data.u64 >> 32);
        ssize_t got;
        do {
            got = recv(fd, data + used, room, MSG_DONTWAIT | MSG_TRUNC);
        } while (got < 0 && errno == EINTR);
        if (got < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                continue;
            }
            r->error = errno;
            r->length = 0;
        } else {
            r->offset = (int32_t) used;
            r->length = (int32_t) ((size_t) got < room ? (size_t) got : room);
            r->truncated = (size_t) got > room;
            used += (size_t) r->length;
        }
        count++;
    }
    return count;
}

/* Closes an exchange's socket (and with it its place in the set) or the set itself: 0 or -errno. */
JNIEXPORT jint JNICALL Java_lookout_engine_net_UdpExchanges_closeDescriptor(JNIEnv *env, jclass type, jint fd) {
    (void) env;
    (void) type;
    return close(fd) == 0 ? 0 : -errno;
}
