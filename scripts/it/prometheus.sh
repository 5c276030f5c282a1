#!/usr/bin/env bash
# Prometheus against a headless engine of the image, on loopback (Debian package prometheus, a
# private instance: never the packaged service):
#   - promtool accepts the shipped rules (check rules), their tests (test rules) and the scrape
#     configuration (check config --syntax-only: its token and CA files are the site's);
#   - promtool check metrics accepts the engine's /metrics;
#   - a real Prometheus, configured as docs/prometheus/prometheus.yml is (file_sd, the same rule
#     files), scrapes the engine and its HTTP query API gives a Lookout metric and a recording
#     rule back.
# Bounded waits throughout; nothing leaves 127.0.0.1.
#   scripts/it/prometheus.sh [IMAGE_DIR]
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
image=${1:-${LOOKOUT_IMAGE:-$root/jlink/target/lookout}}
lookout=$image/bin/lookout
for tool in prometheus promtool curl python3; do
    command -v "$tool" >/dev/null || { echo "prometheus: $tool missing (see .ci/run)" >&2; exit 1; }
done
[[ -x $lookout ]] || { echo "prometheus: no launcher at $lookout" >&2; exit 1; }

work=$(mktemp -d)
engine_pid=
prom_pid=
cleanup() {
    for p in $prom_pid $engine_pid; do
        if kill -0 "$p" 2>/dev/null; then
            kill -TERM "$p" 2>/dev/null || true
            for _ in $(seq 1 20); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
            kill -KILL "$p" 2>/dev/null || true
        fi
    done
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "prometheus: FAIL: $*" >&2; exit 1; }
pass() { echo "prometheus: ok: $*"; }

files=$image/lib/prometheus
promtool check rules "$files/lookout-rules.yml" "$files/lookout-alerts.yml" >"$work/rules.out" 2>&1 \
    || { cat "$work/rules.out" >&2; fail "promtool check rules"; }
pass "promtool check rules: $(grep -o '[0-9]* rules found' "$work/rules.out" | paste -sd, -)"
(cd "$root/docs/prometheus/tests" && promtool test rules ./*.yml) >"$work/test.out" 2>&1 \
    || { cat "$work/test.out" >&2; fail "promtool test rules docs/prometheus/tests"; }
pass "promtool test rules: the alerts fire as their tests say"
promtool check config --syntax-only "$files/prometheus.yml" >"$work/config.out" 2>&1 \
    || { cat "$work/config.out" >&2; fail "promtool check config prometheus.yml"; }
pass "promtool check config --syntax-only prometheus.yml"

unset EPICS_PVA_ADDR_LIST EPICS_PVA_AUTO_ADDR_LIST EPICS_PVA_NAME_SERVERS EPICS_PVA_BROADCAST_PORT \
      EPICS_PVA_SERVER_PORT EPICS_PVA_BEACON_ADDR_LIST EPICS_PVA_AUTO_BEACON_ADDR_LIST 2>/dev/null || true
export HOME=$work/home
mkdir -p "$HOME"
read -r status_port dns_port pva_bcast pva_server prom_port <<<"$(python3 "$root/scripts/free-port.py" 5)"
conf=$work/lookout.conf
cat > "$conf" <<CONF
resolver => { listen => [ 127.0.0.1:$dns_port ] }
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
"$lookout" --headless --config "$conf" >"$work/engine.log" 2>&1 &
engine_pid=$!
for _ in $(seq 1 120); do
    kill -0 "$engine_pid" 2>/dev/null || { cat "$work/engine.log" >&2; fail "the engine exited"; }
    curl -fsS --max-time 5 "http://127.0.0.1:$status_port/metrics" -o "$work/metrics.txt" 2>/dev/null && break
    sleep 0.5
done
[[ -s $work/metrics.txt ]] || { cat "$work/engine.log" >&2; fail "/metrics did not answer within 60 s"; }
promtool check metrics < "$work/metrics.txt" >"$work/lint.out" 2>&1 \
    || { cat "$work/lint.out" >&2; fail "promtool check metrics rejects /metrics"; }
pass "promtool check metrics accepts /metrics ($(grep -vc '^#' "$work/metrics.txt") samples)"

# A private Prometheus as the shipped file is, scraping every second
cp "$files/lookout-rules.yml" "$files/lookout-alerts.yml" "$work/"
cat > "$work/lookout-targets.json" <<JSON
[ { "targets": [ "127.0.0.1:$status_port" ], "labels": { "site": "test" } } ]
JSON
cat > "$work/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [ lookout-rules.yml, lookout-alerts.yml ]
scrape_configs:
  - job_name: lookout
    metrics_path: /metrics
    file_sd_configs:
      - files: [ lookout-targets.json ]
        refresh_interval: 5s
YML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
prom_pid=$!
query() { # PROMQL: the first result's value, or nothing
    curl -fsS --max-time 5 -G "http://127.0.0.1:$prom_port/api/v1/query" --data-urlencode "query=$1" 2>/dev/null \
        | python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")' \
        2>/dev/null || true
}
got=
for _ in $(seq 1 120); do           # at most 60 s: start, the first scrapes, the first rule evaluations
    kill -0 "$prom_pid" 2>/dev/null || { cat "$work/prometheus.log" >&2; fail "prometheus exited"; }
    if [[ $(query 'lookout_config_version{job="lookout",site="test"}') == 1 \
          && $(query 'job:lookout_engines_up:sum') == 1 ]]; then
        got=1
        break
    fi
    sleep 0.5
done
[[ -n $got ]] || { tail -20 "$work/prometheus.log" >&2; fail "Prometheus did not give lookout_config_version 1 back within 60 s"; }
[[ $(query 'up{job="lookout"}') == 1 ]] || fail "up{job=\"lookout\"} is not 1"
pass "Prometheus scraped the engine: lookout_config_version 1 and the recording rule job:lookout_engines_up:sum 1 through /api/v1/query"
echo "prometheus: all passed"
