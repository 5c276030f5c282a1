#!/usr/bin/env bash
# Builds the Lookout runtime image with jlink (called by jlink/pom.xml in the package phase).
#   build-image.sh MODULE_PATH_FILE OUTPUT_DIR ICONS_DIR
# MODULE_PATH_FILE holds the console's runtime class path (maven-dependency-plugin
# build-classpath): the lookout console and engine jars and every third-party jar.
set -euo pipefail

mp_file=$1
out=$2
icons=$3

[[ -s $mp_file ]] || { echo "build-image: empty module path file $mp_file" >&2; exit 1; }
JLINK=${JAVA_HOME:+$JAVA_HOME/bin/}jlink
command -v "$JLINK" >/dev/null || JLINK=jlink

# One module-path entry per jar: a directory of all of them would hold two jars of one module
# (netty's native transports come in one jar per platform classifier) and jlink refuses a
# directory with duplicates; across separate entries the first one wins and only modules
# lookout.console reaches are resolved at all.
module_path=$(tr -d '\n' < "$mp_file")

# Netty's native epoll library (the engine loop's transport on Linux) is a module of its own that
# nothing requires: it is found as a resource. Add the one for this machine when it is there;
# without it the engine falls back to NIO and says so in its log.
# jdk.crypto.ec: elliptic-curve keys and TLS key exchange for status.tls (a provider module, found
# through the service binding of java.base at run time, which jlink does not do by itself).
modules=lookout.console,jdk.crypto.ec
runtime_modules=
case $(uname -m) in
    x86_64) native=x86_64 lookout_arch=x86_64 ;;
    aarch64) native=aarch_64 lookout_arch=aarch64 ;;
    *) native= lookout_arch= ;;
esac
if [[ -n $native ]] && grep -q "netty-transport-native-epoll-[^:]*-linux-$native\.jar" "$mp_file"; then
    modules+=",io.netty.transport.epoll.linux.$native"
    # in the image is not in the module graph: the launcher resolves it too (--add-modules)
    runtime_modules="--add-modules io.netty.transport.epoll.linux.$native "
else
    echo "build-image: no Netty epoll native library for $(uname -m); the image's engine will use NIO" >&2
fi

rm -rf "$out"
"$JLINK" \
    --module-path "$module_path" \
    --add-modules "$modules" \
    --launcher lookout=lookout.console/lookout.console.Main \
    --compress=2 \
    --strip-debug \
    --no-header-files \
    --no-man-pages \
    --output "$out"

# The engine's JNI library (liblookoutnet.so: natively read UDP sockets, engine/src/main/c) goes
# into the image's lib/, where System.loadLibrary finds it for a named module: the image runs it
# from there and never unpacks it to a temporary directory (which may be mounted noexec). It is
# taken from the engine jar (or classes directory) on the module path, built for this machine.
native_lib=lookout/engine/net/native/linux-$lookout_arch/liblookoutnet.so
engine_entry=$(tr ':' '\n' < "$mp_file" | grep -E '/lookout-engine-[^/]*\.jar$|/engine/target/classes/?$' | head -1 || true)
copied=
if [[ -n $lookout_arch && -n $engine_entry ]]; then
    if [[ -d $engine_entry && -f $engine_entry/$native_lib ]]; then
        cp "$engine_entry/$native_lib" "$out/lib/liblookoutnet.so" && copied=1
    elif [[ -f $engine_entry ]]; then
        JAR=${JAVA_HOME:+$JAVA_HOME/bin/}jar
        command -v "$JAR" >/dev/null || JAR=jar
        unpack=$(mktemp -d)
        if (cd "$unpack" && "$JAR" xf "$engine_entry" "$native_lib") && [[ -f $unpack/$native_lib ]]; then
            cp "$unpack/$native_lib" "$out/lib/liblookoutnet.so" && copied=1
        fi
        rm -rf "$unpack"
    fi
fi
if [[ -n $copied ]]; then
    chmod 755 "$out/lib/liblookoutnet.so"
else
    echo "build-image: no liblookoutnet.so for $(uname -m) in ${engine_entry:-the module path}; the image's resolver reads UDP through Netty" >&2
fi

# jlink's own launcher runs java as a child of sh and resolves its directory from $0: SIGTERM
# to the launcher would not reach the JVM (so --headless could not stop cleanly), and a symlink
# to it (/usr/local/bin/lookout) would look for java beside the link. This one execs the JVM
# and follows links.
#
# Its JVM options suit a long-running service and a desktop alike (docs/design/dns.md,
# "Footprint"); LOOKOUT_OPTS comes after them, so any of them can be overridden there (the JVM
# takes the last of each):
#   -Xmx   128 MiB for the engine and the console, plus 512 bytes for each entry of the
#          resolver's cache (resolver.cache_size in the file given with --config, else the
#          embedded default's 10 000) and 512 for each name of pva.watch there: the JVM's own
#          default, a quarter of the machine, let a benchmark's garbage grow it to 800 MB and keep
#          it; the engine warns at start and on a reload when the limit it runs with is too small
#          for them (lookout.engine.core.HeapBudget)
#   -Xms32m a small start, grown as needed (the default is 1/64 of the machine)
#   G1 with a periodic collection after a minute without one, which gives unused heap back to the
#          system (an idle console or service shrinks again); pauses of a few milliseconds on
#          heaps this size, where a serial or parallel collector's full collections of a churning
#          cache would stop the resolver for tens. A 10-ms pause goal, and objects that survive
#          one young collection promoted at the next: a cache entry lives for seconds (the cache's
#          size over the rate of misses), and with G1's default of up to 15 copies between
#          survivor spaces the copying made young pauses of 5 ms on average and 12 ms at the 99th
#          percentile in bench/soak.sh (100 000 entries, 8 000 misses a second)
#   -Xss512k, metaspace and code cache caps: what the engine's threads and classes need, with room
cat > "$out/bin/lookout" <<LAUNCHER
#!/bin/sh
# Lookout launcher: lookout [--config FILE | --headless ... | --check-config FILE | --help]
DIR=\$(dirname "\$(readlink -f "\$0")")
# the resolver's cache size, from the configuration file when one is given (else the default's)
cache=10000
file=
prev=
for a in "\$@"; do
    case \$prev in --config | --check-config) file=\$a ;; esac
    case \$a in --config=*) file=\${a#--config=} ;; esac
    prev=\$a
done
# and the names of pva.watch, each given heap too (lookout.engine.core.HeapBudget)
watched=0
if [ -n "\$file" ] && [ -r "\$file" ]; then
    n=\$(grep -o 'cache_size[[:space:]]*=>*[[:space:]]*[0-9][0-9]*' "\$file" 2>/dev/null | head -1 | grep -o '[0-9][0-9]*\$')
    [ -n "\$n" ] && cache=\$n
    n=\$(awk '
        { line = \$0; sub(/#.*/, "", line) }
        !inside { if (!match(line, /(^|[^A-Za-z0-9_])watch[ \t]*=>?[ \t]*\[/)) next
                  line = substr(line, RSTART + RLENGTH); inside = 1 }
        { gsub(/"[^"]*"/, " x ", line); e = index(line, "]"); if (e) line = substr(line, 1, e - 1)
          m = split(line, t, /[ \t,;]+/); for (i = 1; i <= m; i++) if (t[i] != "") k++
          if (e) { print k + 0; found = 1; exit } }
        END { if (!found) print k + 0 }' "\$file" 2>/dev/null)
    [ -n "\$n" ] && watched=\$n
fi
heap=\$((128 + cache / 2048 + watched / 2048))
JVM_OPTS="-Xms32m -Xmx\${heap}m -XX:+UseG1GC -XX:MaxGCPauseMillis=10 -XX:MaxTenuringThreshold=1 -XX:G1PeriodicGCInterval=60000 -Xss512k -XX:MaxMetaspaceSize=192m -XX:ReservedCodeCacheSize=96m"
# shellcheck disable=SC2086
exec "\$DIR/java" \$JVM_OPTS \$LOOKOUT_OPTS ${runtime_modules}-m lookout.console/lookout.console.Main "\$@"
LAUNCHER
chmod 755 "$out/bin/lookout"

# The application icons (made by the console work, icons/*.png from 16 to 512 px and the SVG
# source) ship in the image beside the runtime, for desktop files and packagers. The window
# icon itself is loaded by the console from its own module resources.
if compgen -G "$icons/*.png" >/dev/null; then
    mkdir -p "$out/lib/icons"
    cp "$icons"/*.png "$out/lib/icons/"
    cp "$icons"/*.svg "$out/lib/icons/" 2>/dev/null || true
else
    echo "build-image: no icons in $icons (the image is built without them)" >&2
fi

# The service: a systemd unit, an example configuration for it, and the Prometheus files (scrape
# configuration, recording and alerting rules) a site starts from. See the README, "Install as a
# service", and docs/design/service.md.
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/lib/systemd" "$out/lib/prometheus"
cp "$here/lookout.service" "$out/lib/systemd/lookout.service"
cp "$here/lookout.conf.example" "$out/lib/lookout.conf.example"
cp "$here/../docs/prometheus/"*.yml "$here/../docs/prometheus/"*.json "$out/lib/prometheus/"

cat > "$out/lookout.desktop" <<'DESKTOP'
[Desktop Entry]
Type=Application
Name=Lookout
Comment=Control-room console: DNS resolver, weighted pools, EPICS PVA name resolution
Exec=lookout
Icon=lookout
Categories=Network;Monitor;
Terminal=false
DESKTOP

"$out/bin/java" --list-modules > "$out/lib/modules.txt"
size=$(du -sh "$out" | cut -f1)
echo "build-image: $out/bin/lookout ($size, $(wc -l < "$out/lib/modules.txt") modules)"
