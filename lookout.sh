#!/usr/bin/env bash
# Runs Lookout from a source checkout: builds the runtime image when a source is newer than it
# (mvn, tests skipped, ~30 s), then starts jlink/target/lookout/bin/lookout with the arguments
# given. Without arguments: the console on the embedded default configuration.
#   ./lookout.sh                      the console, embedded default
#   ./lookout.sh --config my.conf     the console on a file
#   ./lookout.sh --headless --config my.conf
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
launcher=$root/jlink/target/lookout/bin/lookout

stale() {
    [[ ! -x $launcher ]] && return 0
    [[ -n $(find "$root/pom.xml" "$root/engine" "$root/console-app" "$root/jlink" "$root/icons" \
               -path '*/target' -prune -o -type f -newer "$launcher" -print -quit 2>/dev/null) ]]
}

if stale; then
    echo "lookout.sh: building the runtime image (mvn -B -q -pl jlink -am package -DskipTests)" >&2
    (cd "$root" && mvn -B -q -pl jlink -am package -DskipTests)
fi
exec "$launcher" "$@"
