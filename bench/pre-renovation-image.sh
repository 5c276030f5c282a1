#!/bin/sh
# A wrapper "image" for A/B runs against the pre-renovation main (c724a30, issue 13): its jlink
# image started as today's launcher starts Lookout — today's JVM options (the heap from the cache
# size), c724a30's own native-access flags, and today's `--udp-reads X` as its `-Dlookout.udp=X` —
# so that only the engine's code differs. Writes OUT/bin/lookout; then, for example:
#
#   git worktree add ../wt-base c724a30 && (cd ../wt-base && mvn -B -q -pl jlink -am package -DskipTests)
#   bench/pre-renovation-image.sh ../wt-base target/base-image
#   LOOKOUT_IMAGE=target/base-image bench/dns.sh 10 3
#   LOOKOUT_IMAGE=target/base-image GDNSD_UDP_THREADS=2 bench/pools-dnsperf.sh 10 4 3
set -e
tree=$(cd "${1:?usage: bench/pre-renovation-image.sh C724A30_TREE OUT}" && pwd)
out=${2:?usage: bench/pre-renovation-image.sh C724A30_TREE OUT}
img=$tree/jlink/target/lookout
[ -x "$img/bin/java" ] || { echo "$img/bin/java is missing: build that tree's image first (see the header)" >&2; exit 2; }
mkdir -p "$out/bin"
cat > "$out/bin/lookout" <<W
#!/bin/sh
# c724a30's image with today's launcher options (written by bench/pre-renovation-image.sh)
IMG=$img
W
cat >> "$out/bin/lookout" <<'W'
cache=10000; file=; prev=; udp=auto; skip=; args=
for a in "$@"; do
    case $prev in --config | --check-config) file=$a ;; esac
    prev=$a
done
if [ -n "$file" ] && [ -r "$file" ]; then
    n=$(grep -o 'cache_size[[:space:]]*=>*[[:space:]]*[0-9][0-9]*' "$file" 2>/dev/null | head -1 | grep -o '[0-9][0-9]*$')
    [ -n "$n" ] && cache=$n
fi
heap=$((128 + cache / 2048))
JVM_OPTS="-Xms32m -Xmx${heap}m -XX:+UseG1GC -XX:MaxGCPauseMillis=10 -XX:MaxTenuringThreshold=1 -XX:G1PeriodicGCInterval=60000 -Xss512k -XX:MaxMetaspaceSize=192m -XX:ReservedCodeCacheSize=96m"
for a in "$@"; do
    if [ -n "$skip" ]; then udp=$a; skip=; continue; fi
    case $a in --udp-reads) skip=1; continue ;; --udp-reads=*) udp=${a#--udp-reads=}; continue ;; esac
    args="$args $a"
done
# shellcheck disable=SC2086
exec "$IMG/bin/java" $JVM_OPTS $LOOKOUT_OPTS -Dlookout.udp=$udp --add-modules jdk.incubator.foreign \
    --enable-native-access=lookout.engine --add-modules io.netty.transport.epoll.linux.x86_64 \
    -m lookout.console/lookout.console.Main $args
W
chmod +x "$out/bin/lookout"
echo "$out/bin/lookout"
