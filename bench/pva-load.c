/*
 * PVA search load generator for bench/pva-server-bench.sh: a closed loop with a fixed window of
 * search datagrams outstanding against one server on loopback, names drawn uniformly from
 * "bench:pv:000000" … (the same names and CID scheme as PvaServerBench's Java generator).
 * Searches leave in sendmmsg batches and replies are read in recvmmsg batches, so that the
 * generator costs ~1 µs of CPU per search instead of the Java generator's ~6 µs, which had been the
 * ceiling of the one-name measurement on a 2-core machine.
 *
 *   pva-load PORT NAMES PER_MESSAGE WINDOW SECONDS
 *   prints: RESULT searches names lost seconds cpu_nanos user_nanos
 *
 * A search is complete when every one of its CIDs has been answered (core-pva answers one reply
 * per CID, Lookout one per search); one outstanding for more than 500 ms counts as lost and is
 * sent again with a new generation. Every loop is bounded by SECONDS.
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
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define MAX_WINDOW 4096
#define MAX_PER 64
#define DGRAM 2048

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

static int names, per, window;
static uint16_t reply_port;
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
    *p++ = 0; *p++ = 0; *p++ = 0; *p++ = 0;        /* flags, reserved */
    memset(p, 0, 16); p += 16;                     /* reply address: the datagram's source */
    *p++ = reply_port >> 8; *p++ = reply_port & 0xFF;
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
    if (argc != 6) {
        fprintf(stderr, "usage: pva-load PORT NAMES PER_MESSAGE WINDOW SECONDS\n");
        return 2;
    }
    int port = atoi(argv[1]);
    names = atoi(argv[2]);
    per = atoi(argv[3]);
    window = atoi(argv[4]);
    int seconds = atoi(argv[5]);
    if (names <= 0 || per <= 0 || per > MAX_PER || window <= 0 || window > MAX_WINDOW || seconds <= 0) {
        fprintf(stderr, "pva-load: bad arguments\n");
        return 2;
    }
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in me = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int rcvbuf = 4 << 20;
    setsockopt(s, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    if (bind(s, (struct sockaddr *) &me, sizeof me) < 0) {
        perror("pva-load: bind");
        return 1;
    }
    socklen_t ml = sizeof me;
    getsockname(s, (struct sockaddr *) &me, &ml);
    reply_port = ntohs(me.sin_port);
    struct timeval tv = {.tv_sec = 0, .tv_usec = 50000};
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);

    static uint8_t out[BATCH][DGRAM], in[BATCH][DGRAM];
    struct mmsghdr om[BATCH], im[BATCH];
    struct iovec oi[BATCH], ii[BATCH];
    memset(om, 0, sizeof om);
    memset(im, 0, sizeof im);
    for (int i = 0; i < BATCH; i++) {
        oi[i].iov_base = out[i];
        om[i].msg_hdr.msg_name = &to; /* not connected: a reply may come from any port of the server */
        om[i].msg_hdr.msg_namelen = sizeof to;
        om[i].msg_hdr.msg_iov = &oi[i];
        om[i].msg_hdr.msg_iovlen = 1;
        ii[i].iov_base = in[i];
        ii[i].iov_len = DGRAM;
        im[i].msg_hdr.msg_iov = &ii[i];
        im[i].msg_hdr.msg_iovlen = 1;
    }
    int queued = 0;
#define QUEUE(slot) do { \
        oi[queued].iov_len = (size_t) build((slot), out[queued]); \
        if (++queued == BATCH) { sendmmsg(s, om, queued, 0); queued = 0; } \
    } while (0)

    long long done = 0, done_names = 0, lost = 0;
    long long t0 = now_ns(), c0 = cpu_ns(), u0 = user_ns();
    long long end = t0 + (long long) seconds * 1000000000LL, next_check = t0 + 100000000LL;
    for (int slot = 0; slot < window; slot++) {
        QUEUE(slot);
    }
    if (queued) { sendmmsg(s, om, queued, 0); queued = 0; }
    while (now_ns() < end) {
        int n = recvmmsg(s, im, BATCH, MSG_WAITFORONE, NULL);
        for (int k = 0; k < n; k++) {
            const uint8_t *d = in[k];
            int len = (int) im[k].msg_len;
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
                    QUEUE(slot);
                }
            }
        }
        if (queued) { sendmmsg(s, om, queued, 0); queued = 0; }
        long long now = now_ns();
        if (now >= next_check) {
            next_check = now + 100000000LL;
            for (int slot = 0; slot < window; slot++) {
                if (remaining[slot] > 0 && now - sent_at[slot] > 500000000LL) {
                    lost++;
                    QUEUE(slot);
                }
            }
            if (queued) { sendmmsg(s, om, queued, 0); queued = 0; }
        }
    }
    double secs = (now_ns() - t0) / 1e9;
    printf("RESULT %lld %lld %lld %.6f %lld %lld\n", done, done_names, lost, secs, cpu_ns() - c0, user_ns() - u0);
    return 0;
}
