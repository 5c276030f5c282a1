#!/bin/sh
# PVA server benchmark: Lookout's search responder vs a core-pva 4.7.3 PVAServer, 100 000 names,
# one run on loopback. Usage: bench/pva-server-bench.sh [seconds-per-measurement] [window]
set -e
cd "$(dirname "$0")/.."
mvn -B -q -pl engine -am test-compile -DskipTests
mvn -B -q -pl engine dependency:build-classpath -Dmdep.outputFile=target/pva-bench.cp -Dmdep.includeScope=test >/dev/null
CP="engine/target/test-classes:engine/target/classes:$(cat engine/target/pva-bench.cp)"
exec java -Xmx1g -XX:+UseParallelGC -cp "$CP" lookout.engine.pva.server.PvaServerBench run "${1:-10}" "${2:-32}"
