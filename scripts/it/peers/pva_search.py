#!/usr/bin/env python3
"""One PVA search for one PV name, as a client sends it, and what came back.

  pva_search.py udp HOST PORT NAME    a UDP search (MustReply, Unicast) from an ephemeral port
  pva_search.py tcp HOST PORT NAME    a search over a TCP name-server connection (handshake first)

Prints one line per SEARCH_RESPONSE: 'found=1 guid=... endpoint=HOST:PORT' (found=0 for a negative
answer), or 'none' when nothing came within 3 s. Exit status 0 either way; 2 on a connection error."""
import socket
import struct
import sys
import time

CMD_VALIDATION, CMD_SEARCH, CMD_SEARCH_RESPONSE = 0x01, 0x03, 0x04


def search_body(name, reply_port, flags):
    nb = name.encode()
    return (struct.pack(">IB3x16sH", 0x66696E64, flags, bytes(16), reply_port)
            + bytes([1, 3]) + b"tcp" + struct.pack(">HI", 1, 7) + bytes([len(nb)]) + nb)


def message(cmd, body, flags=0x80):
    return struct.pack(">BBBBI", 0xCA, 2, flags, cmd, len(body)) + body


def response(payload, big, source_host, source_port):
    bo = ">" if big else "<"
    guid = payload[0:12].hex()
    raw = payload[16:32]
    host = socket.inet_ntop(socket.AF_INET6, raw)
    if raw[:12] == bytes(10) + b"\xff\xff":
        host = socket.inet_ntop(socket.AF_INET, raw[12:])
    if host in ("0.0.0.0", "::"):
        host = source_host
    port = struct.unpack(bo + "H", payload[32:34])[0]
    n = payload[34]
    found = payload[35 + n]
    return "found=%d guid=%s endpoint=%s:%d" % (found, guid, host, port or source_port)


def udp(host, port, name):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    s.sendto(message(CMD_SEARCH, search_body(name, s.getsockname()[1], 0x81)), (host, port))
    out, end = [], time.monotonic() + 3
    while time.monotonic() < end:
        s.settimeout(max(0.01, end - time.monotonic()))
        try:
            d, src = s.recvfrom(65536)
        except socket.timeout:
            break
        if len(d) >= 8 and d[0] == 0xCA and d[3] == CMD_SEARCH_RESPONSE:
            out.append(response(d[8:], d[2] & 0x80, src[0], 0))
            break  # the one reply a single name gets from one responder
    return out


def read_message(s, buf):
    while True:
        if len(buf) >= 8:
            big = buf[2] & 0x80
            size = struct.unpack(">I" if big else "<I", buf[4:8])[0]
            if len(buf) >= 8 + size:
                m = bytes(buf[:8 + size])
                del buf[:8 + size]
                return m
        chunk = s.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        buf.extend(chunk)


def tcp(host, port, name):
    s = socket.create_connection((host, port), timeout=3)
    buf = bytearray()
    out = []
    try:
        validation = struct.pack(">IHH", 0x10000, 0x7FFF, 0) + bytes([9]) + b"anonymous" + b"\xff"
        end = time.monotonic() + 3
        validated = sent = False
        while time.monotonic() < end:
            m = read_message(s, buf)
            if m[2] & 0x01:
                continue  # control messages (byte order)
            if m[3] == CMD_VALIDATION and not validated:
                s.sendall(message(CMD_VALIDATION, validation))
                validated = True
            elif m[3] == 0x09 and not sent:  # CONNECTION_VALIDATED
                s.sendall(message(CMD_SEARCH, search_body(name, 0, 0x81)))
                sent = True
            elif m[3] == CMD_SEARCH_RESPONSE:
                out.append(response(m[8:], m[2] & 0x80, host, port))
                break
    except socket.timeout:
        pass
    finally:
        s.close()
    return out


def main():
    mode, host, port, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    try:
        lines = udp(host, port, name) if mode == "udp" else tcp(host, port, name)
    except OSError as e:
        print("error %s" % e)
        sys.exit(2)
    print("\n".join(lines) if lines else "none")


main()
