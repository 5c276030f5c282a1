/*
 * The floor of a PVA search responder on this machine, for bench/pva-floor.sh: the least work any
 * server can do for a one-name search over UDP — read searches in recvmmsg batches of 64, write a
 * SEARCH_RESPONSE naming every CID (no name lookup, no allocation, no locks) and send the batch's
 * replies with one sendmmsg. What it costs per search is almost all the kernel's (receive, route,
 * send on loopback); no server can answer for less, so a goal below it cannot be met.
 *
 *   pva-floor PORT SECONDS [forward]   prints: FLOOR searches cpu_nanos user_nanos
 *
 * With "forward" it also does the least a server sharing its port must add (seed 002 §5): each
 * search goes out again, as an ORIGIN_TAG and the search, to 224.0.0.128:PORT over loopback (TTL
 * 1), in the same sendmmsg as the replies — the floor of a forwarding responder (the kernel
 * delivers each copy to every socket of the group, a second server's among them).
 *
 * Layouts: ../shared/PVA-WIRE.md (seed 002 §2); every loop is bounded by SECONDS.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#define BATCH 64
#define DGRAM 2048

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000000000LL + t.tv_nsec;
}

static uint32_t get32(const uint8_t *p, int be) {
    return be ? (uint32_t) p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]
              : (uint32_t) p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
}

static uint16_t get16(const uint8_t *p, int be) {
    return be ? (uint16_t) (p[0] << 8 | p[1]) : (uint16_t) (p[1] << 8 | p[0]);
}

static void put32(uint8_t *p, uint32_t v, int be) {
    for (int i = 0; i < 4; i++) {
        p[be ? i : 3 - i] = (uint8_t) (v >> (24 - 8 * i));
    }
}

static void put16(uint8_t *p, uint16_t v, int be) {
    p[be ? 0 : 1] = (uint8_t) (v >> 8);
    p[be ? 1 : 0] = (uint8_t) v;
}

/* One search in d[0, len) → its reply in out, its destination in to; 0 when it is no search. */
static int answer(const uint8_t *d, int len, const struct sockaddr_in *src, uint8_t *out, struct sockaddr_in *to) {
    if (len < 8 + 26 || d[0] != 0xCA || d[3] != 0x03) {
        return 0;
    }
    int be = (d[2] & 0x80) != 0;
    const uint8_t *p = d + 8, *end = d + len;
    uint32_t seq = get32(p, be);
    const uint8_t *addr = p + 8;
    uint16_t port = get16(p + 24, be);
    p += 26;
    int protocols = *p++; /* a size below 254 is one byte */
    for (int i = 0; i < protocols && p < end; i++) {
        p += 1 + *p;
    }
    if (p + 2 > end) {
        return 0;
    }
    int count = get16(p, be);
    p += 2;
    uint8_t *o = out;
    *o++ = 0xCA; *o++ = 2; *o++ = (uint8_t) (0x40 | (be ? 0x80 : 0)); *o++ = 0x04;
    uint8_t *length = o; o += 4;
    memset(o, 0x42, 12); o += 12;                      /* GUID */
    put32(o, seq, be); o += 4;
    memset(o, 0, 16); o += 16;                         /* server address: the source */
    put16(o, 5075, be); o += 2;
    *o++ = 3; *o++ = 't'; *o++ = 'c'; *o++ = 'p';
    *o++ = 1;                                          /* found */
    uint8_t *n = o; o += 2;
    int found = 0;
    for (int i = 0; i < count && p + 5 <= end && found < 64; i++) {
        uint32_t cid = get32(p, be);
        p += 4;
        p += 1 + *p;
        put32(o, cid, be); o += 4;
        found++;
    }
    put16(n, (uint16_t) found, be);
    put32(length, (uint32_t) (o - out - 8), be);
    *to = *src;
    static const uint8_t zero[16];
    if (memcmp(addr, zero, 16) != 0) {
        memcpy(&to->sin_addr, addr + 12, 4);           /* an IPv4-mapped reply address */
    }
    to->sin_port = htons(port);
    return (int) (o - out);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: pva-floor PORT SECONDS [forward]\n");
        return 2;
    }
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    int big = 4 << 20, one = 1;
    /* as a PVA server binds (SO_REUSEADDR), so a second server's wildcard socket can share the port */
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
    /* recvmmsg's own timeout is only looked at after a datagram arrives: the socket's bounds the wait */
    struct timeval tick = {0, 100000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof tick);
    struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons((uint16_t) atoi(argv[1]))};
    me.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *) &me, sizeof me) != 0) {
        perror("bind");
        return 1;
    }
    int forward = argc > 3 && strcmp(argv[3], "forward") == 0;
    if (forward) {
        struct in_addr lo = {htonl(INADDR_LOOPBACK)};
        unsigned char ttl = 1;
        setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &lo, sizeof lo);
        setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof ttl);
    }
    struct sockaddr_in group = {.sin_family = AF_INET, .sin_port = htons((uint16_t) atoi(argv[1]))};
    inet_pton(AF_INET, "224.0.0.128", &group.sin_addr);
    static uint8_t in[BATCH][DGRAM], out[2 * BATCH][DGRAM];
    static struct sockaddr_in src[BATCH], dst[2 * BATCH];
    static struct iovec iin[BATCH], iout[2 * BATCH];
    static struct mmsghdr im[BATCH], om[2 * BATCH];
    for (int i = 0; i < BATCH; i++) {
        iin[i] = (struct iovec) {in[i], DGRAM};
        im[i].msg_hdr = (struct msghdr) {.msg_name = &src[i], .msg_namelen = sizeof src[i], .msg_iov = &iin[i], .msg_iovlen = 1};
    }
    long long deadline = now_ns() + atoll(argv[2]) * 1000000000LL;
    long long searches = 0;
    while (now_ns() < deadline) {
        for (int i = 0; i < BATCH; i++) {
            im[i].msg_hdr.msg_namelen = sizeof src[i];
        }
        int got = recvmmsg(fd, im, BATCH, MSG_WAITFORONE, NULL);
        int k = 0, replies = 0;
        for (int m = 0; m < got; m++) {
            int len = answer(in[m], (int) im[m].msg_len, &src[m], out[k], &dst[k]);
            if (len > 0) {
                iout[k] = (struct iovec) {out[k], (size_t) len};
                om[k].msg_hdr = (struct msghdr) {.msg_name = &dst[k], .msg_namelen = sizeof dst[k], .msg_iov = &iout[k], .msg_iovlen = 1};
                k++;
                replies++;
                int n = (int) im[m].msg_len;
                if (forward && n + 24 <= DGRAM) {
                    /* ORIGIN_TAG (the destination: 127.0.0.1, IPv4-mapped), then the search as received */
                    uint8_t *o = out[k];
                    o[0] = 0xCA; o[1] = 2; o[2] = in[m][2] & 0x80; o[3] = 0x16;
                    put32(o + 4, 16, (in[m][2] & 0x80) != 0);
                    memset(o + 8, 0, 10); o[18] = 0xFF; o[19] = 0xFF; o[20] = 127; o[21] = 0; o[22] = 0; o[23] = 1;
                    memcpy(o + 24, in[m], (size_t) n);
                    dst[k] = group;
                    iout[k] = (struct iovec) {out[k], (size_t) (n + 24)};
                    om[k].msg_hdr = (struct msghdr) {.msg_name = &dst[k], .msg_namelen = sizeof dst[k], .msg_iov = &iout[k], .msg_iovlen = 1};
                    k++;
                }
            }
        }
        if (k > 0) {
            sendmmsg(fd, om, (unsigned) k, MSG_DONTWAIT);
            searches += replies;
        }
    }
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    long long user = u.ru_utime.tv_sec * 1000000000LL + u.ru_utime.tv_usec * 1000LL;
    long long sys = u.ru_stime.tv_sec * 1000000000LL + u.ru_stime.tv_usec * 1000LL;
    printf("FLOOR %lld %lld %lld\n", searches, user + sys, user);
    return 0;
}
