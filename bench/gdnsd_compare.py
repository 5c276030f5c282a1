#!/usr/bin/env python3
"""Query two DNS servers many times and compare answer-set distributions, TTLs and response shape.

Used by bench/gdnsd-compare.sh (gdnsd 3.8 vs Lookout). Standard library only.
Exit status 0 when every (name, type) agrees: identical shapes and TTLs, and a chi-squared test of
homogeneity of the answer-set distributions not rejected at alpha = 1e-4.
"""
import math
import random
import socket
import struct
import sys

ALPHA = 1e-4
QTYPES = {"A": 1, "NS": 2, "CNAME": 5, "SOA": 6, "TXT": 16, "AAAA": 28}
TYPENAMES = {v: k for k, v in QTYPES.items()}


def build_query(qid, name, qtype):
    q = struct.pack(">HHHHHH", qid, 0x0000, 1, 0, 0, 0)  # no RD, no EDNS: the plainest client
    for label in name.rstrip(".").split("."):
        q += bytes([len(label)]) + label.encode()
    return q + b"\x00" + struct.pack(">HH", qtype, 1)


def read_name(msg, off):
    labels, jumped, end = [], False, off
    for _ in range(128):
        n = msg[off]
        if n == 0:
            off += 1
            break
        if n & 0xC0 == 0xC0:
            ptr = ((n & 0x3F) << 8) | msg[off + 1]
            if not jumped:
                end = off + 2
            jumped, off = True, ptr
            continue
        labels.append(msg[off + 1:off + 1 + n].decode("ascii", "replace").lower())
        off += 1 + n
    return ".".join(labels) + ".", (end if jumped else off)


def parse(msg):
    qid, flags, qd, an, ns, ar = struct.unpack(">HHHHHH", msg[:12])
    off = 12
    for _ in range(qd):
        _, off = read_name(msg, off)
        off += 4
    sections = []
    for count in (an, ns, ar):
        rrs = []
        for _ in range(count):
            name, off = read_name(msg, off)
            rtype, rclass, ttl, rdlen = struct.unpack(">HHIH", msg[off:off + 10])
            off += 10
            rdata = msg[off:off + rdlen]
            if rtype == 1:
                value = socket.inet_ntop(socket.AF_INET, rdata)
            elif rtype == 28:
                value = socket.inet_ntop(socket.AF_INET6, rdata)
            elif rtype == 5:
                value = read_name(msg, off)[0]
            else:
                value = ""
            off += rdlen
            rrs.append((name, rtype, ttl, value))
        sections.append(rrs)
    rcode = flags & 0xF
    aa = bool(flags & 0x0400)
    return qid, rcode, aa, sections


def ask(sock, server, name, qtype, tries=3):
    for _ in range(tries):
        qid = random.randrange(65536)
        sock.sendto(build_query(qid, name, qtype), server)
        try:
            while True:
                data, _ = sock.recvfrom(4096)
                r = parse(data)
                if r[0] == qid:
                    return r
        except socket.timeout:
            continue
    raise RuntimeError(f"no answer from {server} for {name}/{qtype}")


def gamma_q(a, x):
    if x <= 0:
        return 1.0
    if x < a + 1:
        s = term = 1.0 / a
        n = 1
        while n < 10000:
            term *= x / (a + n)
            s += term
            if abs(term) < abs(s) * 1e-15:
                break
            n += 1
        return 1.0 - s * math.exp(-x + a * math.log(x) - math.lgamma(a))
    b, c, d = x + 1 - a, 1e300, 1.0 / (x + 1 - a)
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def homogeneity(c1, c2):
    """Chi-squared test that two samples come from one distribution; rare categories pooled."""
    n1, n2 = sum(c1.values()), sum(c2.values())
    keys = set(c1) | set(c2)
    bins, pooled = [], [0, 0]
    for k in keys:
        a, b = c1.get(k, 0), c2.get(k, 0)
        if (a + b) * min(n1, n2) / (n1 + n2) < 5:
            pooled[0] += a
            pooled[1] += b
        else:
            bins.append((a, b))
    if sum(pooled):
        bins.append(tuple(pooled))
    if len(bins) < 2:
        return 0.0, 0, 1.0
    stat = 0.0
    for a, b in bins:
        t = a + b
        e1, e2 = t * n1 / (n1 + n2), t * n2 / (n1 + n2)
        stat += (a - e1) ** 2 / e1 + (b - e2) ** 2 / e2
    df = len(bins) - 1
    return stat, df, gamma_q(df / 2.0, stat / 2.0)


def survey(server, name, qtype, n):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.settimeout(1.0)
    sets, ttls, shapes = {}, set(), set()
    for _ in range(n):
        _, rcode, aa, (an, ns, ar) = ask(sock, server, name, qtype)
        key = tuple(sorted(v for (_, t, _, v) in an))
        sets[key] = sets.get(key, 0) + 1
        ttls.update(ttl for (_, _, ttl, _) in an)
        shapes.add((rcode, aa, tuple(sorted(TYPENAMES.get(t, str(t)) for (_, t, _, _) in an)),
                    tuple(sorted(TYPENAMES.get(t, str(t)) for (_, t, _, _) in ns)), len(ar)))
    sock.close()
    return sets, ttls, shapes


def main():
    if len(sys.argv) < 5:
        print("usage: gdnsd_compare.py LABEL GDNSD_PORT LOOKOUT_PORT N NAME/TYPE...", file=sys.stderr)
        return 2
    label, p1, p2, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    ok = True
    for spec in sys.argv[5:]:
        name, t = spec.split("/")
        g = survey(("127.0.0.1", p1), name, QTYPES[t], n)
        l = survey(("127.0.0.1", p2), name, QTYPES[t], n)
        stat, df, p = homogeneity(g[0], l[0])
        same_shape = g[2] == l[2]
        same_ttl = g[1] == l[1]
        agree = same_shape and same_ttl and p > ALPHA
        ok &= agree
        print(f"[{label}] {name} {t}: {'AGREE' if agree else 'DIFFER'}  chi2={stat:.2f} df={df} p={p:.4g}"
              f"  ttl gdnsd={sorted(g[1])} lookout={sorted(l[1])}  shape {'same' if same_shape else 'DIFFERENT'}")
        if not same_shape:
            print(f"    gdnsd shapes:   {sorted(g[2])}\n    lookout shapes: {sorted(l[2])}")
        for key in sorted(set(g[0]) | set(l[0]), key=lambda k: -(g[0].get(k, 0) + l[0].get(k, 0))):
            print(f"    {','.join(key) or '(empty)':60s} gdnsd {g[0].get(key, 0) / n:7.4f}  lookout {l[0].get(key, 0) / n:7.4f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
