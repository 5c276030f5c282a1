/*
 * PVA search load generator for bench/pva-server-bench.sh: a closed loop with a fixed window of
 * search datagrams outstanding against one server on loopback, names drawn uniformly from
 * "bench:pv:000000" … (the same names and CID scheme as PvaServerBench's Java generator).
 * Searches leave in sendmmsg batches and replies are read in recvmmsg batches, so that the
 * generator costs ~1 µs of CPU per search instead of the Java generator's ~6 µs, which had been the
 * ceiling of the one-name measurement on a 2-core machine.
 *
 *   pva-load PORT NAMES PER_MESSAGE WINDOW SECONDS [FLAGS [SOCKETS [RATE]]]
 *   prints: RESULT searches names lost seconds cpu_nanos user_nanos sent skipped pending
 *
 * FLAGS is the search's flags byte (0x80: Unicast, as a client sets it when it addresses a host;
 * default 0). SOCKETS source sockets take turns (default 1): a server reading its port with
 * several SO_REUSEPORT sockets gets each sender on one of them, as it would get many clients.
 * RATE 0 (the default) is a closed loop: WINDOW searches outstanding, each answered one replaced
 * at once. RATE > 0 is an open loop: RATE searches a second, sent whatever the answers, at most
 * WINDOW outstanding (a search that would exceed it is skipped and counted): the answered share
 * at a given rate.
 *
 * A search is complete when every one of its CIDs has been answered (core-pva answers one reply
 * per CID, Lookout one per search); one outstanding for more than 500 ms counts as lost (in the
 * closed loop it is sent again with a new generation). Every loop is bounded by SECONDS.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define MAX_WINDOW 4096
#define MAX_PER 64
#define DGRAM 2048
#define MAX_SOCKETS 64

static uint64_t rng = 17;
static uint64_t next_random(void) { /* splitmix64 */
    uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long cpu_ns(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000000LL
           + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1000LL;
}

static long long user_ns(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec * 1000000000LL + u.ru_utime.tv_usec * 1000LL;
}

static void put32(uint8_t *p, uint32_t v) { p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v; }
static uint32_t get32(const uint8_t *p, int be) {
    return be ? ((uint32_t) p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3])
              : ((uint32_t) p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0]);
}
static uint32_t get16(const uint8_t *p, int be) { return be ? (p[0] << 8 | p[1]) : (p[1] << 8 | p[0]); }

static int names, per, window, flags, sockets;
static uint16_t reply_port[MAX_SOCKETS];
static uint32_t generation[MAX_WINDOW];
static int remaining[MAX_WINDOW];
static long long sent_at[MAX_WINDOW];

/* A big-endian SEARCH for slot's next generation (seed 002 §2; PVA-WIRE.md layout). */
static int build(int slot, uint8_t *out) {
    generation[slot]++;
    uint32_t gen = generation[slot] * (uint32_t) window + (uint32_t) slot;
    uint8_t *p = out;
    *p++ = 0xCA; *p++ = 2; *p++ = 0x80; *p++ = 0x03;
    uint8_t *len = p; p += 4;
    put32(p, 0x66696E64); p += 4;                 /* sequence "find" */
    *p++ = (uint8_t) flags; *p++ = 0; *p++ = 0; *p++ = 0; /* flags, reserved */
    memset(p, 0, 16); p += 16;                     /* reply address: the datagram's source */
    uint16_t rp = reply_port[slot % sockets];
    *p++ = rp >> 8; *p++ = rp & 0xFF;
    *p++ = 1; *p++ = 3; *p++ = 't'; *p++ = 'c'; *p++ = 'p';
    *p++ = per >> 8; *p++ = per & 0xFF;
    for (int i = 0; i < per; i++) {
        put32(p, gen << 8 | (uint32_t) i); p += 4;
        int n = snprintf((char *) p + 1, 32, "bench:pv:%06d", (int) (next_random() % (uint64_t) names));
        *p = (uint8_t) n;
        p += 1 + n;
    }
    put32(len, (uint32_t) (p - out - 8));
    remaining[slot] = per;
    sent_at[slot] = now_ns();
    return (int) (p - out);
}

int main(int argc, char **argv) {
    if (argc < 6 || argc > 9) {
        fprintf(stderr, "usage: pva-load PORT NAMES PER_MESSAGE WINDOW SECONDS [FLAGS [SOCKETS [RATE]]]\n");
        return 2;
    }
    int port = atoi(argv[1]);
    names = atoi(argv[2]);
    per = atoi(argv[3]);
    window = atoi(argv[4]);
    int seconds = atoi(argv[5]);
    flags = argc > 6 ? (int) strtol(argv[6], NULL, 0) : 0;
    sockets = argc > 7 ? atoi(argv[7]) : 1;
    long rate = argc > 8 ? atol(argv[8]) : 0;
    if (names <= 0 || per <= 0 || per > MAX_PER || window <= 0 || window > MAX_WINDOW || seconds <= 0
            || flags < 0 || flags > 255 || sockets <= 0 || sockets > MAX_SOCKETS || rate < 0) {
        fprintf(stderr, "pva-load: bad arguments\n");
        return 2;
    }
    int fd[MAX_SOCKETS];
    struct pollfd pfd[MAX_SOCKETS];
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    for (int k = 0; k < sockets; k++) {
        struct sockaddr_in me = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        fd[k] = socket(AF_INET, SOCK_DGRAM, 0);
        int rcvbuf = 4 << 20;
        setsockopt(fd[k], SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
        if (bind(fd[k], (struct sockaddr *) &me, sizeof me) < 0) {
            perror("pva-load: bind");
            return 1;
        }
        socklen_t ml = sizeof me;
        getsockname(fd[k], (struct sockaddr *) &me, &ml);
        reply_port[k] = ntohs(me.sin_port);
        fcntl(fd[k], F_SETFL, fcntl(fd[k], F_GETFL) | O_NONBLOCK);
        pfd[k].fd = fd[k];
        pfd[k].events = POLLIN;
    }

    static uint8_t out[MAX_SOCKETS][BATCH][DGRAM], in[BATCH][DGRAM];
    static struct mmsghdr om[MAX_SOCKETS][BATCH], im[BATCH];
    static struct iovec oi[MAX_SOCKETS][BATCH], ii[BATCH];
    static int queued[MAX_SOCKETS];
    static int free_slots[MAX_WINDOW];
    int nfree = 0;
    for (int k = 0; k < sockets; k++) {
        for (int i = 0; i < BATCH; i++) {
            oi[k][i].iov_base = out[k][i];
            om[k][i].msg_hdr.msg_name = &to; /* not connected: a reply may come from any port of the server */
            om[k][i].msg_hdr.msg_namelen = sizeof to;
            om[k][i].msg_hdr.msg_iov = &oi[k][i];
            om[k][i].msg_hdr.msg_iovlen = 1;
        }
    }
    for (int i = 0; i < BATCH; i++) {
        ii[i].iov_base = in[i];
        ii[i].iov_len = DGRAM;
        im[i].msg_hdr.msg_iov = &ii[i];
        im[i].msg_hdr.msg_iovlen = 1;
    }
#define FLUSH(k) do { if (queued[k]) { sendmmsg(fd[k], om[k], queued[k], 0); queued[k] = 0; } } while (0)
#define FLUSH_ALL() do { for (int q = 0; q < sockets; q++) FLUSH(q); } while (0)
#define QUEUE(slot) do { \
        int s_ = (slot); /* evaluated once */ \
        int k_ = s_ % sockets; \
        oi[k_][queued[k_]].iov_len = (size_t) build(s_, out[k_][queued[k_]]); \
        sent++; \
        if (++queued[k_] == BATCH) FLUSH(k_); \
    } while (0)

    long long done = 0, done_names = 0, lost = 0, sent = 0, skipped = 0, due = 0;
    long long t0 = now_ns(), c0 = cpu_ns(), u0 = user_ns();
    long long end = t0 + (long long) seconds * 1000000000LL, next_check = t0 + 100000000LL;
    if (rate == 0) {
        for (int slot = 0; slot < window; slot++) {
            QUEUE(slot);
        }
        FLUSH_ALL();
    } else {
        for (int slot = window - 1; slot >= 0; slot--) {
            free_slots[nfree++] = slot;
        }
    }
    while (now_ns() < end) {
        if (rate > 0) { /* the open loop: as many as the rate says by now, each needing a free slot */
            long long target = (now_ns() - t0) * rate / 1000000000LL;
            for (; due < target; due++) {
                if (nfree == 0) {
                    skipped++;
                    continue;
                }
                QUEUE(free_slots[--nfree]);
            }
            FLUSH_ALL();
        }
        int got = 0;
        for (int k = 0; k < sockets; k++) {
            int n = recvmmsg(fd[k], im, BATCH, MSG_DONTWAIT, NULL);
            for (int m = 0; m < n; m++) {
                const uint8_t *d = in[m];
                int len = (int) im[m].msg_len;
                if (len < 49 || d[0] != 0xCA || d[3] != 0x04) {
                    continue;
                }
                int be = (d[2] & 0x80) != 0;
                int count = (int) get16(d + 47, be);
                for (int c = 0; c < count && 49 + 4 * c + 4 <= len; c++) {
                    uint32_t cid = get32(d + 49 + 4 * c, be);
                    uint32_t gen = cid >> 8;
                    int slot = (int) (gen % (uint32_t) window);
                    if (gen / (uint32_t) window == generation[slot] && remaining[slot] > 0 && --remaining[slot] == 0) {
                        done++;
                        done_names += per;
                        if (rate == 0) {
                            QUEUE(slot);
                        } else {
                            free_slots[nfree++] = slot;
                        }
                    }
                }
            }
            got += n > 0 ? n : 0;
        }
        FLUSH_ALL();
        long long now = now_ns();
        if (now >= next_check) {
            next_check = now + 100000000LL;
            for (int slot = 0; slot < window; slot++) {
                if (remaining[slot] > 0 && now - sent_at[slot] > 500000000LL) {
                    lost++;
                    if (rate == 0) {
                        QUEUE(slot);
                    } else {
                        remaining[slot] = 0;
                        generation[slot]++; /* a late answer to it no longer counts */
                        free_slots[nfree++] = slot;
                    }
                }
            }
            FLUSH_ALL();
        }
        if (got == 0) {
            poll(pfd, (nfds_t) sockets, rate > 0 ? 1 : 50);
        }
    }
    double secs = (now_ns() - t0) / 1e9;
    long long pending = 0;
    for (int slot = 0; slot < window; slot++) {
        pending += remaining[slot] > 0;
    }
    printf("RESULT %lld %lld %lld %.6f %lld %lld %lld %lld %lld\n", done, done_names, lost, secs, cpu_ns() - c0,
           user_ns() - u0, sent, skipped, pending);
    return 0;
}
