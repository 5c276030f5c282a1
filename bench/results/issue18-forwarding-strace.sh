#!/usr/bin/env bash
# issue18-forwarding-strace.sh TREE LABEL BURSTS [JVM options]: one ForwardCostScenario run in a
# network namespace, strace -c on the PVA responder threads (not a timed benchmark: counts only).
# Needs TREE/engine built (mvn -o -pl engine test-compile) and its test class path in
# /tmp/pvafwd-cp-$(basename TREE).txt (mvn -o -pl engine dependency:build-classpath
#   -Dmdep.outputFile=... -Dmdep.includeScope=test); unshare -n, python3, strace; run as root.
set -u
tree=$1; label=$2; bursts=$3; shift 3
dir=/tmp/pvafwd-$label; rm -rf $dir; mkdir -p $dir
cp="$tree/engine/target/test-classes:$tree/engine/target/classes:$(cat /tmp/pvafwd-cp-$(basename $tree).txt)"
java=$(readlink -f $(which java))
unshare -n sh -c 'ip link set lo up && exec "$0" "$@"' $java "$@" -cp "$cp" lookout.engine.pva.server.ForwardCostScenario $dir $bursts > $dir/out.txt 2>&1 &
scen=$!
for i in $(seq 1 600); do grep -q '^TIDS' $dir/out.txt 2>/dev/null && break; sleep 0.2; done
tids=$(grep '^TIDS' $dir/out.txt | cut -d' ' -f2-)
args=(); for t in $tids; do args+=(-p $t); done
strace -c -o $dir/strace.txt "${args[@]}" 2>$dir/strace.err &
st=$!
sleep 2
touch $dir/go
for i in $(seq 1 1200); do [ -f $dir/done ] && break; sleep 0.1; done
kill -INT $st; wait $st
wait $scen
echo "== $label tids: $tids"; grep -v '^status' $dir/out.txt | tail -8; cat $dir/strace.txt
