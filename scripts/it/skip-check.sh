#!/usr/bin/env bash
# The skip check of scripts/test.sh (scripts/skips.py) against fabricated Surefire reports in a
# temporary directory, shaped as Surefire 3.5 writes them for JUnit Jupiter and jqwik: a skip by
# assumption (reason only in the exception text), @Disabled (reason in the attribute), a
# parameterized invocation, a nested class, a jqwik property (simple class name), a class skipped
# as a whole (a report without test cases), a failure and an error. Needs python3 only; ignores
# the image directory it is given.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/engine/target/surefire-reports" "$work/console-app/target/surefire-reports"
reports=$work/engine/target/surefire-reports

failures=0
check() { # check DESCRIPTION EXPECTED_STATUS EXPECTED_OUTPUT_REGEX... -- COMMAND...
    local what=$1 want=$2 out status=0
    shift 2
    local patterns=()
    while [[ $1 != -- ]]; do patterns+=("$1"); shift; done
    shift
    out=$("$@" 2>&1) || status=$?
    local ok=1
    (( status == want )) || ok=0
    for p in "${patterns[@]}"; do
        grep -Eq -- "$p" <<<"$out" || { ok=0; echo "skip-check: '$what' lacks /$p/" >&2; }
    done
    if (( ok )); then
        echo "skip-check: ok: $what"
    else
        echo "skip-check: FAILED: $what (exit $status, expected $want); output:" >&2
        sed 's/^/    /' <<<"$out" >&2
        failures=$(( failures + 1 ))
    fi
}

cat > "$reports/TEST-lookout.engine.core.NativeDatagramTest.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="lookout.engine.core.NativeDatagramTest" time="0.2" tests="3" errors="0" skipped="2" failures="0">
  <properties><property name="java.version" value="17"/></properties>
  <testcase name="aBatchReadTakesABurst" classname="lookout.engine.core.NativeDatagramTest" time="0.1"/>
  <testcase name="anIpv6SocketReceivesAndAnswersIpv6Clients" classname="lookout.engine.core.NativeDatagramTest" time="0.0">
    <skipped type="org.opentest4j.TestAbortedException"><![CDATA[org.opentest4j.TestAbortedException: Assumption failed: no ::1 here: Cannot assign requested address
	at org.junit.jupiter.api.Assumptions.throwAssumptionFailed(Assumptions.java:321)
]]></skipped>
  </testcase>
  <testcase name="shutdownWakesTheReader" classname="lookout.engine.core.NativeDatagramTest" time="0.0">
    <skipped message="not on this kernel"/>
  </testcase>
</testsuite>
EOF
# Surefire wrote tests="2" for this class of 3 cases (two engines): the cases are what counts
cat > "$reports/TEST-lookout.engine.dns.RealClientsTest.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="lookout.engine.dns.RealClientsTest" time="1.0" tests="2" errors="0" skipped="0" failures="0">
  <testcase name="forwardedLocalAndSyntheticAnswers(String, boolean, boolean)[1]" classname="lookout.engine.dns.RealClientsTest" time="0.5"/>
  <testcase name="forwardedLocalAndSyntheticAnswers(String, boolean, boolean)[2]" classname="lookout.engine.dns.RealClientsTest" time="0.0">
    <skipped type="org.opentest4j.TestAbortedException"><![CDATA[org.opentest4j.TestAbortedException: kdig is not installed
	at org.junit.jupiter.api.Assumptions.abort(Assumptions.java:300)
]]></skipped>
  </testcase>
  <testcase name="aPropertyOfTheClass" classname="RealClientsTest" time="0.1">
    <skipped message="jqwik: property skipped"/>
  </testcase>
</testsuite>
EOF
cat > "$reports/TEST-lookout.engine.pva.server.ForwardingNetnsTest.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="lookout.engine.pva.server.ForwardingNetnsTest" time="0.0" tests="0" errors="0" skipped="0" failures="0">
  <testcase name="inner" classname="lookout.engine.pva.server.ForwardingNetnsTest$Broadcast" time="0.0">
    <skipped type="org.opentest4j.TestAbortedException"><![CDATA[org.opentest4j.TestAbortedException: Assumption failed: unshare -n not permitted here: namespace tests skipped
]]></skipped>
  </testcase>
</testsuite>
EOF
cat > "$reports/TEST-lookout.engine.dns.WildcardNetnsTest.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="lookout.engine.dns.WildcardNetnsTest" time="0.07" tests="0" errors="0" skipped="0" failures="0">
  <properties><property name="java.version" value="17"/></properties>
</testsuite>
EOF

# 1. counts from the test cases: 2 passed, 0 failed, 6 skipped (the empty report is one)
check "counts come from the test cases" 0 '^2 0 6$' -- python3 scripts/skips.py counts "$reports/TEST-*.xml"

# 2. nothing allowed: every skip is unexpected, each printed with its reason
printf '# nothing allowed\n\n' > "$work/none.txt"
check "an empty allow-list fails on every skip and prints each reason" 1 \
    'UNEXPECTED skip lookout.engine.core.NativeDatagramTest#anIpv6SocketReceivesAndAnswersIpv6Clients: Assumption failed: no ::1 here: Cannot assign requested address$' \
    'UNEXPECTED skip lookout.engine.core.NativeDatagramTest#shutdownWakesTheReader: not on this kernel$' \
    'UNEXPECTED skip lookout.engine.dns.RealClientsTest#forwardedLocalAndSyntheticAnswers\(String, boolean, boolean\)\[2\]: kdig is not installed$' \
    'UNEXPECTED skip lookout.engine.dns.RealClientsTest#aPropertyOfTheClass: jqwik: property skipped$' \
    'UNEXPECTED skip lookout.engine.pva.server.ForwardingNetnsTest\$Broadcast#inner: Assumption failed: unshare -n' \
    'UNEXPECTED skip lookout.engine.dns.WildcardNetnsTest: no test of this class ran' \
    '6 skipped test\(s\) not on' \
    -- python3 scripts/skips.py check "$work/none.txt" "$reports/TEST-*.xml"

# 3. every skip allowed: by method (all invocations of a parameterized one), by class, by outer class
cat > "$work/all.txt" <<'EOF'
# a comment line
lookout.engine.core.NativeDatagramTest#anIpv6SocketReceivesAndAnswersIpv6Clients  CI machines have no ::1
lookout.engine.core.NativeDatagramTest#shutdownWakesTheReader   old kernel   # a trailing comment
lookout.engine.dns.RealClientsTest#forwardedLocalAndSyntheticAnswers  kdig is optional
lookout.engine.dns.RealClientsTest#aPropertyOfTheClass  jqwik names the class without its package
lookout.engine.pva.server.ForwardingNetnsTest  no namespaces in the CI container
lookout.engine.dns.WildcardNetnsTest  no namespaces in the CI container
EOF
check "every skip on the allow-list passes, each listed with its reason" 0 \
    'allowed skip lookout.engine.core.NativeDatagramTest#shutdownWakesTheReader: not on this kernel \(allowed: old kernel\)$' \
    'allowed skip lookout.engine.dns.RealClientsTest#forwardedLocalAndSyntheticAnswers\(String, boolean, boolean\)\[2\]: kdig is not installed \(allowed: kdig is optional\)' \
    'allowed skip lookout.engine.pva.server.ForwardingNetnsTest\$Broadcast#inner' \
    -- python3 scripts/skips.py check "$work/all.txt" "$reports/TEST-*.xml"

# 4. a method entry allows that method only, not its class's other skips
printf 'lookout.engine.core.NativeDatagramTest#shutdownWakesTheReader  old kernel\n' > "$work/one.txt"
check "a method entry allows exactly that method" 1 \
    'allowed skip lookout.engine.core.NativeDatagramTest#shutdownWakesTheReader' \
    'UNEXPECTED skip lookout.engine.core.NativeDatagramTest#anIpv6SocketReceivesAndAnswersIpv6Clients' \
    -- python3 scripts/skips.py check "$work/one.txt" "$reports/TEST-lookout.engine.core.NativeDatagramTest.xml"

# 5. an entry without a reason makes the list invalid
printf 'lookout.engine.core.NativeDatagramTest\n' > "$work/bare.txt"
check "an entry without a reason is refused" 2 'has no reason; every entry needs one' \
    -- python3 scripts/skips.py check "$work/bare.txt" "$reports/TEST-*.xml"

# 6. failures and errors are counted as failed, never as skips
cat > "$work/console-app/target/surefire-reports/TEST-lookout.console.PoolsPaneFXTest.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="lookout.console.PoolsPaneFXTest" time="1" tests="3" errors="1" skipped="0" failures="1">
  <testcase name="a" classname="lookout.console.PoolsPaneFXTest" time="0.1"><failure message="boom" type="java.lang.AssertionError">boom</failure></testcase>
  <testcase name="b" classname="lookout.console.PoolsPaneFXTest" time="0.1"><error message="npe" type="java.lang.NullPointerException">npe</error></testcase>
  <testcase name="c" classname="lookout.console.PoolsPaneFXTest" time="0.1"/>
</testsuite>
EOF
check "failures and errors count as failed" 0 '^1 2 0$' \
    -- python3 scripts/skips.py counts "$work/console-app/target/surefire-reports/TEST-*.xml"
check "a run without skips passes the check" 0 '' \
    -- python3 scripts/skips.py check "$work/none.txt" "$work/console-app/target/surefire-reports/TEST-*.xml"

# 7. the default report location, from a repository root: */target/surefire-reports/TEST-*.xml
check "by default every module's reports are read" 0 '^3 2 6$' -- bash -c "cd '$work' && python3 '$root/scripts/skips.py' counts"

# 8. the project's allow-list is well formed
check "scripts/skip-allowed.txt is well formed" 0 '' \
    -- python3 scripts/skips.py check scripts/skip-allowed.txt "$work/console-app/target/surefire-reports/TEST-*.xml"

if (( failures )); then
    echo "skip-check: $failures check(s) failed" >&2
    exit 1
fi
echo "skip-check: all checks passed"
