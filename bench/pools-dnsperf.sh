#!/usr/bin/env bash
# dnsperf on a DYNA name served by gdnsd 3.8 and by Lookout, one after the other, same machine,
# same query file, same load: seed 001's SYNOPSIS stanza, all UP (static monitors), the query
# cdn.example.com A (grouped single) and www6.front.example.com AAAA (ungrouped multi).
#
#   bench/pools-dnsperf.sh [SECONDS] [CLIENTS] [ROUNDS]     (defaults 10 s, 4 clients, 3 rounds)
#
# Both servers run side by side; each round measures gdnsd then Lookout (the order alternating),
# and reports queries/s, latency and the server's CPU time per query (utime+stime of the process,
# all threads, from /proc/PID/stat, over the run ÷ queries completed) and its context switches per
# query (voluntary + involuntary, all threads, /proc/PID/task/*/status). LOOKOUT_JFR=FILE records a
# Flight Recorder profile of Lookout over the whole run; SYSCALLS=1 prints each server's network
# syscalls per query (perf's syscall tracepoints). GDNSD_UDP_THREADS=N sets gdnsd's udp_threads
# (its default: 2 sockets and threads per listen address); Lookout's resolver.udp_threads is the
# same number unless LOOKOUT_UDP_THREADS=N says otherwise. Lookout's UDP listeners are read as
# the engine chooses (natively from 2 sockets up: a recvmmsg reader thread per socket);
# LOOKOUT_UDP=netty runs its Netty listeners instead, LOOKOUT_UDP=native insists on native reads.
# Lookout runs from the runtime image's launcher (jlink/target/lookout/bin/lookout --headless,
# built when missing) with the JVM options a user gets; LOOKOUT_IMAGE=DIR runs another build's
# image (A/B runs: docs/adr/0002-native-datagrams.md), LOOKOUT_CLASSES=1 the benchmark jar.
#
# Needs gdnsd, dnsperf, java 17, maven (builds bench/target/benchmarks.jar when missing).
set -euo pipefail
SECS=${1:-10}
CLIENTS=${2:-4}
ROUNDS=${3:-3}
LOOKOUT_UDP_THREADS=${LOOKOUT_UDP_THREADS:-${GDNSD_UDP_THREADS:-2}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR=${LOOKOUT_JAR:-$ROOT/bench/target/benchmarks.jar} # LOOKOUT_JAR: another build, for A/B runs
GDNSD=${GDNSD:-/usr/sbin/gdnsd}
# the shipped launcher by default (its JVM options are the user's); LOOKOUT_CLASSES=1 runs the
# benchmark jar instead (a quick check while developing, not a figure)
if [ -z "${LOOKOUT_CLASSES:-}" ]; then
  LOOKOUT_IMAGE=${LOOKOUT_IMAGE:-$ROOT/jlink/target/lookout}
  if [ ! -x "$LOOKOUT_IMAGE/bin/lookout" ]; then (cd "$ROOT" && mvn -B -q -pl jlink -am package -DskipTests); fi
else
  LOOKOUT_IMAGE=
fi
if [ -z "${LOOKOUT_IMAGE:-}" ] && { [ ! -f "$JAR" ] || [ -n "${REBUILD:-}" ]; }; then
  (cd "$ROOT" && mvn -B -q -pl bench -am package -DskipTests)
fi
WORK=$(mktemp -d /tmp/lookout-pools-dnsperf.XXXXXX)
PID=""; GPID=""
cleanup() { for p in $PID $GPID; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

SERVICE_TYPES='service_types => {
  web_check => { plugin => static, state => up, ttl => 60 }
  foo => { plugin => static, state => up, ttl => 90 }
  my_cn_check => { plugin => static, state => up, ttl => 120 }
}'
WEIGHTED=$(sed -n '/^  weighted => {/,/^  }$/p' "$ROOT/bench/synopsis-weighted.conf")
printf '%s\n' "cdn.example.com A" "www6.front.example.com AAAA" > "$WORK/queries"

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# context switches of all the process's threads (voluntary: it blocked; involuntary: preempted)
ctxsw() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ {v += $2} /^nonvoluntary_ctxt_switches/ {n += $2} END {print v, n}'; }
uticks() { awk '{print $14}' "/proc/$1/stat"; }
HZ=$(getconf CLK_TCK)
run() { # NAME PORT PID ROUND
  local t0 t1 u0 u1 qps lost lat done cpu ucpu
  t0=$(ticks "$3"); u0=$(uticks "$3"); read -r v0 n0 <<< "$(ctxsw "$3")"
  local spid=""
  if [ -n "${SYSCALLS:-}" ]; then # count the server's network syscalls over the run (perf tracepoints)
    perf stat -x, -e 'syscalls:sys_enter_recvmmsg,syscalls:sys_enter_sendmmsg,syscalls:sys_enter_recvmsg,syscalls:sys_enter_sendmsg,syscalls:sys_enter_recvfrom,syscalls:sys_enter_sendto,syscalls:sys_enter_epoll_pwait,syscalls:sys_enter_epoll_pwait2,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_getsockopt,syscalls:sys_enter_futex' \
      -p "$3" -o "$WORK/$1-$4.syscalls" -- sleep "$SECS" & spid=$!
  fi
  if [ -n "${PERF_RECORD:-}" ]; then # a kernel+user CPU profile of the server over the run
    perf record -q -F 999 -g -e cpu-clock -p "$3" -o "$WORK/$1-$4.perf.data" -- sleep "$SECS" > /dev/null 2>&1 &
  fi
  dnsperf -s 127.0.0.1 -p "$2" -d "$WORK/queries" -l "$SECS" -c "$CLIENTS" -T "$CLIENTS" -q 500 > "$WORK/$1-$4.dnsperf" 2>&1
  t1=$(ticks "$3"); u1=$(uticks "$3"); read -r v1 n1 <<< "$(ctxsw "$3")"
  if [ -n "$spid" ]; then
    wait "$spid" || true
    awk -F, -v n="$(awk '/Queries completed/ {print $3}' "$WORK/$1-$4.dnsperf")" \
      '$1 ~ /^[0-9]+$/ && $1 > 0 { sub("syscalls:sys_enter_", "", $3); printf "  %s %s: %.3f per query\n", name, $3, $1 / n }' name="$1" "$WORK/$1-$4.syscalls"
  fi
  qps=$(awk '/Queries per second/ {print $4}' "$WORK/$1-$4.dnsperf")
  lost=$(awk '/Queries lost/ {print $3, $4}' "$WORK/$1-$4.dnsperf")
  done=$(awk '/Queries completed/ {print $3}' "$WORK/$1-$4.dnsperf")
  lat=$(awk '/Average Latency/ {print $4, $5, $6, $7, $8, $9}' "$WORK/$1-$4.dnsperf")
  cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$HZ" -v n="$done" 'BEGIN { printf "%.2f", (b - a) / hz / n * 1e6 }')
  ucpu=$(awk -v a="$u0" -v b="$u1" -v hz="$HZ" -v n="$done" 'BEGIN { printf "%.2f", (b - a) / hz / n * 1e6 }')
  local sw
  sw=$(awk -v v="$((v1 - v0))" -v n="$((n1 - n0))" -v q="$done" 'BEGIN { printf "%.3f+%.3f", v / q, n / q }')
  printf '%-8s round %s qps %-12s lost %-14s cpu/query %6s us (user %s)  switches/query %s  load %s  latency %s\n' "$1" "$4" "$qps" "$lost" "$cpu" "$ucpu" \
      "$sw" "$(cut -d' ' -f1-3 /proc/loadavg)" "$lat" | tee -a "$WORK/summary"
}

# gdnsd
GP=$(free_port)
mkdir -p "$WORK/gdnsd/zones" "$WORK/gdnsd/run" "$WORK/gdnsd/state"
cp "$ROOT/bench/synopsis-example.com.zone" "$WORK/gdnsd/zones/example.com"
{
  echo "options => { listen => [ 127.0.0.1:$GP ], run_dir => $WORK/gdnsd/run, state_dir => $WORK/gdnsd/state${GDNSD_UDP_THREADS:+, udp_threads => $GDNSD_UDP_THREADS} }"
  echo "$SERVICE_TYPES"
  echo "plugins => {"; echo "  static => { }"; echo "$WEIGHTED"; echo "}"
} > "$WORK/gdnsd/config"
"$GDNSD" -c "$WORK/gdnsd" start > "$WORK/gdnsd/log" 2>&1 & GPID=$!
for _ in $(seq 1 100); do grep -q "DNS listeners started" "$WORK/gdnsd/log" && break; sleep 0.1; done

# Lookout
LP=$(free_port); PVA=$(free_port)
mkdir -p "$WORK/lookout/state"
cp "$ROOT/bench/synopsis-example.com.zone" "$WORK/lookout/example.com"
{
  echo "resolver => { listen => [ 127.0.0.1:$LP ], allow => [ 127.0.0.0/8 ], udp_threads => $LOOKOUT_UDP_THREADS }"
  echo "zones => { example.com => example.com }"
  echo "$SERVICE_TYPES"
  echo "plugins => {"; echo "$WEIGHTED"; echo "}"
  echo "pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, broadcast_port => $PVA, server_port => $PVA,"
  echo "         beacon_addr_list => [ 127.0.0.1 ], auto_beacon_addr_list => false, server => { enable => false } }"
  echo "state_dir => state"
} > "$WORK/lookout/lookout.conf"
JFR_OPT=()
if [ -n "${LOOKOUT_JFR:-}" ]; then JFR_OPT=("-XX:StartFlightRecording=filename=$LOOKOUT_JFR,settings=profile"); fi
 # LOOKOUT_JAVA_OPTS: more JVM options (e.g. -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit with PERF_RECORD=1)
if [ -n "${LOOKOUT_IMAGE:-}" ]; then
  # the launcher execs the JVM: $PID is the server's process, as with the jar
  (cd "$WORK/lookout" && LOOKOUT_OPTS="${JFR_OPT[*]} ${LOOKOUT_JAVA_OPTS:-}" exec "$LOOKOUT_IMAGE/bin/lookout" --headless \
      --config "$WORK/lookout/lookout.conf" --udp-reads "${LOOKOUT_UDP:-auto}") > "$WORK/lookout/log" 2>&1 & PID=$!
  READY='engine running on'
else
  (cd "$WORK/lookout" && exec java -Xmx512m "${JFR_OPT[@]}" -Dlookout.udp="${LOOKOUT_UDP:-auto}" ${LOOKOUT_JAVA_OPTS:-} -cp "$JAR" lookout.bench.ServeConfig "$WORK/lookout/lookout.conf") > "$WORK/lookout/log" 2>&1 & PID=$!
  READY='^ready'
fi
for _ in $(seq 1 150); do grep -q "$READY" "$WORK/lookout/log" && break; sleep 0.2; done
grep -q "$READY" "$WORK/lookout/log" || { echo "Lookout did not start:"; cat "$WORK/lookout/log"; exit 2; }
grep -m1 'resolver UDP on' "$WORK/lookout/log" || true # how its UDP is read
# warm the JIT before measuring: C2 compiles for ~10 s under this load, and compiler threads'
# CPU counts as the server's (a 5-s warm-up left the first rounds at 1.1 us of user time per query)
dnsperf -s 127.0.0.1 -p "$LP" -d "$WORK/queries" -l 15 -c "$CLIENTS" -T "$CLIENTS" -q 500 > /dev/null 2>&1 || true
echo "== $(date -u +%FT%TZ) $(nproc) cores, ${SECS}s per run, $CLIENTS clients, $ROUNDS rounds, gdnsd udp_threads ${GDNSD_UDP_THREADS:-2 (default)}, Lookout udp_threads $LOOKOUT_UDP_THREADS" | tee "$WORK/summary"
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then run gdnsd "$GP" "$GPID" "$r"; run lookout "$LP" "$PID" "$r"
  else run lookout "$LP" "$PID" "$r"; run gdnsd "$GP" "$GPID" "$r"; fi
done
python3 - "$WORK/summary" <<'PY'
import re, statistics, sys
rows = {}
by_round = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+)\s+round (\S+) qps (\S+) .* cpu/query\s+(\S+) us", line)
    if m:
        rows.setdefault(m.group(1), []).append((float(m.group(3)), float(m.group(4))))
        by_round.setdefault(m.group(2), {})[m.group(1)] = float(m.group(3))
med = {k: (statistics.median(q for q, _ in v), statistics.median(c for _, c in v)) for k, v in rows.items()}
for k, (q, c) in med.items():
    print(f"median {k:8s} qps {q:10.0f}  cpu/query {c:6.2f} us  (runs: {', '.join(f'{q:.0f}' for q, _ in rows[k])})")
if "gdnsd" in med and "lookout" in med:
    print(f"Lookout/gdnsd = {med['lookout'][0] / med['gdnsd'][0]:.2f}x qps, CPU per query {med['lookout'][1]:.2f} vs {med['gdnsd'][1]:.2f} us")
    # each round runs both back to back: its ratio cancels the machine's drift between rounds
    paired = [r["lookout"] / r["gdnsd"] for r in by_round.values() if "lookout" in r and "gdnsd" in r]
    if paired:
        print(f"per-round ratios: {', '.join(f'{x:.2f}' for x in paired)}; median {statistics.median(paired):.2f}x")
PY
echo "dnsperf outputs in $WORK"
