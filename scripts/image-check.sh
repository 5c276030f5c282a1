#!/usr/bin/env bash
# Checks the built runtime image (Foundation acceptance):
#   - lookout --check-config on a bad file exits 1 printing FILE:LINE:COLUMN: message,
#     on a good file exits 0;
#   - no command prints a JVM warning (the image needs no incubator module: docs/adr/0002);
#   - lookout --headless --config F with status.listen on a free loopback port answers /status
#     (valid JSON) and /metrics, reloads the file on SIGHUP (a bad edit rejected, a good one
#     applied), then exits 0 on SIGTERM.
# Everything is bounded in time; nothing leaves 127.0.0.1.
#   scripts/image-check.sh [IMAGE_DIR]      (default jlink/target/lookout)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
image=${1:-$root/jlink/target/lookout}
lookout=$image/bin/lookout
[[ -x $lookout ]] || { echo "image-check: no launcher at $lookout (build it: mvn -B -pl jlink -am package -DskipTests)" >&2; exit 1; }

work=$(mktemp -d)
pid=
cleanup() {
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

fail() {
    echo "image-check: FAIL: $*" >&2
    exit 1
}
pass() {
    echo "image-check: ok: $*"
}

# The checks must not depend on the caller's EPICS environment (no broadcast, no real addresses).
unset EPICS_PVA_ADDR_LIST EPICS_PVA_AUTO_ADDR_LIST EPICS_PVA_NAME_SERVERS EPICS_PVA_BROADCAST_PORT \
      EPICS_PVA_SERVER_PORT EPICS_PVA_BEACON_ADDR_LIST EPICS_PVA_AUTO_BEACON_ADDR_LIST EPICS_PVAS_INTF_ADDR_LIST \
      EPICS_PVAS_BEACON_ADDR_LIST EPICS_PVAS_AUTO_BEACON_ADDR_LIST EPICS_PVAS_SERVER_PORT EPICS_PVAS_BROADCAST_PORT \
      EPICS_PVA_IGNORE_ADDR_LIST 2>/dev/null || true
export HOME=$work/home   # the embedded default keeps state under ~/.lookout; keep it here
mkdir -p "$HOME"

# ---------------------------------------------------------------- --check-config, bad file
bad=$work/bad.conf
cat > "$bad" <<'CONF'
# line 1: a comment
status => { listen => 127.0.0.1:9153 }
resolvr => { listen => [ 127.0.0.1:8053 ] }
pva => { auto_addr_list => maybe }
CONF
set +e
timeout 60 "$lookout" --check-config "$bad" >"$work/bad.out" 2>"$work/bad.err"
rc=$?
set -e
[[ $rc == 1 ]] || { cat "$work/bad.out" "$work/bad.err" >&2; fail "--check-config on a bad file exited $rc, expected 1"; }
[[ -s $work/bad.err ]] || fail "--check-config printed no problem"
while IFS= read -r line; do
    [[ $line =~ ^"$bad":[0-9]+:[0-9]+:\ .+ ]] || fail "not FILE:LINE:COLUMN: message: '$line'"
done < "$work/bad.err"
grep -q "^$bad:3:1: " "$work/bad.err" || { cat "$work/bad.err" >&2; fail "the unknown key 'resolvr' is not reported at 3:1"; }
grep -q "^$bad:4:[0-9]*: " "$work/bad.err" || { cat "$work/bad.err" >&2; fail "the bad boolean on line 4 is not reported"; }
pass "--check-config bad file: exit 1, $(wc -l < "$work/bad.err") problem(s) as FILE:LINE:COLUMN"
sed 's/^/    /' "$work/bad.err"

# ---------------------------------------------------------------- the launcher's JVM options
# The heap limit follows resolver.cache_size in the file given (128 MiB + 512 bytes an entry), and
# LOOKOUT_OPTS comes after the launcher's own options, so it wins (the JVM takes the last -Xmx).
sized=$work/sized.conf
printf 'resolver => { cache_size => 100000 }\n' > "$sized"
heap() { grep -m1 -o 'MaxHeapSize *= *[0-9]*' | grep -o '[0-9]*$'; }
h=$(LOOKOUT_OPTS="-XX:+PrintFlagsFinal" timeout 60 "$lookout" --check-config "$sized" 2>/dev/null | heap || true)
[[ $h == $(( (128 + 100000 / 2048) * 1024 * 1024 )) ]] || fail "cache_size 100000 gave a heap limit of ${h:-nothing}, expected 176 MiB"
h=$(LOOKOUT_OPTS="-Xmx300m -XX:+PrintFlagsFinal" timeout 60 "$lookout" --check-config "$sized" 2>/dev/null | heap || true)
[[ $h == $(( 300 * 1024 * 1024 )) ]] || fail "LOOKOUT_OPTS=-Xmx300m gave a heap limit of ${h:-nothing}, expected 300 MiB"
# ... and 512 bytes more for each name of pva.watch (here 40 960, quoted and bare, a comment among them; the JVM rounds the limit to 2 MiB)
watched=$work/watched.conf
{
  printf 'resolver => { cache_size => 100000 }\npva => {\n  watch => [   # the machine'"'"'s PVs ]\n'
  python3 -c "import sys; [print('    \"SR:C%02d:BPM[%d]\"' % (i % 40, i) if i % 2 else '    SR:C%02d:BPM%d' % (i % 40, i)) for i in range(40960)]"
  printf '  ]\n}\n'
} > "$watched"
h=$(LOOKOUT_OPTS="-XX:+PrintFlagsFinal" timeout 60 "$lookout" --check-config "$watched" 2>/dev/null | heap || true)
[[ $h == $(( (128 + 100000 / 2048 + 40960 / 2048) * 1024 * 1024 )) ]] \
  || fail "cache_size 100000 and 40 960 watched names gave a heap limit of ${h:-nothing}, expected 196 MiB"
pass "launcher: heap limit from cache_size (176 MiB for 100 000 entries) and pva.watch (+20 MiB for 40 960 names), LOOKOUT_OPTS overrides it"

# ---------------------------------------------------------------- --check-config, good file
read -r status_port dns_port pva_bcast pva_server <<<"$(python3 "$root/scripts/free-port.py" 4)"
good=$work/good.conf
cat > "$good" <<CONF
# Loopback only, every port chosen free for this run.
resolver => {
  listen => [ 127.0.0.1:$dns_port ]
  allow => [ 127.0.0.0/8 ]
  udp_threads => 2
}
pva => {
  addr_list => [ 127.0.0.1 ]
  auto_addr_list => false
  broadcast_port => $pva_bcast
  server_port => $pva_server
  beacon_addr_list => [ 127.0.0.1 ]
  auto_beacon_addr_list => false
}
status => { listen => 127.0.0.1:$status_port }
state_dir => state
CONF
set +e
timeout 60 "$lookout" --check-config "$good" >"$work/good.out" 2>"$work/good.err"
rc=$?
set -e
[[ $rc == 0 ]] || { cat "$work/good.out" "$work/good.err" >&2; fail "--check-config on a good file exited $rc, expected 0"; }
pass "--check-config good file: exit 0 ($(cat "$work/good.out"))"

# ---------------------------------------------------------------- no JVM warnings
# The JVM words its own warnings "WARNING: ..." at the start of a line (an incubator module,
# native access): the image needs none, so no command may print one (docs/adr/0002).
for cmd in --version --help; do
    set +e
    timeout 60 "$lookout" "$cmd" >"$work/cmd.out" 2>&1
    rc=$?
    set -e
    [[ $rc == 0 ]] || { cat "$work/cmd.out" >&2; fail "lookout $cmd exited $rc"; }
    ! grep -q '^WARNING' "$work/cmd.out" || { cat "$work/cmd.out" >&2; fail "lookout $cmd printed a JVM warning"; }
done
! grep -q '^WARNING' "$work/good.out" "$work/good.err" || fail "lookout --check-config printed a JVM warning"
pass "--version, --help, --check-config: no JVM warning"

# ---------------------------------------------------------------- --headless
"$lookout" --headless --config "$good" >"$work/headless.log" 2>&1 &
pid=$!
url=http://127.0.0.1:$status_port
up=
for _ in $(seq 1 120); do           # at most 60 s for the JVM and the engine to come up
    if ! kill -0 "$pid" 2>/dev/null; then
        cat "$work/headless.log" >&2
        fail "--headless exited before answering /status"
    fi
    if curl -fsS --max-time 5 "$url/status" -o "$work/status.json" 2>/dev/null; then
        up=1
        break
    fi
    sleep 0.5
done
[[ -n $up ]] || { cat "$work/headless.log" >&2; fail "/status did not answer within 60 s"; }
python3 -m json.tool "$work/status.json" >/dev/null || fail "/status is not valid JSON"
python3 - "$work/status.json" <<'PY' || fail "/status does not describe a running engine"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["state"] == "RUNNING", s["state"]
assert s["config"]["version"] == 1, s["config"]
assert isinstance(s["metrics"], list) and s["metrics"], "no metrics"
PY
pass "/status: valid JSON, state RUNNING, configuration version 1 ($(wc -c < "$work/status.json") bytes)"

curl -fsS --max-time 10 -D "$work/metrics.headers" "$url/metrics" -o "$work/metrics.txt" || fail "/metrics did not answer"
grep -qi '^content-type: text/plain; version=0.0.4' "$work/metrics.headers" || fail "/metrics content type"
grep -q '^# TYPE lookout_config_version gauge$' "$work/metrics.txt" || fail "/metrics lacks lookout_config_version"
grep -q '^lookout_config_version 1$' "$work/metrics.txt" || fail "/metrics: configuration version is not 1"
# Every line is a comment or a sample: name{labels} value
if grep -Ev '^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? [-+0-9.eEInfNa]+)$' "$work/metrics.txt"; then
    fail "/metrics has lines that are not Prometheus text format (above)"
fi
pass "/metrics: Prometheus text, $(grep -vc '^#' "$work/metrics.txt") samples"

code=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' "$url/nowhere")
[[ $code == 404 ]] || fail "/nowhere answered $code, expected 404"

# SIGHUP reloads the file: a bad edit is rejected and changes nothing, a good one is applied
wait_log() { # PATTERN: at most 20 s
    for _ in $(seq 1 40); do grep -q "$1" "$work/headless.log" && return 0; sleep 0.5; done
    cat "$work/headless.log" >&2; fail "no '$1' in the headless log 20 s after SIGHUP"
}
version() { curl -fsS --max-time 10 "$url/metrics" | sed -n 's/^lookout_config_version //p'; }
sed -i 's|^  allow => \[ 127.0.0.0/8 \]$|  allow => [ 127.0.0.0/8 ]\n  cache_size => lots|' "$good"
grep -q 'cache_size => lots' "$good" || fail "could not edit $good for the reload check"
kill -HUP "$pid"
wait_log "rejected (1 problem)"
grep -q "$good:[0-9]*:[0-9]*: .*resolver.cache_size" "$work/headless.log" || { cat "$work/headless.log" >&2; fail "the rejected reload does not name FILE:LINE:COLUMN"; }
[[ $(version) == 1 ]] || fail "a rejected reload changed the configuration version"
sed -i 's|cache_size => lots|cache_size => 2000|' "$good"
kill -HUP "$pid"
wait_log "reloaded: version 2"
[[ $(version) == 2 ]] || fail "after a good reload /metrics does not say version 2"
pass "--headless: SIGHUP rejects a bad file (version stays 1) and applies a good one (version 2)"

kill -TERM "$pid"
rc=
for _ in $(seq 1 40); do            # at most 20 s for an orderly stop
    if ! kill -0 "$pid" 2>/dev/null; then
        set +e
        wait "$pid"
        rc=$?
        set -e
        break
    fi
    sleep 0.5
done
[[ -n $rc ]] || { cat "$work/headless.log" >&2; fail "--headless still running 20 s after SIGTERM"; }
pid=
[[ $rc == 0 ]] || { cat "$work/headless.log" >&2; fail "--headless exited $rc on SIGTERM, expected 0"; }
grep -q 'engine stopped' "$work/headless.log" || { cat "$work/headless.log" >&2; fail "no orderly stop in the log"; }
pass "--headless: exit 0 on SIGTERM"
# The image carries Netty's native epoll library and the engine's liblookoutnet.so for this machine
# (jlink/build-image.sh): the engine loop must run on the one, the resolver's two UDP sockets be
# read through the other, not fall back to NIO or Netty.
if [[ $(uname -s) == Linux && $(uname -m) =~ ^(x86_64|aarch64)$ ]]; then
    grep -q 'engine loop on the epoll transport' "$work/headless.log" \
        || { cat "$work/headless.log" >&2; fail "the engine loop is not on the epoll transport"; }
    grep -q 'resolver UDP on .* read natively' "$work/headless.log" \
        || { cat "$work/headless.log" >&2; fail "the resolver's UDP listeners are not read natively in the image"; }
    pass "--headless: engine loop on the epoll transport, resolver UDP read natively"
fi
! grep -q '^WARNING' "$work/headless.log" || { cat "$work/headless.log" >&2; fail "--headless printed a JVM warning"; }
pass "--headless: no JVM warning"
echo "image-check: headless log:"
sed 's/^/    /' "$work/headless.log" | head -40
echo "image-check: all passed"
