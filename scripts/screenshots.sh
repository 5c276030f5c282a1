#!/usr/bin/env bash
# Takes the README's screenshots from the built runtime image under Xvfb with a window manager
# (openbox: the title bar shows, and the window is sized as an operator's would be), at 1280x800
# and at 1920x1080: every pane, the light theme, the three "why?" panels (a PV, a DNS name, a pool
# address's odds) and an alarm state (the console opened on a file with an error: nothing runs).
# Not part of the test command (it binds the embedded default's fixed loopback ports); run it by
# hand after building the image:
#   mvn -B -q -o -pl jlink -am package -DskipTests && scripts/screenshots.sh [OUT_DIR]
# Needs xvfb, openbox, xdotool, imagemagick and dig. Everything stays on 127.0.0.0/8; it runs in
# a private network namespace where it can.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs}
image=$root/jlink/target/lookout
launcher=$image/bin/lookout
[[ -x $launcher ]] || { echo "screenshots: build the image first (no $launcher)" >&2; exit 1; }
for tool in Xvfb openbox xdotool import dig; do
    command -v "$tool" >/dev/null || { echo "screenshots: $tool is missing" >&2; exit 1; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The embedded default, plus a default scope whose two upstreams refuse (nothing listens on
# 127.0.0.1:5399 / 127.0.0.2:5399), so the Resolver pane shows demotion marks counting down.
cp "$root/engine/src/main/resources/lookout/engine/config/default.conf" "$work/shots.conf"
sed -i 's#^  cache_size => 10000#  cache_size => 10000\n  scopes => { lan => { default => true, servers => [ 127.0.0.1:5399, 127.0.0.2:5399 ] } }#' "$work/shots.conf"
sed -i "s#^state_dir => .*#state_dir => $work/state#" "$work/shots.conf"
"$launcher" --check-config "$work/shots.conf"
# the alarm state: the same file with a misspelt key (the console opens on it, nothing starts)
sed 's#^  cache_size => 10000#  cache_sise => 10000#' "$work/shots.conf" > "$work/broken.conf"

isolate=(unshare -n)
if ! unshare -n true 2>/dev/null || ! command -v ip >/dev/null; then
    echo "screenshots: no private network namespace here; using the host's loopback" >&2
    isolate=()
fi

cat > "$work/run.sh" <<'EOF'
set -euo pipefail
work=$1 launcher=$2 out=$3 size=$4
ip link set lo up 2>/dev/null || true
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
display=:$(( 40 + RANDOM % 40 ))
Xvfb "$display" -screen 0 "${size}x24" -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=$display
for _ in $(seq 100); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
openbox >"$work/openbox.log" 2>&1 &
pids+=($!)
sleep 1
export HOME=$work/home-$size
mkdir -p "$HOME"

wait_frame() { for _ in $(seq 300); do grep -q 'first frame' "$1" && return 0; sleep 0.1; done; cat "$1" >&2; return 1; }
window() { xdotool search --onlyvisible --name "$1" 2>/dev/null | tail -1; }
shoot() { sleep "${2:-1.5}"; import -window root "$out/$1-$size.png"; echo "screenshots: $out/$1-$size.png"; }
key() { xdotool key --clearmodifiers "$@"; sleep 0.4; }
type_text() { xdotool type --delay 20 "$1"; sleep 0.3; }
close_dialog() { key Escape; sleep 0.5; }

"$launcher" --config "$work/shots.conf" >"$work/console-$size.log" 2>&1 &
console=$!
pids+=($console)
wait_frame "$work/console-$size.log"
win=$(window '^Lookout — ')
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus "$win" || true

# Some real traffic: local zone, weighted pool, synthetic names, and upstream questions that fail.
for i in $(seq 20); do dig @127.0.0.1 -p 8053 +short +tries=1 +time=1 www.lookout.test >/dev/null || true; done
dig @127.0.0.1 -p 8053 +short +tries=1 +time=1 app.lookout.test >/dev/null || true
dig @127.0.0.1 -p 8053 +short +tries=1 +time=1 localhost >/dev/null || true
dig @127.0.0.1 -p 8053 +tries=1 +time=3 example.org >/dev/null || true
"$launcher" ctl --engine http://127.0.0.1:9153 --token-file "$work/state/control.token" force '127.0.0.2/*' DOWN 2h >/dev/null 2>&1 || true
sleep 16   # one beacon interval: the engine's own PVA server appears in its server table

key ctrl+1
# the resolve box: a name that fails upstream, traced, with its diagnosis; then its why? panel
key alt+r; type_text "www.example.org"; key Return; sleep 7
shoot console-resolver 1
key alt+w; shoot console-why-name 2; close_dialog

key ctrl+2; shoot console-pools
# the odds of local1 (resource demo → family ipv4 → local1): why?
key Down; key Down; key ctrl+w; shoot console-why-odds 2; close_dialog

key ctrl+3
key alt+p; type_text "ring:demo:1"; key Return; sleep 4
shoot console-pva
key alt+w; shoot console-why-pv 2.5; close_dialog

key ctrl+4; shoot console-configuration
key ctrl+5; shoot console-events
key ctrl+1; key ctrl+shift+t; shoot console-resolver-light
key ctrl+shift+t
kill "$console"; wait "$console" 2>/dev/null || true

# the alarm state: a file with an error opens on the Configuration pane, nothing runs
HOME=$work/home-alarm-$size "$launcher" --config "$work/broken.conf" >"$work/broken-$size.log" 2>&1 &
broken=$!
pids+=($broken)
wait_frame "$work/broken-$size.log"
win=$(window '^Lookout — ')
xdotool windowactivate --sync "$win" 2>/dev/null || true
shoot console-alarm 2
kill "$broken"; wait "$broken" 2>/dev/null || true
EOF

for size in 1280x800 1920x1080; do
    "${isolate[@]}" bash "$work/run.sh" "$work" "$launcher" "$out" "$size"
done
cp "$out/console-pva-1280x800.png" "$out/console.png"
