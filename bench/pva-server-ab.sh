#!/bin/sh
# PVA responder A/B: this tree's search responder against another build's, in one run (issue 13:
# the renovation against the pre-renovation main, c724a30). Both servers run at once, each in its
# own JVM with the same options, under the same C load generator (bench/pva-load.c); per search
# size a warm-up of each, then ROUNDS measurements of each, alternating which goes first, and the
# median of the rounds' ratios (names/s and server CPU per name).
#
#   bench/pva-server-ab.sh OTHER_TREE [seconds-per-measurement] [window] [rounds]   (10 32 5)
#
# OTHER_TREE: a checkout of the other build (e.g. `git worktree add ../wt-base c724a30`), its
# engine test classes built (`mvn -pl engine -am test-compile` there) and its dependency class path
# in engine/target/pva-bench.cp (bench/pva-server-bench.sh writes it). PVA_BENCH_SIZES and
# PVA_BENCH_WARMUP as in bench/pva-server-bench.sh; PVA_BENCH_FRESH=1 starts new server JVMs for
# each size (no size measured on code compiled for another's profile). Loopback only; run it alone
# on the machine.
set -e
other=$(cd "${1:?usage: bench/pva-server-ab.sh OTHER_TREE [seconds] [window] [rounds]}" && pwd)
cd "$(dirname "$0")/.."
for need in "$other/engine/target/test-classes/lookout/engine/pva/server/PvaServerBench.class" "$other/engine/target/pva-bench.cp"; do
  [ -e "$need" ] || { echo "$need is missing: build the other tree first (see the header)" >&2; exit 2; }
done
mvn -B -q -pl engine -am test-compile -DskipTests
mvn -B -q -pl engine dependency:build-classpath -Dmdep.outputFile=target/pva-bench.cp -Dmdep.includeScope=test >/dev/null
CP="engine/target/test-classes:engine/target/classes:$(cat engine/target/pva-bench.cp)"
PVA_BENCH_OTHER_CP="$other/engine/target/test-classes:$other/engine/target/classes:$(cat "$other/engine/target/pva-bench.cp")"
PVA_BENCH_OTHER_LABEL=${PVA_BENCH_OTHER_LABEL:-$(git -C "$other" log -1 --format=%h 2>/dev/null || basename "$other")}
export PVA_BENCH_OTHER_CP PVA_BENCH_OTHER_LABEL
mkdir -p bench/target
cc -O2 -Wall -o bench/target/pva-load bench/pva-load.c
PVA_LOAD=$(pwd)/bench/target/pva-load
export PVA_LOAD
exec java -Xmx1g -XX:+UseParallelGC -cp "$CP" lookout.engine.pva.server.PvaServerBench ab "${2:-10}" "${3:-32}" "${4:-5}"
