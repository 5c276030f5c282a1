#!/usr/bin/env bash
# Takes the README's screenshots from the built runtime image under Xvfb: one per pane, plus the
# light theme. Not part of the test command (it binds the embedded default's fixed loopback
# ports); run it by hand after building the image:
#   mvn -B -q -pl jlink -am package -DskipTests && scripts/screenshots.sh [OUT_DIR]
# Needs xvfb, xdotool, imagemagick and dig. Everything stays on 127.0.0.0/8.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs}
image=$root/jlink/target/lookout
launcher=$image/bin/lookout
[[ -x $launcher ]] || { echo "screenshots: build the image first (no $launcher)" >&2; exit 1; }
for tool in Xvfb xdotool import dig; do
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

# The embedded default, plus a default scope whose two upstreams refuse (nothing listens on
# 127.0.0.1:5399 / 127.0.0.2:5399), so the Resolver pane shows demotion marks counting down.
cp "$root/engine/src/main/resources/lookout/engine/config/default.conf" "$work/shots.conf"
sed -i 's#^  cache_size => 10000#  cache_size => 10000\n  scopes => { lan => { default => true, servers => [ 127.0.0.1:5399, 127.0.0.2:5399 ] } }#' "$work/shots.conf"
sed -i "s#^state_dir => .*#state_dir => $work/state#" "$work/shots.conf"
"$launcher" --check-config "$work/shots.conf"

display=:$(( 90 + RANDOM % 9 ))
Xvfb "$display" -screen 0 1440x900x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=$display
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done

HOME=$work "$launcher" --config "$work/shots.conf" >"$work/console.log" 2>&1 &
pids+=($!)
for _ in $(seq 300); do grep -q 'first frame' "$work/console.log" && break; sleep 0.1; done
grep -q 'first frame' "$work/console.log" || { cat "$work/console.log" >&2; exit 1; }

# Some real traffic: local zone, weighted pool, synthetic names, and upstream questions that fail.
for i in $(seq 20); do dig @127.0.0.1 -p 8053 +short +tries=1 +time=1 www.lookout.test >/dev/null || true; done
dig @127.0.0.1 -p 8053 +short +tries=1 +time=1 app.lookout.test >/dev/null || true
dig @127.0.0.1 -p 8053 +short +tries=1 +time=1 localhost >/dev/null || true
dig @127.0.0.1 -p 8053 +tries=1 +time=3 example.org >/dev/null || true
sleep 16   # one beacon interval: the engine's own PVA server appears in its server table

win=$(xdotool search --name 'Lookout' | head -1)
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus "$win" || true
shoot() { sleep 1.5; import -window root "$out/$1"; echo "screenshots: $out/$1"; }
xdotool key --window "$win" ctrl+1; shoot console-resolver.png
xdotool key --window "$win" ctrl+2; shoot console-pools.png
xdotool key --window "$win" ctrl+3; shoot console-pva.png
xdotool key --window "$win" ctrl+4; shoot console-configuration.png
xdotool key --window "$win" ctrl+5; shoot console-events.png
xdotool key --window "$win" ctrl+1; xdotool key --window "$win" ctrl+shift+t; shoot console-resolver-light.png
cp "$out/console-pva.png" "$out/console.png"
