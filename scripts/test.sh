#!/usr/bin/env bash
# The one test command: every module's tests, the runtime image and its checks, and every
# script-based integration check in scripts/it/*.sh (each runs from the repository root, gets
# the image directory as $1 and LOOKOUT_IMAGE in its environment, and fails by exiting non-zero).
#   scripts/test.sh            (what .ci/run and the README run)
# Extra arguments go to Maven, e.g. scripts/test.sh -o for an offline build.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
start=$(date +%s)

echo "== mvn -B verify (all modules; the jlink module builds the image)"
mvn -B "$@" verify

image=$root/jlink/target/lookout
export LOOKOUT_IMAGE=$image

echo "== image checks"
timeout 300 bash scripts/image-check.sh "$image"

shopt -s nullglob
its=(scripts/it/*.sh)
failed=()
for it in "${its[@]}"; do
    echo "== integration check $it"
    if ! timeout 900 bash "$it" "$image"; then
        failed+=("$it")
    fi
done
if (( ${#failed[@]} )); then
    echo "== FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "== all tests passed in $(( $(date +%s) - start )) s (${#its[@]} integration script(s))"
