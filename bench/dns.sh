#!/usr/bin/env bash
# DNS forwarding benchmark: dnsperf against Lookout, unbound and dnsmasq, each forwarding to the
# same fast loopback upstream (NSD, rate limiting off, a wildcard zone so every name exists).
# One run measures, per server: cached qps and latency (a small set of names asked over and over
# after a warm-up), uncached qps and latency (every name asked once), and the server's CPU time
# per query (process utime+stime over the run ÷ queries completed).
#
#   bench/dns.sh [SECONDS_PER_RUN] [ROUNDS]     (defaults 10 and 3)
#
# The machine is shared, so each round runs every server once per mode, the order rotating from
# round to round, and the summary gives each server's median over the rounds.
#
# Lookout's UDP listener is read as the engine chooses (one socket: on the engine loop, through
# Netty); LOOKOUT_UDP=netty|native|auto and LOOKOUT_UDP_THREADS=N (resolver.udp_threads, default 1)
# choose otherwise. Lookout runs from the runtime image's launcher (jlink/target/lookout/bin/lookout
# --headless, built when missing) with the JVM options a user gets and the default cache size;
# LOOKOUT_IMAGE=DIR runs another build's image (A/B runs: docs/adr/0002-native-datagrams.md),
# LOOKOUT_JVM adds JVM options after the launcher's, LOOKOUT_CLASSES=1 runs the engine's classes.
#
# Needs: dnsperf nsd unbound dnsmasq (Debian packages), Java 17, Maven. Uses 127.0.0.1 only, on
# ports picked free at start. Writes raw output to bench/out/dns/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
secs=${1:-10}
rounds=${2:-3}
out=$root/bench/out/dns
rm -rf "$out"; mkdir -p "$out"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

freeport() { python3 - <<'PY'
import socket
while True:
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 0)); p = u.getsockname()[1]
    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        t.bind(("127.0.0.1", p)); print(p); break
    except OSError:
        pass
    finally:
        u.close(); t.close()
PY
}
NSD_PORT=$(freeport); LK_PORT=$(freeport); UB_PORT=$(freeport); DM_PORT=$(freeport)
echo "ports: nsd $NSD_PORT lookout $LK_PORT unbound $UB_PORT dnsmasq $DM_PORT"

# ---------------------------------------------------------------- upstream: NSD
cat > "$out/bench.test.zone" <<Z
\$TTL 3600
@ SOA ns.bench.test. host.bench.test. 1 3600 600 86400 3600
@ NS ns.bench.test.
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
    name: bench.test
    zonefile: bench.test.zone
C
nsd -d -c "$out/nsd.conf" > "$out/nsd.log" 2>&1 & pids+=($!)

# ---------------------------------------------------------------- Lookout
# the shipped launcher by default (its JVM options are the user's); LOOKOUT_CLASSES=1 runs the
# engine's classes instead (a quick check while developing, not a figure)
if [ -z "${LOOKOUT_CLASSES:-}" ]; then
    LOOKOUT_IMAGE=${LOOKOUT_IMAGE:-$root/jlink/target/lookout}
    if [ ! -x "$LOOKOUT_IMAGE/bin/lookout" ]; then
        mvn -B -q -pl jlink -am package -DskipTests
    fi
else
    LOOKOUT_IMAGE=
fi
if [ -z "${LOOKOUT_IMAGE:-}" ]; then
    # process-classes: the classes and the native library built into them
    mvn -B -q -pl engine -am process-classes -DskipTests
    mvn -B -q -pl engine dependency:build-classpath -Dmdep.outputFile="$out/cp.txt" > /dev/null
fi
cat > "$out/lookout.conf" <<C
resolver => {
  listen => [ 127.0.0.1:$LK_PORT ]
  udp_threads => ${LOOKOUT_UDP_THREADS:-1}
  allow => [ 127.0.0.0/8 ]
  scopes => { up => { default => true, servers => [ 127.0.0.1:$NSD_PORT ] } }
}
pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, beacon_addr_list => [ 127.0.0.1 ],
         auto_beacon_addr_list => false, server => { enable => false, name_server => false } }
state_dir => $out/state
C
# The launcher's own JVM options, as a user gets them; LOOKOUT_JVM adds options after them (they
# win). The GC log (unified logging, no collector setting changed) shows pauses behind outliers.
LK_JVM="${LOOKOUT_JVM:-} -Xlog:gc:file=$out/lookout-gc.log"
if [ -n "${LOOKOUT_IMAGE:-}" ]; then
    # the launcher execs the JVM: LK_PID is the server's process, for its CPU time
    LOOKOUT_OPTS="$LK_JVM" "$LOOKOUT_IMAGE/bin/lookout" --headless --config "$out/lookout.conf" \
        --udp-reads "${LOOKOUT_UDP:-auto}" > "$out/lookout.log" 2>&1 & pids+=($!)
else
    # shellcheck disable=SC2086
    java $LK_JVM -Dlookout.udp="${LOOKOUT_UDP:-auto}" -cp "engine/target/classes:$(cat "$out/cp.txt")" \
        bench/dns/RunEngine.java "$out/lookout.conf" > "$out/lookout.log" 2>&1 & pids+=($!)
fi
LK_PID=$!

# ---------------------------------------------------------------- unbound (one thread, like Lookout's one loop)
cat > "$out/unbound.conf" <<C
server:
    interface: 127.0.0.1@$UB_PORT
    port: $UB_PORT
    num-threads: 1
    do-ip6: no
    access-control: 127.0.0.0/8 allow
    do-not-query-localhost: no
    username: ""
    chroot: ""
    directory: "$out"
    pidfile: "$out/unbound.pid"
    use-syslog: no
    logfile: ""
    verbosity: 0
    module-config: "iterator"
    msg-cache-size: 256m
    rrset-cache-size: 256m
    outgoing-range: 4096
    num-queries-per-thread: 4096
    so-reuseport: no
    qname-minimisation: no
    prefetch: no
    minimal-responses: yes
    local-zone: "test." nodefault
remote-control:
    control-enable: no
forward-zone:
    name: "."
    forward-addr: 127.0.0.1@$NSD_PORT
C
unbound -d -c "$out/unbound.conf" > "$out/unbound.log" 2>&1 & pids+=($!)
UB_PID=$!

# ---------------------------------------------------------------- dnsmasq (single-threaded by design)
# Once its cache holds about a million names (the second uncached run) dnsmasq slows down and then
# spins a whole core for minutes, which slowed every run after it; with cache-size 10000 it pays
# ~130 µs per uncached query evicting. So it keeps the big cache and is restarted, empty, before
# each of its uncached runs (start_dnsmasq); its cached runs come first in each round.
start_dnsmasq() {
    if [ -n "${DM_PID:-}" ]; then
        kill "$DM_PID" 2>/dev/null || true
        wait "$DM_PID" 2>/dev/null || true
        local keep=() p
        for p in "${pids[@]}"; do [ "$p" = "$DM_PID" ] || keep+=("$p"); done
        pids=("${keep[@]}")
    fi
    dnsmasq --no-daemon --conf-file=/dev/null --port="$DM_PORT" --listen-address=127.0.0.1 --bind-interfaces \
        --no-resolv --no-hosts --server="127.0.0.1#$NSD_PORT" --cache-size=1000000 --dns-forward-max=4096 \
        --user=root --pid-file="$out/dnsmasq.pid" > "$out/dnsmasq.log" 2>&1 &
    DM_PID=$!
    pids+=("$DM_PID")
}
DM_PID=
start_dnsmasq

# wait for all four to answer
wait_answers() {
    local p i
    for p in "$@"; do
        for i in $(seq 1 120); do
            if dig @127.0.0.1 -p "$p" +tries=1 +time=1 +short ready.bench.test A 2>/dev/null | grep -q 192.0.2.1; then break; fi
            sleep 0.5
            if [ "$i" = 120 ]; then echo "server on port $p did not come up" >&2; cat "$out"/*.log >&2; exit 1; fi
        done
    done
}
wait_answers $NSD_PORT $LK_PORT $UB_PORT $DM_PORT

# ---------------------------------------------------------------- query files
ROUNDS=$rounds python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
with open(out + "/cached.txt", "w") as f:
    for i in range(1000):
        f.write(f"c{i}.bench.test A\n")
import os
rounds = int(os.environ.get("ROUNDS", "3"))
names = ["warm"] + [f"{s}{r}" for s in ("lookout", "unbound", "dnsmasq") for r in range(rounds)]
for name in names:
    with open(f"{out}/uncached-{name}.txt", "w") as f:
        for i in range(600000):
            f.write(f"u{i}.{name}.bench.test A\n")
PY

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

# Waits (at most 30 s) until the servers and NSD together use under 10 % of a core over half a
# second: a run must not start while the previous server is still draining its backlog.
settle() {
    local all=("${pids[@]}") t0 t1 p
    for _ in $(seq 1 60); do
        t0=0; for p in "${all[@]}"; do t0=$(( t0 + $(cpu_ticks "$p" 2>/dev/null || echo 0) )); done
        sleep 0.5
        t1=0; for p in "${all[@]}"; do t1=$(( t1 + $(cpu_ticks "$p" 2>/dev/null || echo 0) )); done
        (( (t1 - t0) * 1000 / hz < 50 )) && return 0
    done
    echo "settle: servers still busy after 30 s; measuring anyway" >&2
}

# run NAME PORT PID MODE FILE EXTRA...
run() {
    local name=$1 port=$2 pid=$3 mode=$4 file=$5; shift 5
    settle
    local before after
    before=$(cpu_ticks "$pid")
    dnsperf -s 127.0.0.1 -p "$port" -d "$file" -l "$secs" -c 8 -q 200 -t 5 "$@" > "$out/$name-$mode.txt" 2>&1 || true
    after=$(cpu_ticks "$pid")
    local q qps avg sd lost
    q=$(awk '/Queries completed:/ {print $3}' "$out/$name-$mode.txt")
    lost=$(awk '/Queries lost:/ {print $3}' "$out/$name-$mode.txt")
    qps=$(awk '/Queries per second:/ {print $4}' "$out/$name-$mode.txt")
    avg=$(awk '/Average Latency/ {print $4}' "$out/$name-$mode.txt")
    sd=$(awk '/Latency StdDev/ {print $4}' "$out/$name-$mode.txt")
    local cpu_us
    cpu_us=$(python3 -c "print(f'{($after-$before)/$hz/max(1,${q:-0})*1e6:.2f}')")
    printf "%-8s %-9s qps %10s  avg latency %8s ms  stddev %8s ms  completed %8s lost %6s  cpu/query %6s µs\n" \
        "$name" "$mode" "$qps" "$(python3 -c "print(f'{${avg:-0}*1000:.3f}')")" "$(python3 -c "print(f'{${sd:-0}*1000:.3f}')")" "$q" "$lost" "$cpu_us" \
        | tee -a "$out/summary.txt"
}

# warm-up: JIT for Lookout, caches for the cached run (every server)
for s in "lookout $LK_PORT" "unbound $UB_PORT" "dnsmasq $DM_PORT"; do
    set -- $s
    dnsperf -s 127.0.0.1 -p "$2" -d "$out/cached.txt" -l 5 -c 8 -q 200 > /dev/null 2>&1 || true
    dnsperf -s 127.0.0.1 -p "$2" -d "$out/uncached-warm.txt" -l 5 -c 8 -q 200 > /dev/null 2>&1 || true
done

echo "== $(date -u +%FT%TZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), ${secs}s per run, $rounds rounds, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/summary.txt"
servers=("lookout $LK_PORT $LK_PID" "unbound $UB_PORT $UB_PID" "dnsmasq $DM_PORT $DM_PID")
for r in $(seq 0 $((rounds - 1))); do
    for mode in cached uncached; do
        for k in 0 1 2; do
            set -- ${servers[$(( (k + r) % 3 ))]}
            if [ "$1" = dnsmasq ] && [ "$mode" = uncached ]; then
                start_dnsmasq
                wait_answers "$DM_PORT"
            fi
            [ "$1" = dnsmasq ] && set -- dnsmasq "$DM_PORT" "$DM_PID" # restarted: its current process
            if [ "$mode" = cached ]; then
                run "$1" "$2" "$3" cached "$out/cached.txt"
            else
                run "$1" "$2" "$3" uncached "$out/uncached-$1$r.txt" -n 1
            fi
        done
    done
done

python3 - "$out/summary.txt" <<'PY'
import sys, re, statistics
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+)\s+(\w+)\s+qps\s+([\d.]+)\s+avg latency\s+([\d.]+) ms.*cpu/query\s+([\d.]+)", line)
    if m:
        rows.setdefault((m.group(1), m.group(2)), []).append((float(m.group(3)), float(m.group(4)), float(m.group(5))))
print("median over rounds:")
med = {}
for (srv, mode), v in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    q = statistics.median(x[0] for x in v); l = statistics.median(x[1] for x in v); c = statistics.median(x[2] for x in v)
    med[(srv, mode)] = q
    print(f"  {srv:8s} {mode:9s} qps {q:10.0f}  avg latency {l:7.3f} ms  cpu/query {c:6.2f} µs  (runs: {', '.join(f'{x[0]:.0f}' for x in v)})")
for mode in ("cached", "uncached"):
    lk, ub, dm = med.get(("lookout", mode)), med.get(("unbound", mode)), med.get(("dnsmasq", mode))
    if lk and ub:
        print(f"{mode}: Lookout/unbound = {lk/ub:.2f}x" + (f", Lookout/dnsmasq = {lk/dm:.2f}x" if dm else ""))
PY
