#!/usr/bin/env bash
# dnsperf on a DYNA name served by gdnsd 3.8 and by Lookout, one after the other, same machine,
# same query file, same load: seed 001's SYNOPSIS stanza, all UP (static monitors), the query
# cdn.example.com A (grouped single) and www6.front.example.com AAAA (ungrouped multi).
#
#   bench/pools-dnsperf.sh [SECONDS] [CLIENTS]      (defaults 10 s, 4 clients)
#
# Needs gdnsd, dnsperf, java 17, maven (builds bench/target/benchmarks.jar when missing).
set -euo pipefail
SECS=${1:-10}
CLIENTS=${2:-4}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR=$ROOT/bench/target/benchmarks.jar
GDNSD=${GDNSD:-/usr/sbin/gdnsd}
if [ ! -f "$JAR" ] || [ -n "${REBUILD:-}" ]; then
  (cd "$ROOT" && mvn -B -q -pl bench -am package -DskipTests)
fi
WORK=$(mktemp -d /tmp/lookout-pools-dnsperf.XXXXXX)
PID=""
cleanup() { if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

SERVICE_TYPES='service_types => {
  web_check => { plugin => static, state => up, ttl => 60 }
  foo => { plugin => static, state => up, ttl => 90 }
  my_cn_check => { plugin => static, state => up, ttl => 120 }
}'
WEIGHTED=$(sed -n '/^  weighted => {/,/^  }$/p' "$ROOT/bench/synopsis-weighted.conf")
printf '%s\n' "cdn.example.com A" "www6.front.example.com AAAA" > "$WORK/queries"

run() { # NAME PORT
  dnsperf -s 127.0.0.1 -p "$2" -d "$WORK/queries" -l "$SECS" -c "$CLIENTS" -T "$CLIENTS" -q 500 > "$WORK/$1.dnsperf" 2>&1
  local qps lost lat
  qps=$(awk '/Queries per second/ {print $4}' "$WORK/$1.dnsperf")
  lost=$(awk '/Queries lost/ {print $3, $4}' "$WORK/$1.dnsperf")
  lat=$(awk '/Average Latency/ {print $4, $5, $6, $7, $8, $9}' "$WORK/$1.dnsperf")
  printf '%-8s qps %-12s lost %-14s latency %s\n' "$1" "$qps" "$lost" "$lat"
}

# gdnsd
GP=$(free_port)
mkdir -p "$WORK/gdnsd/zones" "$WORK/gdnsd/run" "$WORK/gdnsd/state"
cp "$ROOT/bench/synopsis-example.com.zone" "$WORK/gdnsd/zones/example.com"
{
  echo "options => { listen => [ 127.0.0.1:$GP ], run_dir => $WORK/gdnsd/run, state_dir => $WORK/gdnsd/state }"
  echo "$SERVICE_TYPES"
  echo "plugins => {"; echo "  static => { }"; echo "$WEIGHTED"; echo "}"
} > "$WORK/gdnsd/config"
"$GDNSD" -c "$WORK/gdnsd" start > "$WORK/gdnsd/log" 2>&1 & PID=$!
for _ in $(seq 1 100); do grep -q "DNS listeners started" "$WORK/gdnsd/log" && break; sleep 0.1; done
run gdnsd "$GP"
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""

# Lookout
LP=$(free_port); PVA=$(free_port)
mkdir -p "$WORK/lookout/state"
cp "$ROOT/bench/synopsis-example.com.zone" "$WORK/lookout/example.com"
{
  echo "resolver => { listen => [ 127.0.0.1:$LP ], allow => [ 127.0.0.0/8 ] }"
  echo "zones => { example.com => example.com }"
  echo "$SERVICE_TYPES"
  echo "plugins => {"; echo "$WEIGHTED"; echo "}"
  echo "pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, broadcast_port => $PVA, server_port => $PVA,"
  echo "         beacon_addr_list => [ 127.0.0.1 ], auto_beacon_addr_list => false, server => { enable => false } }"
  echo "state_dir => state"
} > "$WORK/lookout/lookout.conf"
(cd "$WORK/lookout" && exec java -Xmx512m -cp "$JAR" lookout.bench.ServeConfig "$WORK/lookout/lookout.conf") > "$WORK/lookout/log" 2>&1 & PID=$!
for _ in $(seq 1 150); do grep -q '^ready' "$WORK/lookout/log" && break; sleep 0.2; done
# warm the JIT before measuring
dnsperf -s 127.0.0.1 -p "$LP" -d "$WORK/queries" -l 5 -c "$CLIENTS" -T "$CLIENTS" -q 500 > /dev/null 2>&1 || true
run lookout "$LP"
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
echo "dnsperf outputs in $WORK"
