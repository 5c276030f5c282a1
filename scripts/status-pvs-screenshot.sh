#!/usr/bin/env bash
# Takes docs/console-status-pvs.png: the runtime image's console on the embedded default (status
# PVs under LOOKOUT:demo:) plus one default scope whose two loopback upstreams refuse, so that
# resolver:servers_demoted is in alarm; three core-pva 4.7.3 clients monitor status PVs meanwhile.
# Not part of the test command (it binds the embedded default's fixed loopback ports); run it by
# hand after building the image:
#   mvn -B -q -pl jlink -am package -DskipTests && scripts/status-pvs-screenshot.sh [OUT_DIR]
# Needs xvfb, xdotool, imagemagick, dig and core-pva in the local Maven repository. Loopback only.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs}
mkdir -p "$out"
launcher=$root/jlink/target/lookout/bin/lookout
corepva=${COREPVA_JAR:-$HOME/.m2/repository/org/phoebus/core-pva/4.7.3/core-pva-4.7.3.jar}
[[ -x $launcher ]] || { echo "status-pvs-screenshot: build the image first (no $launcher)" >&2; exit 1; }
[[ -f $corepva ]] || { echo "status-pvs-screenshot: no core-pva jar at $corepva" >&2; exit 1; }
for tool in Xvfb xdotool import dig java; do
    command -v "$tool" >/dev/null || { echo "status-pvs-screenshot: $tool is missing" >&2; exit 1; }
done

work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

cp "$root/engine/src/main/resources/lookout/engine/config/default.conf" "$work/shots.conf"
sed -i 's#^  cache_size => 10000#  cache_size => 10000\n  scopes => { lan => { default => true, servers => [ 127.0.0.1:5399, 127.0.0.2:5399 ] } }#' "$work/shots.conf"
sed -i "s#^state_dir => .*#state_dir => $work/state#" "$work/shots.conf"
"$launcher" --check-config "$work/shots.conf"

display=:$(( 90 + RANDOM % 9 ))
Xvfb "$display" -screen 0 1440x1640x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=$display
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
if command -v openbox >/dev/null; then # a window manager, so that the window can be made tall
    openbox >"$work/openbox.log" 2>&1 &
    pids+=($!)
fi

# the PVA pane opens on its Status PVs tab, as an operator leaves it (the console's layout file)
mkdir -p "$work/.config/lookout"
printf 'pane=PVA\ntabs.pvaTabs.selected=statusPvTab\n' > "$work/.config/lookout/console.properties"
HOME=$work XDG_CONFIG_HOME=$work/.config "$launcher" --config "$work/shots.conf" >"$work/console.log" 2>&1 &
pids+=($!)
for _ in $(seq 300); do grep -q 'first frame' "$work/console.log" && break; sleep 0.1; done
grep -q 'first frame' "$work/console.log" || { cat "$work/console.log" >&2; exit 1; }

# core-pva clients, by UDP search to the engine's port (their own beacon port elsewhere)
monitor() {
    java -DEPICS_PVA_ADDR_LIST=127.0.0.1:5076 -DEPICS_PVA_AUTO_ADDR_LIST=NO -DEPICS_PVA_BROADCAST_PORT="$1" \
        -cp "$corepva" org.epics.pva.client.PVAClientMain monitor -w 600 "${@:2}" >"$work/monitor-$1.log" 2>&1 &
    pids+=($!)
}
monitor 15176 LOOKOUT:demo:resolver:servers_demoted LOOKOUT:demo:resolver:inflight LOOKOUT:demo:pools:failover
monitor 15177 LOOKOUT:demo:resolver:servers_demoted LOOKOUT:demo:engine:uptime_s LOOKOUT:demo:resolver:servers
monitor 15178 LOOKOUT:demo:pva:duplicate_claims LOOKOUT:demo:pools:items

# upstream questions that fail: both servers of scope lan are demoted (MAJOR)
for i in $(seq 4); do dig @127.0.0.1 -p 8053 +tries=1 +time=2 "q$i.example.org" >/dev/null || true; done
sleep 4
grep -q 'servers_demoted' "$work/monitor-15176.log" || { echo "status-pvs-screenshot: no monitor update" >&2; cat "$work/monitor-15176.log" >&2; exit 1; }

win=$(xdotool search --name 'Lookout' | head -1)
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus "$win" || true
xdotool windowsize --sync "$win" 1440 1600 || true
xdotool windowmove --sync "$win" 0 0 || true
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus "$win" || true
sleep 1
xdotool key ctrl+3 # to the focused window: a window manager drops synthetic events sent to a window
sleep 2
import -window root "$out/console-status-pvs.png"
echo "status-pvs-screenshot: $out/console-status-pvs.png"
