#!/usr/bin/env bash
# A dead PVA server's names stop being claimed, measured from outside (issue 25), as a site runs
# it: the image's launcher on a configuration that enables the PVA server and leaves the rest at
# its defaults, a real PVA server (core-pva 4.7.3's PVAServer, which sends no beacons) in a
# process of its own on the default TCP port 5075, a client asking through Lookout:
#   1. the client's search reaches Lookout's UDP responder (engine A: name server off, the
#      default) and Lookout's TCP name server (engine B: name server on); each searches the name
#      for the client, finds the server and claims the name for it;
#   2. the server is killed with SIGKILL; 45 s later a fresh search, over UDP to A and over TCP to
#      B, gets no positive reply, and /status claims nothing at the dead endpoint;
#   3. a server started again (a new GUID) is claimed again, by both.
# The difference from ClaimLifeCorePvaTest that this catches: engine A beaconed its configured
# server_port (5075) although it had no TCP listener, the port the real server held; its own client
# took those beacons as the claimed server's, so the claims were never checked.
#
# Runs in a private network namespace (the engines join 224.0.0.128 on lo and beacon; the default
# ports are then private to the check): as root, or re-executed through unshare -n. Real time: the
# launcher runs the engine's own clock (15-s checks), so the check waits 45 s once. Bounded waits.
#   scripts/it/claim-life.sh [IMAGE_DIR]
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
image=${1:-${LOOKOUT_IMAGE:-$root/jlink/target/lookout}}
lookout=$image/bin/lookout
corepva=${COREPVA_JAR:-$HOME/.m2/repository/org/phoebus/core-pva/4.7.3/core-pva-4.7.3.jar}
[[ -x $lookout ]] || { echo "claim-life: no launcher at $lookout" >&2; exit 1; }
[[ -f $corepva ]] || { echo "claim-life: no core-pva jar at $corepva (the engine's tests fetch it)" >&2; exit 1; }
for tool in java python3 curl unshare ip; do
    command -v "$tool" >/dev/null || { echo "claim-life: $tool missing" >&2; exit 1; }
done

if [[ -z ${CLAIM_LIFE_NETNS:-} ]]; then
    exec unshare -n env CLAIM_LIFE_NETNS=1 COREPVA_JAR="$corepva" \
        bash -c 'ip link set lo up && exec bash "$0" "$@"' "$0" "$image"
fi

work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "claim-life: FAIL: $*" >&2
    for f in "$work"/*.log; do echo "--- $f" >&2; grep -v ' DEBUG ' "$f" | tail -15 >&2; done
    exit 1
}
pass() { echo "claim-life: ok: $*"; }
search() { python3 "$root/scripts/it/peers/pva_search.py" "$@"; }

unset EPICS_PVA_ADDR_LIST EPICS_PVA_AUTO_ADDR_LIST EPICS_PVA_NAME_SERVERS EPICS_PVA_BROADCAST_PORT \
      EPICS_PVA_SERVER_PORT EPICS_PVAS_BEACON_ADDR_LIST EPICS_PVAS_AUTO_BEACON_ADDR_LIST \
      EPICS_PVAS_SERVER_PORT EPICS_PVAS_BROADCAST_PORT EPICS_PVAS_INTF_ADDR_LIST 2>/dev/null || true
export HOME=$work/home
mkdir -p "$HOME"
PV=live:pv
SERVER_UDP=5086 # the real server's search port: Lookout's clients search it there

# The real server: the default TCP port, a UDP port of its own.
start_server() { # LOG: sets server_pid
    EPICS_PVAS_BROADCAST_PORT=$SERVER_UDP EPICS_PVA_BROADCAST_PORT=$SERVER_UDP \
        java -Xmx64m -cp "$COREPVA_JAR" "$root/scripts/it/peers/CorePvaServer.java" "$PV" > "$work/$1" 2>&1 &
    server_pid=$!
    pids+=("$server_pid")
    for _ in $(seq 1 120); do
        grep -q '^READY ' "$work/$1" && return 0
        kill -0 "$server_pid" 2>/dev/null || fail "the PVA server exited"
        sleep 0.25
    done
    fail "the PVA server did not start within 30 s"
}

# The engines: what a site writes to turn the PVA server on, every other setting at its default
# (broadcast_port 5076, server_port 5075, check_interval 15, check_after 30); beacons where the
# embedded default sends them, 127.0.0.1. B turns the TCP name server on and searches on 5077.
start_engine() { # NAME STATUS_PORT EXTRA_PVA_KEYS EXTRA_SERVER_KEYS
    mkdir -p "$work/$1"
    cat > "$work/$1/lookout.conf" <<CONF
resolver => { listen => [ 127.0.0.1:0 ] }
pva => {
  addr_list => [ 127.0.0.1:$SERVER_UDP ]
  auto_addr_list => false
  beacon_addr_list => [ 127.0.0.1 ]
  auto_beacon_addr_list => false
  $3
  server => { enable => true $4 }
}
status => { listen => 127.0.0.1:$2 }
state_dir => state
CONF
    (cd "$work/$1" && exec "$lookout" --headless --config "$work/$1/lookout.conf") > "$work/$1.log" 2>&1 &
    pids+=($!)
}
status() { # STATUS_PORT PYTHON_EXPRESSION_OVER_s
    curl -fsS --max-time 5 "http://127.0.0.1:$1/status" \
        | python3 -c "import json, sys; s = json.load(sys.stdin); print($2)"
}
await_engine() { # NAME STATUS_PORT
    for _ in $(seq 1 120); do
        grep -q 'engine running on' "$work/$1.log" && status "$2" 1 >/dev/null 2>&1 && return 0
        sleep 0.25
    done
    fail "engine $1 did not start within 30 s"
}
# Asks until a positive reply names ENDPOINT with a GUID other than NOT_GUID; prints the reply.
await_claim() { # MODE PORT ENDPOINT NOT_GUID
    local r
    for _ in $(seq 1 60); do
        r=$(search "$1" 127.0.0.1 "$2" "$PV")
        if [[ $r == found=1* && $r == *" endpoint=$3" && $r != *"guid=$4 "* ]]; then
            echo "$r"
            return 0
        fi
        sleep 1
    done
    fail "no claim of $PV for $3 over $1 to port $2 within 60 s (last answer: $r)"
}

start_server server1.log
tcp_port=$(awk '/^READY / {print $2; exit}' "$work/server1.log")
[[ $tcp_port == 5075 ]] || fail "the PVA server listens on $tcp_port, not the default 5075"
start_engine a 9153 "" ""
start_engine b 9154 "broadcast_port => 5077" ", name_server => true"
await_engine a 9153
await_engine b 9154
ns_port=$(status 9154 's["pvaServer"]["tcpPort"]')
[[ $ns_port -gt 0 && $ns_port != 5075 ]] || fail "engine B's name server is on port $ns_port"
pass "a PVA server on TCP 5075; engine A (name server off) and B (name server on TCP $ns_port) running"

endpoint=127.0.0.1:5075
first_udp=$(await_claim udp 5076 $endpoint none)
first_tcp=$(await_claim tcp "$ns_port" $endpoint none)
guid1=$(sed 's/.*guid=\([0-9a-f]*\).*/\1/' <<<"$first_udp")
[[ $first_tcp == *"guid=$guid1 "* ]] || fail "A and B claim for different servers: $first_udp / $first_tcp"
[[ $guid1 != "$(status 9153 's["pvaServer"]["guid"]')" ]] || fail "A claims the name for itself"
pass "claimed for the server ($guid1 at $endpoint): over UDP by A, over TCP by B"

kill -KILL "$server_pid"
killed=$(date +%s)
wait "$server_pid" 2>/dev/null || true
# The clients keep asking meanwhile (a real client retries; the engines search for it while asked).
while (( $(date +%s) - killed < 45 )); do
    search udp 127.0.0.1 5076 "$PV" > /dev/null
    search tcp 127.0.0.1 "$ns_port" "$PV" > /dev/null
    sleep 5
done
after_udp=$(search udp 127.0.0.1 5076 "$PV")
after_tcp=$(search tcp 127.0.0.1 "$ns_port" "$PV")
echo "claim-life: $(( $(date +%s) - killed )) s after SIGKILL: UDP to A: $after_udp; TCP to B: $after_tcp"
[[ $after_udp != found=1* ]] || fail "45 s after SIGKILL, A still claims $PV over UDP: $after_udp"
[[ $after_tcp != found=1* ]] || fail "45 s after SIGKILL, B still claims $PV over TCP: $after_tcp"
for p in 9153 9154; do
    [[ $(status $p "[c['endpoint'] for c in s['pva']['claims']]") != *"$endpoint"* ]] \
        || fail "45 s after SIGKILL, the engine on status port $p still lists a claim at $endpoint"
done
pass "45 s after SIGKILL no positive reply over UDP (A) or TCP (B), no claim at $endpoint in /status"

start_server server2.log
again_udp=$(await_claim udp 5076 $endpoint "$guid1")
again_tcp=$(await_claim tcp "$ns_port" $endpoint "$guid1")
pass "the server started again is claimed again under its new GUID: ${again_udp#found=1 } (A), ${again_tcp#found=1 } (B)"
