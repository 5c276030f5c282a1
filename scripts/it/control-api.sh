#!/usr/bin/env bash
# The control API of the image's headless engine, as a site runs it (docs/design/control.md):
#   - STATE_DIR/control.token made at the first start, mode 0600;
#   - an apply without the token: 401, nothing changed; with it: the file written back, the old one
#     in STATE_DIR/backups, a line in STATE_DIR/audit.log;
#   - a file edited by hand is not overwritten (409); SIGHUP on a file truncated to nothing is
#     refused and the engine keeps serving;
#   - the listener over TLS (an elliptic-curve certificate made now with openssl), read with curl.
# Bounded waits; nothing leaves 127.0.0.1.
#   scripts/it/control-api.sh [IMAGE_DIR]
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
image=${1:-${LOOKOUT_IMAGE:-$root/jlink/target/lookout}}
lookout=$image/bin/lookout
for tool in curl python3 openssl; do
    command -v "$tool" >/dev/null || { echo "control-api: $tool missing" >&2; exit 1; }
done

work=$(mktemp -d)
pid=
stop_engine() {
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    pid=
}
trap 'stop_engine; rm -rf "$work"' EXIT
fail() { echo "control-api: FAIL: $*" >&2; [[ -f $work/engine.log ]] && tail -30 "$work/engine.log" >&2; exit 1; }
pass() { echo "control-api: ok: $*"; }

unset EPICS_PVA_ADDR_LIST EPICS_PVA_AUTO_ADDR_LIST EPICS_PVA_NAME_SERVERS EPICS_PVA_BROADCAST_PORT \
      EPICS_PVA_SERVER_PORT EPICS_PVA_BEACON_ADDR_LIST EPICS_PVA_AUTO_BEACON_ADDR_LIST 2>/dev/null || true
export HOME=$work/home
mkdir -p "$HOME"
read -r status_port dns_port pva_bcast pva_server <<<"$(python3 "$root/scripts/free-port.py" 4)"
conf=$work/etc/lookout.conf
state=$work/state
mkdir -p "$work/etc"
write_conf() { # STATUS_SECTION CACHE_SIZE
    cat > "$conf" <<CONF
resolver => { listen => [ 127.0.0.1:$dns_port ], cache_size => $2 }
pva => {
  addr_list => [ 127.0.0.1 ]
  auto_addr_list => false
  broadcast_port => $pva_bcast
  server_port => $pva_server
  beacon_addr_list => [ 127.0.0.1 ]
  auto_beacon_addr_list => false
}
status => $1
state_dir => $state
CONF
}
start_engine() { # SCHEME CURL_ARGS...
    "$lookout" --headless --config "$conf" >>"$work/engine.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 120); do
        kill -0 "$pid" 2>/dev/null || fail "the engine exited"
        curl -fsS --max-time 5 "${@:2}" "$1://127.0.0.1:$status_port/api/v1/engine" -o "$work/engine.json" 2>/dev/null \
            && return 0
        sleep 0.5
    done
    fail "/api/v1/engine did not answer within 60 s"
}
body() { # TEXT_FILE [EXTRA_JSON_MEMBERS]: the apply request body
    python3 -c 'import json,sys; d={"text": open(sys.argv[1]).read()}; d.update(json.loads(sys.argv[2])); print(json.dumps(d))' \
        "$1" "${2:-{\}}"
}
api=http://127.0.0.1:$status_port

write_conf "{ listen => 127.0.0.1:$status_port }" 1000
start_engine http
python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); assert e["product"]=="lookout" and e["role"]=="anonymous" and not e["writable"], e' \
    "$work/engine.json" || fail "/api/v1/engine is not the identity of a Lookout engine"
token=$state/control.token
[[ $(stat -c %a "$token") == 600 ]] || fail "control.token has mode $(stat -c %a "$token"), expected 600"
pass "control.token made at the first start, mode 0600; /api/v1/engine says who it is"

sed 's/cache_size => 1000/cache_size => 2000/' "$conf" > "$work/next.conf"
before=$(sha256sum < "$conf")
code=$(curl -s --max-time 30 -o "$work/r.json" -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary @<(body "$work/next.conf") "$api/api/v1/config")
[[ $code == 401 ]] || fail "an apply without the token answered $code, expected 401"
[[ $(sha256sum < "$conf") == "$before" ]] || fail "a refused apply changed the file"
code=$(curl -s --max-time 30 -o "$work/r.json" -w '%{http_code}' -H "Authorization: Bearer $(cat "$token")" \
    -H 'Content-Type: application/json' --data-binary @<(body "$work/next.conf") "$api/api/v1/config")
[[ $code == 200 ]] || { cat "$work/r.json" >&2; fail "an apply with the token answered $code"; }
cmp -s "$conf" "$work/next.conf" || fail "the applied text was not written back"
[[ -f $state/backups/lookout.conf.1 ]] || fail "no backup of the previous file"
[[ $(sha256sum < "$state/backups/lookout.conf.1") == "$before" ]] || fail "the backup is not the previous file"
grep -q '"action":"apply".*"result":"refused: ' "$state/audit.log" || fail "the refused apply is not in audit.log"
grep -q '"token":"operator".*"action":"apply".*"result":"ok"' "$state/audit.log" || fail "the apply is not in audit.log"
pass "apply: 401 without the token (nothing changed); with it 200, written back, backup kept, both audited"

echo "# edited by hand" >> "$conf"
code=$(curl -s --max-time 30 -o "$work/r.json" -w '%{http_code}' -H "Authorization: Bearer $(cat "$token")" \
    -H 'Content-Type: application/json' --data-binary @<(body "$work/next.conf") "$api/api/v1/config")
[[ $code == 409 ]] || fail "an apply over a hand-edited file answered $code, expected 409"
tail -1 "$conf" | grep -q '^# edited by hand$' || fail "the hand edit was overwritten"
pass "a file edited by hand is not overwritten (409, both hashes named)"

printf '# truncated\n' > "$conf"
kill -HUP "$pid"
for _ in $(seq 1 40); do grep -q 'not reloaded: the configuration configures no service' "$work/engine.log" && break; sleep 0.5; done
grep -q 'not reloaded: the configuration configures no service' "$work/engine.log" || fail "SIGHUP on an empty file was not refused"
curl -fsS --max-time 10 "$api/metrics" | grep -q '^lookout_config_version 2$' || fail "the refused reload changed the version"
grep -q '"peer":"signal".*"result":"refused: ' "$state/audit.log" || fail "the refused SIGHUP is not in audit.log"
pass "SIGHUP on a file truncated to nothing: refused, the engine keeps version 2, audited as signal"
stop_engine

# TLS, with a certificate made now (nothing of it ships)
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/etc/key.pem" \
    -out "$work/etc/cert.pem" -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1 \
    || fail "openssl could not make a test certificate"
write_conf "{ listen => 127.0.0.1:$status_port, tls => { certificate => cert.pem, key => key.pem } }" 2000
start_engine https --cacert "$work/etc/cert.pem"
code=$(curl -s --max-time 10 --cacert "$work/etc/cert.pem" -o /dev/null -w '%{http_code}' "https://127.0.0.1:$status_port/metrics")
[[ $code == 200 ]] || fail "/metrics over TLS answered $code"
if curl -fsS --max-time 5 "http://127.0.0.1:$status_port/metrics" -o /dev/null 2>/dev/null; then
    fail "plain HTTP was answered on the TLS listener"
fi
pass "the listener serves TLS (EC P-256 certificate) and nothing in clear"
echo "control-api: all passed"
