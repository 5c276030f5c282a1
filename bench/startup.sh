#!/usr/bin/env bash
# Start-to-first-frame time of the runtime image's console under Xvfb, and the image's size.
#   bench/startup.sh [RUNS] [IMAGE_DIR]     (defaults: 5 runs, jlink/target/lookout)
# Build the image first: mvn -B -q -pl jlink -am package -DskipTests
#
# The console prints "lookout: first frame after N ms" (N counted from JVM start) once its first
# frame is on screen; that N is the figure. Run 1 starts with an empty ~/.openjfx cache (JavaFX
# unpacks its native libraries there on a machine's first start: the cold start); the others
# reuse it (warm starts). Each run opens the console on the embedded default configuration,
# inside a private network namespace (unshare -n, root) so its fixed loopback ports (8053, 5075,
# 5076, 9153) never meet anything else running on the machine.
set -euo pipefail

runs=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
image=${2:-$root/jlink/target/lookout}
lookout=$image/bin/lookout
[[ -x $lookout ]] || { echo "no image at $image (mvn -B -q -pl jlink -am package -DskipTests)" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "xvfb-run missing (apt-get install -y xvfb xauth)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home
mkdir -p "$HOME"

one_run() {
    local log=$1
    # Inside the namespace: loopback up, a virtual screen, the console; stop it once the line is
    # out (at most 120 s).
    unshare -n bash -c '
        ip link set lo up
        xvfb-run -a -s "-screen 0 1280x800x24" bash -c "
            \"$0\" > \"$1\" 2>&1 &
            app=\$!
            for _ in \$(seq 1 240); do
                grep -qs \"first frame after\" \"$1\" && break
                kill -0 \$app 2>/dev/null || break
                sleep 0.5
            done
            kill -TERM \$app 2>/dev/null || true
            for _ in \$(seq 1 20); do kill -0 \$app 2>/dev/null || break; sleep 0.5; done
            kill -KILL \$app 2>/dev/null || true
        "
    ' "$lookout" "$log"
}

results=()
for i in $(seq 1 "$runs"); do
    log=$work/run$i.log
    one_run "$log"
    ms=$(sed -n 's/.*lookout: first frame after \([0-9]*\) ms.*/\1/p' "$log" | head -1)
    if [[ -z $ms ]]; then
        echo "run $i: no first frame line; log:" >&2
        cat "$log" >&2
        exit 1
    fi
    kind=warm
    [[ $i == 1 ]] && kind="cold (empty ~/.openjfx cache)"
    echo "run $i: first frame after $ms ms  [$kind]"
    results+=("$ms")
done

if (( runs > 1 )); then
    warm=$(printf '%s\n' "${results[@]:1}" | sort -n)
    n=$(( runs - 1 ))
    median=$(echo "$warm" | awk -v n="$n" 'NR == int((n + 1) / 2) { print }')
    echo "warm starts: median $median ms, min $(echo "$warm" | head -1) ms, max $(echo "$warm" | tail -1) ms (n=$n)"
fi

bytes=$(du -sb "$image" | cut -f1)
tgz=$(tar -C "$(dirname "$image")" -czf - "$(basename "$image")" | wc -c)
echo "image: $image"
echo "image size on disk: $(( bytes / 1024 / 1024 )) MiB ($bytes bytes); as .tar.gz: $(( tgz / 1024 / 1024 )) MiB"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(java -version 2>&1 | head -1)"
