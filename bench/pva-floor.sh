#!/usr/bin/env bash
# The floor of a one-name PVA search on this machine (issue 18's "CPU per answered search ≤ 0.5×
# core-pva's"): bench/pva-floor.c — a responder that does nothing but read searches in recvmmsg
# batches and send a reply naming every CID in one sendmmsg — under the same load as
# bench/pva-neighbour-bench.sh's one-name closed loop (bench/pva-load.c: Unicast flag, WINDOW
# outstanding, SOCKETS client sockets). Its CPU per search is what the kernel and the least
# possible user-space work cost; a server cannot answer below it.
#
#   bench/pva-floor.sh [SECONDS] [WINDOW] [SOCKETS]      (defaults 10, 64, 4)
#
# Needs cc and python3. Loopback only, a port picked free at start.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECS=${1:-10}; WINDOW=${2:-64}; SOCKETS=${3:-4}
mkdir -p "$ROOT/bench/target"
cc -O2 -Wall -o "$ROOT/bench/target/pva-load" "$ROOT/bench/pva-load.c"
cc -O2 -Wall -o "$ROOT/bench/target/pva-floor" "$ROOT/bench/pva-floor.c"
PORT=$(python3 "$ROOT/scripts/free-port.py")
OUT=$(mktemp)
"$ROOT/bench/target/pva-floor" "$PORT" $((SECS + 2)) > "$OUT" & FLOOR=$!
sleep 0.5
r=$("$ROOT/bench/target/pva-load" "$PORT" 100000 1 "$WINDOW" "$SECS" 0x80 "$SOCKETS" | awk '/^RESULT/ {print $2, $4, $5, $6, $7}')
wait "$FLOOR"
read -r searches lost secs lcpu luser <<< "$r"
read -r _ answered cpu user < "$OUT"
rm -f "$OUT"
python3 - "$searches" "$lost" "$secs" "$answered" "$cpu" "$user" "$lcpu" <<'PY'
import sys
s, lost, secs, answered, cpu, user, lcpu = (float(x) for x in sys.argv[1:])
print(f"floor  1 name(s)/search: {s / secs:10.0f} searches/s  lost {lost:.0f}  server CPU {cpu / answered / 1000:.2f} us/search "
      f"(user {user / answered / 1000:.2f}); load generator {lcpu / s / 1000:.2f} us/search")
PY
