#!/bin/sh
# Status-PV server benchmark (issue 15): 1 000 monitors (100 NTScalar PVs x 10 core-pva clients)
# updated at 4 Hz, served by Lookout's PVA server and by a core-pva 4.7.3 PVAServer in one run on
# loopback; each server in its own JVM, the clients in a third. Prints each server's updates per
# second, CPU and CPU per update, then the ratio of the medians (goal: Lookout <= 1.0x core-pva).
# Usage: bench/pv-monitor-bench.sh [seconds-per-measurement] [rounds]
set -e
cd "$(dirname "$0")/.."
mvn -B -q -o -pl engine -am test-compile -DskipTests
mvn -B -q -o -pl engine dependency:build-classpath -Dmdep.outputFile=target/pv-bench.cp -Dmdep.includeScope=test >/dev/null
CP="engine/target/test-classes:engine/target/classes:$(cat engine/target/pv-bench.cp)"
exec java -Xmx256m -cp "$CP" lookout.engine.status.pv.PvMonitorBench run "${1:-30}" "${2:-3}"
