#!/usr/bin/env bash
# PVA name server, black-box (issue 18): the shipped launcher (jlink/target/lookout/bin/lookout
# --headless) whose name-server source claims 100 000 names it resolved from a real core-pva 4.7.3
# server, beside a core-pva PVAServer hosting the same names, in one run, inside a private network
# namespace (unicast forwarding joins 224.0.0.128 on loopback; nothing leaves the namespace).
#
#   bench/pva-neighbour-bench.sh [SECONDS] [WINDOW] [SOCKETS]      (defaults 10 s, 64, 4)
#
# For 1, 4 and 30 names per search, each search with the Unicast flag (as a client addressing a
# host sets it), alone on the port and then with a second PVA server sharing it (a socket bound to
# the port and joined to the forwarding group, as PVXS and core-pva listen; Lookout then forwards
# every unicast search to it):
#   - closed loop (WINDOW searches outstanding, SOCKETS client sockets): names/s sustained, and
#     the server's CPU per answered search (utime+stime of the process, all threads);
#   - at one name per search, an open loop at the highest rate core-pva sustained in its closed
#     loop, with up to PVA_BENCH_OPEN_WINDOW (4 096) outstanding: the share of the searches offered
#     that each answered (one skipped for the window counts as unanswered), and CPU per answered search
#     (PVA_BENCH_OPEN_AT: another share of that rate, in percent).
# At one name per search, in the same run, the floor (bench/pva-floor.c: a C responder that only
# reads searches in recvmmsg batches and answers every CID in one sendmmsg) under the same load,
# and with a second server on its port the floor that also forwards each search to the group;
# these three are measured PVA_BENCH_ROUNDS times in turn (default 3) and the medians reported;
# at the end issue 24's table: Lookout's, core-pva's and the floor's CPU per answered search, the
# two ratios and the open loop's answered share, alone and shared.
# Then the resolver's cached latency (dnsperf, per-query latencies: p50, p99) quiet and beside a
# saturating search flood on the PVA port.
#
# To iterate on one figure: PVA_BENCH_PER="1" PVA_BENCH_SHARES="alone" PVA_BENCH_LATENCY=0 (and
# PVA_BENCH_NAMES=20000 for a quicker start). PVA_BENCH_WARMUP: seconds of load on each server
# before each measurement (default 2). PVA_BENCH_STRACE=1 adds system calls per search
# (strace -c on Lookout, core-pva and the floor: counts, not timing); PVA_BENCH_PERF=1 a perf
# profile of Lookout under each load (with LOOKOUT_JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions
# -XX:+DumpPerfMapAtExit" for the JIT's names); LOOKOUT_ARGS passes launcher options
# ("--udp-reads netty"), LOOKOUT_SERVER_EXTRA keys of pva.server ("udp_threads => 1").
#
# Run it alone on the machine: other load makes the figures noise. Needs: the runtime image
# (mvn -o -q -pl jlink -am package -DskipTests), java 17, maven, cc, python3, dnsperf, dnsmasq,
# unshare (root or user namespaces). Output: bench/out/pva-neighbour/summary.txt (and the run's
# work directory, printed at the end). SMOKE=1 runs each measurement for 2 s, 1 500 names.
set -euo pipefail
SECS=${1:-10}
WINDOW=${2:-64}
SOCKETS=${3:-4}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
IMAGE=${LOOKOUT_IMAGE:-$ROOT/jlink/target/lookout}
NAMES=${PVA_BENCH_NAMES:-100000}
if [ -n "${SMOKE:-}" ]; then SECS=2; NAMES=1500; fi

if [ -z "${PVA_BENCH_NETNS:-}" ]; then
  [ -x "$IMAGE/bin/lookout" ] || { echo "no runtime image at $IMAGE: mvn -o -q -pl jlink -am package -DskipTests" >&2; exit 2; }
  (cd "$ROOT" && mvn -B -q -o -pl engine test-compile -DskipTests \
     && mvn -B -q -o -pl engine dependency:build-classpath -Dmdep.outputFile=target/pva-bench.cp -Dmdep.includeScope=test >/dev/null)
  mkdir -p "$ROOT/bench/target"
  cc -O2 -Wall -o "$ROOT/bench/target/pva-load" "$ROOT/bench/pva-load.c"
  cc -O2 -Wall -o "$ROOT/bench/target/pva-floor" "$ROOT/bench/pva-floor.c"
  exec unshare -n env PVA_BENCH_NETNS=1 SMOKE="${SMOKE:-}" LOOKOUT_IMAGE="$IMAGE" PVA_BENCH_PER="${PVA_BENCH_PER:-}" \
    PVA_BENCH_SHARES="${PVA_BENCH_SHARES:-}" PVA_BENCH_LATENCY="${PVA_BENCH_LATENCY:-}" PVA_BENCH_STRACE="${PVA_BENCH_STRACE:-}" PVA_BENCH_PERF="${PVA_BENCH_PERF:-}" \
    PVA_BENCH_NAMES="${PVA_BENCH_NAMES:-}" PVA_BENCH_WARMUP="${PVA_BENCH_WARMUP:-}" PVA_BENCH_ROUNDS="${PVA_BENCH_ROUNDS:-}" PVA_BENCH_OPEN_WINDOW="${PVA_BENCH_OPEN_WINDOW:-}" PVA_BENCH_OPEN_AT="${PVA_BENCH_OPEN_AT:-}" LOOKOUT_SERVER_EXTRA="${LOOKOUT_SERVER_EXTRA:-}" LOOKOUT_JAVA_OPTS="${LOOKOUT_JAVA_OPTS:-}" LOOKOUT_ARGS="${LOOKOUT_ARGS:-}" \
    bash -c 'ip link set lo up && exec bash "$0" "$@"' "$0" "$@"
fi

CP="$ROOT/engine/target/test-classes:$ROOT/engine/target/classes:$(cat "$ROOT/engine/target/pva-bench.cp")"
LOAD=$ROOT/bench/target/pva-load
FLOOR_BIN=$ROOT/bench/target/pva-floor
# to iterate on one figure: PVA_BENCH_PER="1" PVA_BENCH_SHARES="alone" PVA_BENCH_LATENCY=0
PERS=${PVA_BENCH_PER:-1 4 30}
WARMUP=${PVA_BENCH_WARMUP:-2}
OPEN_WINDOW=${PVA_BENCH_OPEN_WINDOW:-4096}
OPEN_AT=${PVA_BENCH_OPEN_AT:-100} # the open loop's rate, in percent of core-pva's closed-loop rate
ROUNDS=${PVA_BENCH_ROUNDS:-3}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
SHARES=${PVA_BENCH_SHARES:-alone shared}
WORK=$(mktemp -d /tmp/lookout-pva-neighbour.XXXXXX)
OUT=$ROOT/bench/out/pva-neighbour
mkdir -p "$OUT"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
free_udp() { python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
free_tcp() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
HZ=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
uticks() { awk '{print $14}' "/proc/$1/stat"; }
say() { echo "$*" | tee -a "$WORK/summary"; }

# --- the two core-pva servers (PvaServerBench serve-core: 100 000 names, 127.0.0.1 only, a free
#     UDP port): the one Lookout resolves from, and the one it is compared with
start_core() { # NAME: sets STARTED_PID and STARTED_UDP; the server runs until its stdin (a fifo) closes
  mkfifo "$WORK/$1.in"
  java -Xmx1g -XX:+UseParallelGC -cp "$CP" lookout.engine.pva.server.PvaServerBench serve-core \
    < "$WORK/$1.in" > "$WORK/$1.log" 2>&1 &
  STARTED_PID=$!
  exec {hold}>"$WORK/$1.in"
  PIDS+=("$STARTED_PID")
  for _ in $(seq 1 600); do grep -q '^READY ' "$WORK/$1.log" && break; sleep 0.2; done
  grep -q '^READY ' "$WORK/$1.log" || { echo "core-pva did not start:"; cat "$WORK/$1.log"; exit 2; }
  STARTED_UDP=$(awk '/^READY / {print $2; exit}' "$WORK/$1.log")
}
start_core source; SOURCE_UDP=$STARTED_UDP
start_core core; CORE_PID=$STARTED_PID; CORE_UDP=$STARTED_UDP

# --- an upstream for the resolver's cached name
DNS_UP=$(free_udp)
dnsmasq --no-daemon --no-resolv --no-hosts --port="$DNS_UP" --listen-address=127.0.0.1 --bind-interfaces \
  --address=/bench.example/192.0.2.7 --local-ttl=86400 --pid-file="$WORK/dnsmasq.pid" > "$WORK/dnsmasq.log" 2>&1 &
PIDS+=($!)

# --- Lookout: its client watches the 100 000 names (resolved from the source), its server claims them
UDP=$(free_udp); TCP=$(free_tcp); DNS=$(free_udp); STATUS=$(free_tcp)
mkdir -p "$WORK/lookout/state"
{
  echo "resolver => { listen => [ 127.0.0.1:$DNS ], scopes => { up => { default => true, servers => [ 127.0.0.1:$DNS_UP ] } } }"
  echo "status => { listen => 127.0.0.1:$STATUS }"
  echo "state_dir => state"
  echo "pva => {"
  echo "  addr_list => [ 127.0.0.1:$SOURCE_UDP ]"
  echo "  auto_addr_list => false"
  echo "  beacon_addr_list => [ 127.0.0.1:$UDP ]"
  echo "  auto_beacon_addr_list => false"
  echo "  broadcast_port => $UDP"
  echo "  server_port => $TCP"
  echo "  server => { enable => true, name_server => true ${LOOKOUT_SERVER_EXTRA:-} }"
  echo "  watch => ["
  python3 -c "import sys; [print('    \"bench:pv:%06d\"' % i) for i in range(int(sys.argv[1]))]" "$NAMES"
  echo "  ]"
  echo "}"
} > "$WORK/lookout/lookout.conf"
# LOOKOUT_ARGS: launcher options to compare with the defaults (e.g. "--udp-reads netty")
(cd "$WORK/lookout" && LOOKOUT_OPTS="${LOOKOUT_JAVA_OPTS:-}" exec "$IMAGE/bin/lookout" --headless ${LOOKOUT_ARGS:-} \
   --config "$WORK/lookout/lookout.conf") > "$WORK/lookout/log" 2>&1 &
LOOKOUT_PID=$!
PIDS+=("$LOOKOUT_PID")
for _ in $(seq 1 300); do grep -q 'engine running on' "$WORK/lookout/log" && break; sleep 0.2; done
grep -q 'engine running on' "$WORK/lookout/log" || { echo "Lookout did not start:"; cat "$WORK/lookout/log"; exit 2; }
status() { # a python expression over the /status JSON, s
  curl -s "http://127.0.0.1:$STATUS/status" | python3 -c "import json, sys; s = json.load(sys.stdin); print($1)"
}
echo "waiting for Lookout to resolve the $NAMES names from core-pva ..."
for _ in $(seq 1 900); do
  [ "$(status 's["pva"]["resolved"]' 2>/dev/null || echo 0)" -ge "$NAMES" ] && break
  sleep 1
done
RESOLVED=$(status 's["pva"]["resolved"]')
say "run: $(date -u +%Y-%m-%dT%H:%MZ) on $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(uname -r); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
say "machine: $(nproc) cores; names $NAMES (resolved by Lookout: $RESOLVED); $SECS s per measurement, window $WINDOW, $SOCKETS client sockets"
say "lookout: $(status '"responder threads %d, port %s" % (s["pvaServer"]["udpThreads"], s["pvaServer"]["portSharing"])'); $(grep -o "unicast sockets read [a-z]* [a-z]*" "$WORK/lookout/log" | head -1); options ${LOOKOUT_ARGS:-none}"

# --- what a process spends with no search sent (its timers, GC, the JIT): PID SECONDS -> ms of CPU per s
idle_cpu() {
  local t0 t1
  t0=$(ticks "$1"); sleep "$2"; t1=$(ticks "$1")
  awk -v a="$t0" -v b="$t1" -v hz="$HZ" -v s="$2" 'BEGIN { printf "%.1f", (b - a) / hz / s * 1000 }'
}
say "idle, before any search (5 s): lookout $(idle_cpu "$LOOKOUT_PID" 5) ms CPU/s, core-pva $(idle_cpu "$CORE_PID" 5) ms CPU/s"

# --- one measurement: NAME PID PORT PER RATE -> "searches names lost secs sent skipped pending cpu_us_per_search"
measure() {
  local t0 t1 r w=$WINDOW
  # an open loop may have many outstanding (OPEN_WINDOW): a search is skipped only when the server
  # is that far behind, and a skipped search counts as unanswered
  [ "${5:-0}" != 0 ] && w=$OPEN_WINDOW
  t0=$(ticks "$2"); u0=$(uticks "$2")
  r=$("$LOAD" "$3" "$NAMES" "$4" "$w" "$SECS" 0x80 "$SOCKETS" "$5" | awk '/^RESULT/ {print $2, $3, $4, $5, $8, $9, $10}')
  t1=$(ticks "$2"); u1=$(uticks "$2")
  echo "$r $(awk -v a="$t0" -v b="$t1" -v hz="$HZ" -v r="$r" 'BEGIN { split(r, f, " "); printf "%.2f", (b - a) / hz / (f[1] > 0 ? f[1] : 1) * 1e6 }') $(awk -v a="$u0" -v b="$u1" -v hz="$HZ" -v r="$r" 'BEGIN { split(r, f, " "); printf "%.2f", (b - a) / hz / (f[1] > 0 ? f[1] : 1) * 1e6 }')"
}
report() { # LABEL PER RESULT
  read -r n names lost secs sent skipped pending cpu ucpu <<< "$3"
  awk -v l="$1" -v per="$2" -v n="$n" -v nm="$names" -v lost="$lost" -v s="$secs" -v sent="$sent" -v sk="$skipped" \
      -v pend="$pending" -v cpu="$cpu" -v ucpu="$ucpu" 'BEGIN {
        asked = sent - pend + sk; ans = asked > 0 ? 100 * n / asked : 0
        printf "%-26s %2d name(s)/search: %9.0f searches/s %10.0f names/s  answered %6.2f %%  lost %d  skipped %d  CPU %6.2f us/search (user %.2f)\n",
               l, per, n / s, nm / s, ans, lost, sk, cpu, ucpu }' | tee -a "$WORK/summary"
}
second_server() { # PORT: a PVA server's listening socket on the port, joined to the forwarding group
  python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
s.bind(("0.0.0.0", int(sys.argv[1])))
s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, socket.inet_aton("224.0.0.128") + socket.inet_aton("127.0.0.1"))
n = 0
while True:
    s.recv(65536)
    n += 1
' "$1" > /dev/null 2>&1 &
  echo $!
}

# --- the floor (bench/pva-floor.c: recvmmsg, a reply naming every CID, sendmmsg; no lookup) under
#     the same one-name load: "FLOOR_SEARCHES CPU_US_PER_SEARCH"
floor() { # [forward]: the floor of a responder that also forwards every search (a second server on its port)
  local port out r other=""
  port=$(free_udp)
  out=$WORK/floor.out
  [ "${1:-}" = forward ] && { other=$(second_server "$port"); sleep 0.3; }
  "$FLOOR_BIN" "$port" $((SECS + 2)) ${1:-} > "$out" & local f=$!
  sleep 0.5
  r=$("$LOAD" "$port" "$NAMES" 1 "$WINDOW" "$SECS" 0x80 "$SOCKETS" | awk '/^RESULT/ {print $2}')
  wait "$f"
  [ -n "$other" ] && kill "$other" 2> /dev/null
  awk -v n="$r" '/^FLOOR/ { printf "%d %.2f\n", n, $3 / ($2 > 0 ? $2 : 1) / 1000 }' "$out"
}
# syscalls per search of a process under the one-name closed loop (strace -c: counts, not timing)
syscalls() { # LABEL PID PORT
  local t0 r n
  strace -c -f -o "$WORK/strace-$1.txt" -p "$2" 2> /dev/null & local st=$!
  sleep 1
  r=$("$LOAD" "$3" "$NAMES" 1 "$WINDOW" 3 0x80 "$SOCKETS" | awk '/^RESULT/ {print $2}')
  kill -INT "$st"; wait "$st" 2> /dev/null || true
  awk -v l="$1" -v n="$r" '$NF ~ /^(recvmmsg|sendmmsg|recvfrom|sendto|sendmsg|recvmsg|epoll_wait|epoll_pwait|epoll_pwait2|read|write|futex)$/ {
         c[$NF] = ($4 ~ /^[0-9]+$/ ? $4 : $5) }
       END { printf "  %-10s %d searches under strace:", l, n; for (k in c) printf " %s %.3f", k, c[k] / (n > 0 ? n : 1); printf " per search\n" }' \
    "$WORK/strace-$1.txt" | tee -a "$WORK/summary"
}
declare -A ONE_L ONE_C ONE_F OPEN_L OPEN_C

for share in $SHARES; do
  OTHERS=()
  if [ "$share" = shared ]; then
    OTHERS+=("$(second_server "$UDP")" "$(second_server "$CORE_UDP")")
    PIDS+=("${OTHERS[@]}")
    for _ in $(seq 1 30); do [ "$(status 's["pvaServer"]["portSharing"]')" = shared ] && break; sleep 1; done
    say "second server on each port: Lookout sees its port $(status 's["pvaServer"]["portSharing"]')"
  fi
  for per in $PERS; do
    "$LOAD" "$UDP" "$NAMES" "$per" "$WINDOW" "$WARMUP" 0x80 "$SOCKETS" > /dev/null # warm-up
    "$LOAD" "$CORE_UDP" "$NAMES" "$per" "$WINDOW" "$WARMUP" 0x80 "$SOCKETS" > /dev/null
    fwd0=$(status 's["pvaServer"]["forwarded"]')
    if [ -n "${PVA_BENCH_PERF:-}" ]; then # a profile of Lookout under this load (LOOKOUT_JAVA_OPTS with -XX:+DumpPerfMapAtExit)
      perf record -q -F 997 -e cpu-clock -g -p "$LOOKOUT_PID" -o "$OUT/perf-$share-$per.data" -- sleep $((SECS - 2)) > /dev/null 2>&1 &
    fi
    # at one name per search, ROUNDS rounds of Lookout, core-pva and the floor in turn: the machine's
    # drift between minutes is larger than the differences sought, so each figure is its median
    rounds=1; [ "$per" = 1 ] && rounds=$ROUNDS
    LS=(); CS=(); FS=(); FFS=()
    for round in $(seq 1 "$rounds"); do
      L=$(measure lookout "$LOOKOUT_PID" "$UDP" "$per" 0)
      fwd1=$(status 's["pvaServer"]["forwarded"]')
      C=$(measure core "$CORE_PID" "$CORE_UDP" "$per" 0)
      tag=""; [ "$rounds" -gt 1 ] && tag=" r$round"
      report "lookout ($share)$tag" "$per" "$L"
      report "core-pva ($share)$tag" "$per" "$C"
      say "  lookout forwarded $((fwd1 - fwd0)) searches meanwhile"
      awk -v l="$L" -v c="$C" -v per="$per" 'BEGIN { split(l, a, " "); split(c, b, " ");
        printf "  ratio lookout/core-pva at %d name(s)/search: %.2f x names/s, %.2f x CPU per search\n", per,
               (a[2] / a[4]) / (b[2] > 0 ? b[2] / b[4] : 1), a[8] / (b[8] > 0 ? b[8] : 1) }' | tee -a "$WORK/summary"
      LS+=("$(awk -v l="$L" 'BEGIN { split(l, a, " "); print a[8] }')")
      CS+=("$(awk -v c="$C" 'BEGIN { split(c, b, " "); printf "%s %d", b[8], b[1] / b[4] }')")
      if [ "$per" = 1 ]; then
        read -r _ F_CPU <<< "$(floor)"
        FS+=("$F_CPU")
        say "  floor ($share run$tag): $F_CPU us/search"
        if [ "$share" = shared ]; then
          read -r _ FF_CPU <<< "$(floor forward)"
          FFS+=("$FF_CPU")
          say "  floor answering and forwarding (beside a second server$tag): $FF_CPU us/search"
        fi
      fi
      fwd0=$(status 's["pvaServer"]["forwarded"]')
    done
    if [ "$per" = 1 ]; then
      ONE_L[$share]=$(median "${LS[@]}")
      ONE_C[$share]=$(median $(printf '%s\n' "${CS[@]}" | cut -d' ' -f1))
      ONE_F[$share]=$(median "${FS[@]}")
      [ "${#FFS[@]}" -gt 0 ] && ONE_FF=$(median "${FFS[@]}")
      [ "$rounds" -gt 1 ] && say "  medians of $rounds rounds: lookout ${ONE_L[$share]}, core-pva ${ONE_C[$share]}, floor ${ONE_F[$share]}${ONE_FF:+, floor forwarding $ONE_FF} us/search"
      RATE=$(median $(printf '%s\n' "${CS[@]}" | cut -d' ' -f2) | cut -d. -f1)
      RATE=$((RATE * OPEN_AT / 100))
      say "  open loop at ${OPEN_AT} % of core-pva's sustained rate, $RATE searches/s:"
      OL=$(measure lookout "$LOOKOUT_PID" "$UDP" 1 "$RATE")
      OC=$(measure core "$CORE_PID" "$CORE_UDP" 1 "$RATE")
      report "  lookout ($share)" 1 "$OL"
      report "  core-pva ($share)" 1 "$OC"
      OPEN_L[$share]=$(awk -v r="$OL" 'BEGIN { split(r, f, " "); a = f[5] - f[7] + f[6]; printf "%.2f", (a > 0 ? 100 * f[1] / a : 0) }')
      OPEN_C[$share]=$(awk -v r="$OC" 'BEGIN { split(r, f, " "); a = f[5] - f[7] + f[6]; printf "%.2f", (a > 0 ? 100 * f[1] / a : 0) }')
      if [ -n "${PVA_BENCH_STRACE:-}" ]; then
        FPORT=$(free_udp)
        "$FLOOR_BIN" "$FPORT" 8 > /dev/null & FPID=$!
        sleep 0.3
        syscalls "floor" "$FPID" "$FPORT"
        wait "$FPID" || true
        syscalls "lookout" "$LOOKOUT_PID" "$UDP"
        syscalls "core-pva" "$CORE_PID" "$CORE_UDP"
      fi
    fi
  done
  for p in "${OTHERS[@]}"; do kill "$p" 2>/dev/null || true; done
done

# --- issue 24's table: the one-name search beside the floor and core-pva, in this run
if [ -n "${ONE_L[alone]:-}${ONE_L[shared]:-}" ]; then
  say ""
  say "one-name search, CPU per answered search (us), Unicast flag, closed loop window $WINDOW, $SOCKETS sockets; open loop at core-pva's rate:"
  say "$(printf '%-7s %8s %9s %7s %14s %17s %16s %16s' port lookout core-pva floor lookout/floor lookout/core-pva 'open: lookout' 'open: core-pva')"
  for share in $SHARES; do
    [ -n "${ONE_L[$share]:-}" ] || continue
    say "$(awk -v s="$share" -v l="${ONE_L[$share]}" -v c="${ONE_C[$share]}" -v f="${ONE_F[$share]}" -v ol="${OPEN_L[$share]}" -v oc="${OPEN_C[$share]}" \
      'BEGIN { printf "%-7s %8.2f %9.2f %7.2f %13.2fx %16.2fx %15s%% %15s%%", s, l, c, f, l / f, l / c, ol, oc }')"
  done
  [ -n "${ONE_FF:-}" ] && say "$(awk -v l="${ONE_L[shared]:-0}" -v ff="$ONE_FF" 'BEGIN { printf "shared: the floor of answering and forwarding each search is %.2f us; lookout %.2fx that", ff, l / ff }')"
  say "goals: alone <= 1.25x floor and <= 0.8x core-pva, >= 99.5 % answered in the open loop; shared <= 1.5x floor"
  say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
[ "${PVA_BENCH_LATENCY:-1}" = 0 ] && { cp "$WORK/summary" "$OUT/summary.txt"; echo "summary: $OUT/summary.txt"; exit 0; }

# --- the resolver's cached latency, quiet and beside a saturating search flood
echo "bench.example A" > "$WORK/queries"
dig_once() { python3 - "$DNS" <<'PY'
import socket, sys
q = bytes.fromhex("1234010000010000000000000562656e6368076578616d706c650000010001")
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(2)
s.sendto(q, ("127.0.0.1", int(sys.argv[1]))); s.recv(512)
PY
}
dig_once # cached from now on
latency() { # LABEL
  dnsperf -s 127.0.0.1 -p "$DNS" -d "$WORK/queries" -l "$SECS" -Q 2000 -c 4 -v > "$WORK/dnsperf.out" 2>/dev/null || true
  awk '$1 == ">" && $2 == "NOERROR" { printf "%.0f\n", $NF * 1e6 }' "$WORK/dnsperf.out" | sort -n > "$WORK/latencies"
  awk -v l="$1" '{ x[NR] = $1 } END { if (NR == 0) { print l ": no answers"; exit }
        printf "%-40s %d answers  p50 %d us  p99 %d us  max %d us\n", l, NR, x[int(NR * 0.5) + 1], x[int(NR * 0.99) + 1], x[NR] }' \
    "$WORK/latencies" | tee -a "$WORK/summary"
}
latency "resolver cached, quiet"
"$LOAD" "$UDP" "$NAMES" 1 4096 $((SECS + 4)) 0x80 "$SOCKETS" > "$WORK/flood.out" & FLOOD=$!
PIDS+=("$FLOOD")
sleep 2
latency "resolver cached, beside a PVA flood"
wait "$FLOOD" || true
say "flood: $(awk '/^RESULT/ {printf "%.0f searches/s", $2 / $5}' "$WORK/flood.out")"
say "lookout: $(status '"searches %d, replies %d, forwarded %d, drops %s" % (s["pvaServer"]["searchesReceived"], s["pvaServer"]["repliesSent"], s["pvaServer"]["forwarded"], s["pvaServer"]["drops"])')"
cp "$WORK/summary" "$OUT/summary.txt"
echo "work directory: $WORK; summary: $OUT/summary.txt"
