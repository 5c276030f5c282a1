#!/usr/bin/env bash
# Soak: the shipped launcher (the runtime image's bin/lookout --headless, with the JVM options a
# user gets) forwarding uncached questions at a steady rate to a fast loopback upstream (NSD, a
# wildcard zone so every name exists), with a 100 000-entry cache. Every 30 s it records the
# engine's resident memory (VmRSS) and its counters, its CPU time over the load; the GC log (added with -Xlog, which changes
# no collector setting) gives every pause, summed up at the end as p50/p99/max.
#
#   bench/soak.sh [SECONDS] [RATE] [CACHE_SIZE]        (defaults 600 s, 8000 q/s, 100000)
#
# Acceptance (issue 16): RSS at most 256 MB after 10 minutes and flat over the last 5 (the
# summary prints the last five minutes' range), GC pause p99 at most 10 ms, nothing lost.
# LOOKOUT_IMAGE=DIR runs another image (default jlink/target/lookout, built when missing);
# LOOKOUT_OPTS adds JVM options after the launcher's own (they win), as it does for users.
# Needs dnsperf and nsd. Uses 127.0.0.1 only, on ports picked free at start. Writes
# bench/out/soak/: rss.tsv, gc.log, dnsperf.txt, summary.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
secs=${1:-600}
rate=${2:-8000}
cache=${3:-100000}
image=${LOOKOUT_IMAGE:-$root/jlink/target/lookout}
out=$root/bench/out/soak
rm -rf "$out"; mkdir -p "$out"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

if [ ! -x "$image/bin/lookout" ]; then
    (cd "$root" && mvn -B -q -pl jlink -am package -DskipTests)
fi
freeport() { python3 "$root/scripts/free-port.py"; }
NSD_PORT=$(freeport); LK_PORT=$(freeport)
while [ "$LK_PORT" = "$NSD_PORT" ]; do LK_PORT=$(freeport); done

# ---------------------------------------------------------------- upstream: NSD
cat > "$out/soak.test.zone" <<Z
\$TTL 3600
@ SOA ns.soak.test. host.soak.test. 1 3600 600 86400 3600
@ NS ns.soak.test.
ns A 127.0.0.1
* A 192.0.2.1
Z
cat > "$out/nsd.conf" <<C
server:
    ip-address: 127.0.0.1@$NSD_PORT
    port: $NSD_PORT
    server-count: 1
    username: ""
    chroot: ""
    database: ""
    zonelistfile: "$out/nsd.zonelist"
    xfrdfile: "$out/nsd.xfrd"
    pidfile: "$out/nsd.pid"
    zonesdir: "$out"
    verbosity: 0
    rrl-ratelimit: 0
    rrl-whitelist-ratelimit: 0
remote-control:
    control-enable: no
zone:
    name: soak.test
    zonefile: soak.test.zone
C
nsd -d -c "$out/nsd.conf" > "$out/nsd.log" 2>&1 & pids+=($!)

# ---------------------------------------------------------------- Lookout, as a user runs it
cat > "$out/lookout.conf" <<C
resolver => {
  listen => [ 127.0.0.1:$LK_PORT ]
  allow => [ 127.0.0.0/8 ]
  scopes => { up => { default => true, servers => [ 127.0.0.1:$NSD_PORT ] } }
  cache_size => $cache
}
pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, beacon_addr_list => [ 127.0.0.1 ],
         auto_beacon_addr_list => false, server => { enable => false, name_server => false } }
state_dir => $out/state
C
# the launcher execs the JVM: $LK_PID is the engine's process
LOOKOUT_OPTS="-Xlog:gc:file=$out/gc.log:uptime ${LOOKOUT_OPTS:-}" "$image/bin/lookout" --headless \
    --config "$out/lookout.conf" > "$out/lookout.log" 2>&1 & pids+=($!)
LK_PID=$!
for _ in $(seq 1 120); do
    dig @127.0.0.1 -p "$LK_PORT" +tries=1 +time=1 +short ready.soak.test A 2>/dev/null | grep -q 192.0.2.1 && break
    sleep 0.5
done
dig @127.0.0.1 -p "$LK_PORT" +tries=1 +time=2 +short ready.soak.test A | grep -q 192.0.2.1 \
    || { echo "Lookout did not answer:" >&2; cat "$out/lookout.log" >&2; exit 1; }
grep -m1 -o 'Xmx[0-9]*m' /proc/"$LK_PID"/cmdline > /dev/null 2>&1 || true
tr '\0' ' ' < /proc/"$LK_PID"/cmdline > "$out/cmdline.txt"

# ---------------------------------------------------------------- the load
# a million names, asked in turn: each comes back after about two minutes at 8 000 q/s, long
# after a 100 000-entry cache has let it go — every question is a cache miss
python3 - "$out/names.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(1_000_000):
        f.write(f"s{i}.soak.test A\n")
PY
rss() { awk '/^VmRSS/ {print $2}' /proc/"$LK_PID"/status; }
# the engine's user and system CPU, in clock ticks (fields 14 and 15 of /proc/PID/stat)
cpu() { sed 's/.*) //' /proc/"$LK_PID"/stat | awk '{print $12, $13}'; }
printf 'seconds\trss_kb\n' > "$out/rss.tsv"
printf '0\t%s\n' "$(rss)" >> "$out/rss.tsv"
cpu > "$out/cpu-start.txt"
dnsperf -s 127.0.0.1 -p "$LK_PORT" -d "$out/names.txt" -l "$secs" -Q "$rate" -c 8 -q 500 -t 5 \
    > "$out/dnsperf.txt" 2>&1 & DP=$!
start=$(date +%s)
while kill -0 "$DP" 2>/dev/null; do
    sleep 30
    t=$(( $(date +%s) - start ))
    kill -0 "$LK_PID" 2>/dev/null || { echo "Lookout died" >&2; cat "$out/lookout.log" >&2; exit 1; }
    printf '%s\t%s\n' "$t" "$(rss)" | tee -a "$out/rss.tsv"
done
wait "$DP" || true
cpu > "$out/cpu-end.txt"
getconf CLK_TCK > "$out/clk-tck.txt"

python3 - "$out" "$secs" <<'PY' | tee "$out/summary.txt"
import re, sys, statistics
out, secs = sys.argv[1], int(sys.argv[2])
rows = [l.split("\t") for l in open(f"{out}/rss.tsv").read().split("\n")[1:] if l.strip()]
rss = [(int(t), int(kb) / 1024) for t, kb in rows]
dp = open(f"{out}/dnsperf.txt").read()
def grab(pattern):
    m = re.search(pattern, dp)
    return m.group(1) if m else "?"
pauses = []
for line in open(f"{out}/gc.log"):
    m = re.search(r"Pause.* ([\d.]+)ms$", line.strip())
    if m:
        pauses.append(float(m.group(1)))
pauses.sort()
def pct(p):
    return pauses[min(len(pauses) - 1, int(round(p * len(pauses) + 0.5)) - 1)] if pauses else float("nan")
late = [m for t, m in rss if t >= secs - 300]
qps = grab(r'Queries per second:\s+([\d.]+)')
sent = grab(r'Queries sent:\s+(\d+)')
done = grab(r'Queries completed:\s+(\d+ \([\d.]+%\))')
lost = grab(r'Queries lost:\s+(\d+ \([\d.]+%\))')
print(f"soak: {secs} s at {qps} q/s (asked {sent}, completed {done}, lost {lost})")
print(f"RSS: start {rss[0][1]:.0f} MB, end {rss[-1][1]:.0f} MB, max {max(m for _, m in rss):.0f} MB; "
      f"last 5 minutes {min(late) if late else float('nan'):.0f}-{max(late) if late else float('nan'):.0f} MB")
u0, s0 = map(int, open(f"{out}/cpu-start.txt").read().split())
u1, s1 = map(int, open(f"{out}/cpu-end.txt").read().split())
tck = int(open(f"{out}/clk-tck.txt").read())
n = int(sent) if sent.isdigit() else 0
if n:
    print(f"CPU: {((u1 - u0) + (s1 - s0)) / tck / n * 1e6:.2f} us per query (user {(u1 - u0) / tck / n * 1e6:.2f})")
print(f"GC: {len(pauses)} pauses, p50 {pct(0.50):.2f} ms, p99 {pct(0.99):.2f} ms, max {pauses[-1] if pauses else float('nan'):.2f} ms")
print("JVM: " + open(f"{out}/cmdline.txt").read().strip())
PY
