#!/usr/bin/env bash
# Foundation acceptance: the README's run command (./lookout.sh, no argument: the console on the
# embedded default) opens the console window, checked under Xvfb. Passes when the console prints
# "lookout: first frame after N ms" within 120 s; leaves a screenshot of the virtual screen in
# jlink/target/console-window.png (the README's docs/console.png can be refreshed from it).
# Runs in a private network namespace (unshare -n, root): the embedded default's fixed loopback
# ports (8053, 5075, 5076, 9153) meet nothing else on the machine.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
for tool in xvfb-run import; do
    command -v "$tool" >/dev/null || { echo "console-window: $tool missing (see .ci/run)" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home            # fresh ~/.lookout state and ~/.openjfx cache
mkdir -p "$HOME"
log=$work/console.log
shot=$root/jlink/target/console-window.png
rm -f "$shot"

# Without the privilege for a network namespace (an unprivileged container), run on the host's
# loopback: the embedded default's ports must then be free, as on a CI machine.
isolate=(unshare -n)
if ! unshare -n true 2>/dev/null || ! command -v ip >/dev/null; then
    echo "console-window: no private network namespace here; using the host's loopback" >&2
    isolate=()
fi

"${isolate[@]}" bash -c '
    ip link set lo up 2>/dev/null || true
    xvfb-run -a -s "-screen 0 1280x800x24" bash -c "
        bash ./lookout.sh > \"$0\" 2>&1 &
        app=\$!
        for _ in \$(seq 1 240); do
            grep -qs \"first frame after\" \"$0\" && break
            kill -0 \$app 2>/dev/null || break
            sleep 0.5
        done
        if grep -qs \"first frame after\" \"$0\"; then
            sleep 2      # let the first snapshot fill the panes before the picture
            import -window root \"$1\" || true
        fi
        kill -TERM \$app 2>/dev/null || true
        for _ in \$(seq 1 20); do kill -0 \$app 2>/dev/null || break; sleep 0.5; done
        kill -KILL \$app 2>/dev/null || true
    "
' "$log" "$shot"

if ! grep -q "first frame after" "$log"; then
    echo "console-window: FAIL: no first frame within 120 s; log:" >&2
    cat "$log" >&2
    exit 1
fi
echo "console-window: ok: $(grep -m1 'first frame after' "$log")"
[[ -s $shot ]] && echo "console-window: screenshot $shot"
if grep -E "Exception|SEVERE|ERROR " "$log" >/dev/null; then
    echo "console-window: note: the console logged errors:" >&2
    grep -E -A3 "Exception|SEVERE|ERROR " "$log" | head -20 >&2
fi
exit 0
