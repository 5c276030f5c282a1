#!/bin/sh
# PVA server benchmark: Lookout's search responder vs a core-pva 4.7.3 PVAServer, 100 000 names,
# one run on loopback. Usage: bench/pva-server-bench.sh [seconds-per-measurement] [window]
#
# The load generator is bench/pva-load.c (sendmmsg/recvmmsg batches, ~1 us of CPU per search),
# built with cc when one is installed; PVA_LOAD=java uses the Java generator instead (one thread,
# a syscall per datagram: on 2 cores it, not the servers, bounds the one-name measurement).
set -e
cd "$(dirname "$0")/.."
mvn -B -q -pl engine -am test-compile -DskipTests
mvn -B -q -pl engine dependency:build-classpath -Dmdep.outputFile=target/pva-bench.cp -Dmdep.includeScope=test >/dev/null
CP="engine/target/test-classes:engine/target/classes:$(cat engine/target/pva-bench.cp)"
if [ "${PVA_LOAD:-c}" = java ]; then
  unset PVA_LOAD
elif command -v cc >/dev/null 2>&1; then
  mkdir -p bench/target
  cc -O2 -Wall -o bench/target/pva-load bench/pva-load.c
  PVA_LOAD=$(pwd)/bench/target/pva-load
  export PVA_LOAD
else
  echo "no C compiler: using the Java load generator" >&2
  unset PVA_LOAD
fi
exec java -Xmx1g -XX:+UseParallelGC -cp "$CP" lookout.engine.pva.server.PvaServerBench run "${1:-10}" "${2:-32}"
