#!/usr/bin/env bash
# Side by side with gdnsd 3.8: the same weighted stanza (seed 001's SYNOPSIS) and the same zone
# records served by gdnsd (/usr/sbin/gdnsd) and by Lookout on loopback ports, each queried N times
# per name and type, under three sets of forced states (the same admin_state file for both):
# all UP, some DOWN, and failover. Compares answer-set distributions (chi-squared homogeneity test,
# alpha 1e-4), TTLs and response shape (rcode, AA, answer/authority types, additional count).
#
#   bench/gdnsd-compare.sh [N]        (N queries per name, type, state and server; default 4000)
#
# Needs: gdnsd, python3, java 17, maven. Builds bench/target/benchmarks.jar when missing
# (REBUILD=1 forces it). Exit status 0 when everything agrees.
set -euo pipefail
N=${1:-4000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR=$ROOT/bench/target/benchmarks.jar
GDNSD=${GDNSD:-/usr/sbin/gdnsd}
[ -x "$GDNSD" ] || { echo "gdnsd not found at $GDNSD" >&2; exit 2; }
if [ ! -f "$JAR" ] || [ -n "${REBUILD:-}" ]; then
  (cd "$ROOT" && mvn -B -q -pl bench -am package -DskipTests)
fi
WORK=$(mktemp -d /tmp/lookout-gdnsd-compare.XXXXXX)
GPID=""; LPID=""
cleanup() {
  if [ -n "$GPID" ]; then kill "$GPID" 2>/dev/null || true; fi
  if [ -n "$LPID" ]; then kill "$LPID" 2>/dev/null || true; fi
  wait 2>/dev/null || true
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# Monitors: static types named as in the SYNOPSIS (no probes of the documentation addresses);
# the states under test come from admin_state, identical for both servers.
SERVICE_TYPES='service_types => {
  web_check => { plugin => static, state => up, ttl => 60 }
  foo => { plugin => static, state => up, ttl => 90 }
  my_cn_check => { plugin => static, state => up, ttl => 120 }
}'
WEIGHTED=$(sed -n '/^  weighted => {/,/^  }$/p' "$ROOT/bench/synopsis-weighted.conf")
ZONE=$(cat "$ROOT/bench/synopsis-example.com.zone")

QUERIES="www.corp.example.com/A www6.front.example.com/AAAA www6.front.example.com/A www.example.com/A
cdn.example.com/A mixed-a.example.com/A mixed-a.example.com/AAAA mixed-a.example.com/TXT cnames.example.com/A"

state_file() {
  case "$1" in
    all-up) printf '' ;;
    some-down) printf '%s\n' '"192.0.2.1/*" => DOWN' '"127.0.0.3/*" => DOWN' '"2001:db8::123/*" => DOWN' \
                              '"lb01.example.org./*" => DOWN' ;;
    failover) printf '%s\n' '"lb01.example.org./*" => DOWN' '"127.0.0.[345]/*" => DOWN' '"2001:db8::123/*" => DOWN/45' \
                             '"2001:db8::456/*" => DOWN' '"192.0.2.[124]/*" => DOWN' ;;
  esac
}

STATUS=0
for STATE in all-up some-down failover; do
  GP=$(free_port); LP=$(free_port); PVA=$(free_port)
  G=$WORK/$STATE/gdnsd; L=$WORK/$STATE/lookout
  mkdir -p "$G/zones" "$G/run" "$G/state" "$L/state"
  printf '%s\n' "$ZONE" > "$G/zones/example.com"
  cp "$G/zones/example.com" "$L/example.com"
  state_file "$STATE" > "$G/state/admin_state"
  cp "$G/state/admin_state" "$L/state/admin_state"
  {
    echo "options => { listen => [ 127.0.0.1:$GP ], run_dir => $G/run, state_dir => $G/state }"
    echo "$SERVICE_TYPES"
    echo "plugins => {"
    echo "  static => { }"
    echo "$WEIGHTED"
    echo "}"
  } > "$G/config"
  {
    echo "resolver => { listen => [ 127.0.0.1:$LP ], allow => [ 127.0.0.0/8 ] }"
    echo "zones => { example.com => example.com }"
    echo "$SERVICE_TYPES"
    echo "plugins => {"
    echo "$WEIGHTED"
    echo "}"
    echo "pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, broadcast_port => $PVA, server_port => $PVA,"
    echo "         beacon_addr_list => [ 127.0.0.1 ], auto_beacon_addr_list => false, server => { enable => false } }"
    echo "state_dir => state"
  } > "$L/lookout.conf"
  "$GDNSD" -c "$G" start > "$G/log" 2>&1 & GPID=$!
  # UDP listeners read as the engine chooses (LOOKOUT_UDP=netty compares the Netty path)
  (cd "$L" && exec java -Xmx256m -Dlookout.udp="${LOOKOUT_UDP:-auto}" -cp "$JAR" lookout.bench.ServeConfig \
      "$L/lookout.conf") > "$L/log" 2>&1 & LPID=$!
  for _ in $(seq 1 150); do
    if grep -q "DNS listeners started" "$G/log" 2>/dev/null && grep -q '^ready' "$L/log" 2>/dev/null; then break; fi
    sleep 0.2
  done
  grep -q "DNS listeners started" "$G/log" || { echo "gdnsd did not start:"; cat "$G/log"; exit 2; }
  grep -q '^ready' "$L/log" || { echo "Lookout did not start:"; cat "$L/log"; exit 2; }
  echo "== state $STATE (gdnsd :$GP, Lookout :$LP, $N queries each)"
  # shellcheck disable=SC2086
  python3 "$ROOT/bench/gdnsd_compare.py" "$STATE" "$GP" "$LP" "$N" $QUERIES || STATUS=1
  kill "$GPID" "$LPID" 2>/dev/null || true
  wait "$GPID" "$LPID" 2>/dev/null || true
  GPID=""; LPID=""
done
echo "work files in $WORK"
exit $STATUS
