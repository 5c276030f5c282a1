#!/usr/bin/env bash
# Burst benchmark (issue 16): the shipped launcher (the runtime image's bin/lookout --headless, the
# JVM options a user gets) and unbound side by side in one run, each forwarding to an upstream that
# drops everything, each sent the same burst from one client socket: 4 352 questions for distinct
# names, 200 every 10 ms (about 16 000/s). Per server: how many distinct names reached the
# upstream within 1.5 s (Lookout's in-flight ceiling is 4 096, seed 000 §4.6.5), SERVFAIL answers
# within 1 s (the 256 beyond the ceiling, answered at once), questions answered within 10 s and the
# last answer's time, and the server's CPU time over the burst and its answers.
#
#   bench/burst.sh [ROUNDS]          (default 3; each round runs both servers, order alternating)
#
# LOOKOUT_IMAGE=DIR runs another image (default jlink/target/lookout, built when missing). Needs
# unbound and python3. Uses 127.0.0.1 only, on ports picked free at start. Writes bench/out/burst/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rounds=${1:-3}
image=${LOOKOUT_IMAGE:-$root/jlink/target/lookout}
out=$root/bench/out/burst
rm -rf "$out"; mkdir -p "$out"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
if [ ! -x "$image/bin/lookout" ]; then
    mvn -B -q -pl jlink -am package -DskipTests
fi
freeport() { python3 "$root/scripts/free-port.py"; }
DROP_PORT=$(freeport); LK_PORT=$(freeport); UB_PORT=$(freeport)

cat > "$out/lookout.conf" <<C
resolver => {
  listen => [ 127.0.0.1:$LK_PORT ]
  allow => [ 127.0.0.0/8 ]
  scopes => { up => { default => true, servers => [ 127.0.0.1:$DROP_PORT ] } }
}
pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, beacon_addr_list => [ 127.0.0.1 ],
         auto_beacon_addr_list => false, server => { enable => false, name_server => false } }
state_dir => $out/state
C
"$image/bin/lookout" --headless --config "$out/lookout.conf" > "$out/lookout.log" 2>&1 & pids+=($!)
LK_PID=$!

cat > "$out/unbound.conf" <<C
server:
    interface: 127.0.0.1
    port: $UB_PORT
    num-threads: 1
    do-daemonize: no
    username: ""
    chroot: ""
    directory: "$out"
    pidfile: ""
    use-syslog: no
    logfile: "$out/unbound.log"
    access-control: 127.0.0.0/8 allow
    do-not-query-localhost: no
    module-config: "iterator"
    qname-minimisation: no
    harden-referral-path: no
    so-rcvbuf: 4m
    # unbound answers RFC 6761's test. itself by default (NXDOMAIN): forward it like any name
    local-zone: "test." nodefault
forward-zone:
    name: "."
    forward-addr: 127.0.0.1@$DROP_PORT
remote-control:
    control-enable: no
C
unbound -d -c "$out/unbound.conf" > "$out/unbound.out" 2>&1 & pids+=($!)
UB_PID=$!

for _ in $(seq 1 100); do grep -q "engine running on" "$out/lookout.log" && break; sleep 0.2; done
grep -q "engine running on" "$out/lookout.log" || { echo "Lookout did not start:"; cat "$out/lookout.log"; exit 2; }
sleep 1

cat > "$out/burst.py" <<'PY'
import os, socket, struct, sys, threading, time
server_port, drop_port, pid, tag = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
QUESTIONS, PER_BURST, GAP = 4352, 200, 0.010
def cpu(p):
    f = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
def qname(wire):
    i, labels = 12, []
    while wire[i]:
        n = wire[i]; labels.append(wire[i+1:i+1+n].decode()); i += 1 + n
    return ".".join(labels)
run = "%x" % int(time.time() * 1000)
drop = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
drop.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
drop.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
drop.bind(("127.0.0.1", drop_port)); drop.settimeout(0.2)
seen = {}
stop = False
def upstream():
    while not stop:
        try:
            d, _ = drop.recvfrom(4096)
        except socket.timeout:
            continue
        n = qname(d)
        if f".{tag}{run}." in n:
            seen.setdefault(n, time.monotonic())
t = threading.Thread(target=upstream, daemon=True); t.start()
c = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
c.connect(("127.0.0.1", server_port)); c.settimeout(0.05)
def query(i):
    name = f"n{i}.{tag}{run}.burst.test"
    q = struct.pack(">HHHHHH", i & 0xFFFF, 0x0100, 1, 0, 0, 0)
    for l in name.split("."):
        q += bytes([len(l)]) + l.encode()
    return q + b"\x00" + struct.pack(">HH", 1, 1)
c0 = cpu(pid)
start = time.monotonic()
answers = {}
servfail_times = []
def drain(until):
    while time.monotonic() < until:
        try:
            d = c.recv(4096)
        except socket.timeout:
            continue
        qid = struct.unpack(">H", d[:2])[0]
        if qid not in answers:
            answers[qid] = time.monotonic() - start
            if d[3] & 0x0F == 2:
                servfail_times.append(answers[qid])
sent = 0
while sent < QUESTIONS:
    for _ in range(min(PER_BURST, QUESTIONS - sent)):
        c.send(query(sent)); sent += 1
    drain(start + (sent // PER_BURST) * GAP)
drain(start + 10.0)
stop = True
t.join(1)
c1 = cpu(pid)
up15 = sum(1 for v in seen.values() if v - start <= 1.5)
sf1 = sum(1 for v in servfail_times if v <= 1.0)
last = max(answers.values()) if answers else float("nan")
print(f"{tag:8s} upstream names in 1.5 s {up15:5d} (in all {len(seen):5d})  SERVFAIL in 1 s {sf1:5d}"
      f"  answered {len(answers):5d}/{QUESTIONS} (SERVFAIL {len(servfail_times)})  last answer {last:6.2f} s"
      f"  server CPU {c1 - c0:5.2f} s")
PY

echo "== $(date -u +%FT%TZ) $(nproc) cores; 4 352 distinct names, 200 every 10 ms, one client socket; an upstream that drops everything" | tee "$out/summary.txt"
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) = 1 ]; then order="lookout unbound"; else order="unbound lookout"; fi
    for s in $order; do
        if [ "$s" = lookout ]; then port=$LK_PORT; pid=$LK_PID; else port=$UB_PORT; pid=$UB_PID; fi
        python3 "$out/burst.py" "$port" "$DROP_PORT" "$pid" "$s" | sed "s/^/round $r  /" | tee -a "$out/summary.txt"
        sleep 7 # the other server's transactions to the dropping upstream are over
    done
done
