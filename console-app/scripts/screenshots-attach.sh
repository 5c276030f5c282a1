#!/usr/bin/env bash
# Takes the README's screenshots of an attached console and of the fleet view, from the built
# runtime image under Xvfb with a window manager (openbox: the window title shows). Two engines
# run headless on loopback (`lookout --headless`, as the service does), each serving the control
# API on its own status listener; the consoles attach with the engines' own operator token.
# Run it by hand after building the image:
#   mvn -B -q -o -pl jlink -am package -DskipTests && console-app/scripts/screenshots-attach.sh [OUT_DIR]
# Needs xvfb, openbox, xdotool, imagemagick and dig. Everything stays on 127.0.0.0/8, on ports
# away from the embedded default's (18053/19153 and 28053/29153; 39153 is left closed on
# purpose: the fleet shows it unreachable).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/docs}
launcher=$root/jlink/target/lookout/bin/lookout
[[ -x $launcher ]] || { echo "screenshots: build the image first (no $launcher)" >&2; exit 1; }
for tool in Xvfb openbox xdotool import dig; do
    command -v "$tool" >/dev/null || { echo "screenshots: $tool is missing" >&2; exit 1; }
done

work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# engine NAME DNS STATUS PVA_BROADCAST PVA_SERVER [SCOPE]: the embedded default on other ports, named
engine() {
    local name=$1 dns=$2 status=$3 bcast=$4 server=$5 scope=${6:-}
    local conf=$work/$name.conf
    sed -e "s#127.0.0.1:8053#127.0.0.1:$dns#; s#port => 8053#port => $dns#" \
        -e "s#broadcast_port => 5076#broadcast_port => $bcast#; s#server_port => 5075#server_port => $server#" \
        -e "s#127.0.0.1:9153#127.0.0.1:$status, name => $name#; s#^state_dir => .*#state_dir => $work/$name-state#" \
        "$root/engine/src/main/resources/lookout/engine/config/default.conf" > "$conf"
    if [[ -n $scope ]]; then
        sed -i "s#^  cache_size => 10000#  cache_size => 10000\n  scopes => { $scope }#" "$conf"
    fi
    "$launcher" --check-config "$conf" >/dev/null
    "$launcher" --headless --config "$conf" >"$work/$name.log" 2>&1 &
    pids+=($!)
}
# east: a default scope whose two upstreams refuse (nothing listens on :5399), so marks count down
engine dns-east 18053 19153 15076 15075 "lan => { default => true, servers => [ 127.0.0.1:5399, 127.0.0.2:5399 ] }"
engine dns-west 28053 29153 25076 25075
for name in dns-east dns-west; do
    for _ in $(seq 200); do grep -q 'engine running on' "$work/$name.log" && break; sleep 0.1; done
    grep -q 'engine running on' "$work/$name.log" || { cat "$work/$name.log" >&2; exit 1; }
done
east=http://127.0.0.1:19153
west=http://127.0.0.1:29153
# both engines made their own operator token at start (STATE_DIR/control.token); one file for the consoles
cp "$work/dns-east-state/control.token" "$work/east.token"
cp "$work/dns-west-state/control.token" "$work/west.token"
ctl() { local t=$1; shift; "$launcher" ctl --token-file "$t" "$@" 2>/dev/null; }

display=:$(( 90 + RANDOM % 9 ))
Xvfb "$display" -screen 0 1440x900x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=$display
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
openbox >"$work/openbox.log" 2>&1 &
pids+=($!)
sleep 1

# Traffic and operator actions, all through the control API or DNS on loopback
for i in $(seq 20); do dig @127.0.0.1 -p 18053 +short +tries=1 +time=1 www.lookout.test >/dev/null || true; done
dig @127.0.0.1 -p 18053 +tries=1 +time=3 example.org >/dev/null || true
ctl "$work/east.token" --engine "$east" force '127.0.0.3/*' DOWN 2h >/dev/null
ctl "$work/west.token" --engine "$west" force '127.0.0.1/*' DOWN >/dev/null   # with local2 and local3 down: failover
ctl "$work/west.token" --engine "$west" search ring:demo:9 >/dev/null
sleep 6   # a monitor interval: the forced and monitored states settle

shoot() { sleep "$2"; import -window root "$out/$1"; echo "screenshots: $out/$1"; }
wait_window() {
    for _ in $(seq 300); do grep -q 'first frame' "$1" && break; sleep 0.1; done
    grep -q 'first frame' "$1" || { cat "$1" >&2; exit 1; }
}

# 1. A console attached to dns-east: the Pools pane, the title naming the engine and its file
HOME=$work "$launcher" --attach "$east" --token-file "$work/east.token" >"$work/attach.log" 2>&1 &
console=$!
pids+=($console)
wait_window "$work/attach.log"
win=$(xdotool search --sync --name 'Lookout — dns-east' | head -1)
xdotool windowactivate --sync "$win" 2>/dev/null || true
sleep 1
xdotool key ctrl+2   # to the focused window: the window manager passes it on
shoot console-attached.png 2.5
kill "$console"; wait "$console" 2>/dev/null || true

# 2. The fleet view: both engines and one that is not there (fresh upstream failures on dns-east)
dig @127.0.0.1 -p 18053 +tries=1 +time=3 example.org >/dev/null || true
HOME=$work "$launcher" --attach "$east" "$west" http://127.0.0.1:39153 \
    >"$work/fleet.log" 2>&1 &
fleet=$!
pids+=($fleet)
wait_window "$work/fleet.log"
win=$(xdotool search --sync --name 'Lookout fleet' | head -1)
xdotool windowactivate --sync "$win" 2>/dev/null || true
shoot console-fleet.png 4
