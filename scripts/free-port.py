#!/usr/bin/env python3
"""Prints N loopback ports that are free for both TCP and UDP right now (default 1).

Each port is held (TCP and UDP) until all are chosen, so the N are distinct."""
import socket
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1
held, ports = [], []
while len(ports) < n:
    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    t.bind(("127.0.0.1", 0))
    port = t.getsockname()[1]
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        u.bind(("127.0.0.1", port))
    except OSError:
        t.close()
        u.close()
        continue
    held += [t, u]
    ports.append(port)
print(" ".join(map(str, ports)))
for s in held:
    s.close()
