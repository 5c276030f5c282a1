#!/usr/bin/env bash
# The one test command: every module's tests, the runtime image and its checks, and every
# script-based integration check in scripts/it/*.sh (each runs from the repository root, gets
# the image directory as $1 and LOOKOUT_IMAGE in its environment, and fails by exiting non-zero).
#   bash scripts/test.sh       (what .ci/run and the README run)
# Extra arguments go to Maven, e.g. scripts/test.sh -o for an offline build.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
start=$(date +%s)

# The closing line counts every JUnit test from the Surefire reports plus each script check, in
# the plain form 'tests: N passed, N failed, N skipped', whether the run passes or not. The counts
# come from the reports' test cases (scripts/skips.py: Surefire's per-class totals are wrong for
# classes run by both JUnit Jupiter and jqwik).
script_passed=0
script_failed=0
closing() {
    local counts
    counts=$(python3 scripts/skips.py counts 2>/dev/null || echo "0 0 0")
    read -r p f s <<<"$counts"
    echo "tests: $(( p + script_passed )) passed, $(( f + script_failed )) failed, $s skipped"
}

# Every skipped JUnit test is listed with its reason. With CI=true a skip fails the run unless the
# test is on scripts/skip-allowed.txt ('Class#method  reason' or 'Class  reason'): a test CI skips
# is a test CI does not run. Returns non-zero when the run must fail because of a skip.
skips_ok() {
    local status=0
    echo "== skipped tests (allowed: scripts/skip-allowed.txt)"
    python3 scripts/skips.py check scripts/skip-allowed.txt || status=$?
    if [[ ${CI:-} == true ]] && (( status != 0 )); then
        echo "== FAILED: CI=true and a test was skipped that scripts/skip-allowed.txt does not allow" >&2
        return 1
    fi
    return 0
}

echo "== mvn -B verify (all modules; the jlink module builds the image)"
rm -rf ./*/target/surefire-reports # the closing line counts this run's reports only
mvn_log=$(mktemp)
trap 'rm -f "$mvn_log"' EXIT
set +e
mvn -B "$@" verify 2>&1 | tee "$mvn_log"
mvn_status=${PIPESTATUS[0]}
set -e
if (( mvn_status != 0 )); then
    # the cause again at the end, where a truncated log still shows it
    echo "== FAILED: mvn verify exited $mvn_status; disk free: $(df -Ph . | awk 'NR==2 {print $4}'); first errors:" >&2
    grep -m 8 '\[ERROR\]' "$mvn_log" >&2 || true
    script_failed=$(( script_failed + 1 )) # the build itself, whatever its reports say
    skips_ok || true # listed; the run fails anyway
    closing
    exit 1
fi

image=$root/jlink/target/lookout
export LOOKOUT_IMAGE=$image

shopt -s nullglob
checks=(scripts/image-check.sh scripts/it/*.sh)
failed=()
for check in "${checks[@]}"; do
    echo "== check $check"
    if timeout 900 bash "$check" "$image"; then
        script_passed=$(( script_passed + 1 ))
    else
        script_failed=$(( script_failed + 1 ))
        failed+=("$check")
    fi
done
if ! skips_ok; then
    script_failed=$(( script_failed + 1 )) # the skip check itself, as for a failed build
    failed+=("skipped tests")
fi
if (( ${#failed[@]} )); then
    echo "== FAILED: ${failed[*]}" >&2
    closing
    exit 1
fi
echo "== all tests passed in $(( $(date +%s) - start )) s (${#checks[@]} script check(s))"
closing
