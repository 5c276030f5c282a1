#!/usr/bin/env bash
# Builds liblookoutnet.so, the engine's JNI library (natively read UDP sockets: NativeDatagram),
# for the machine the build runs on; called by engine/pom.xml in the process-classes phase.
#   build.sh JAVA_HOME HEADER_DIR OUTPUT_DIR
# The library goes to OUTPUT_DIR/linux-ARCH/liblookoutnet.so (ARCH: x86_64 or aarch64), which is
# in the engine's classes: on the test class path, in the engine jar and in every jar made from it;
# jlink/build-image.sh copies it into the runtime image's lib/.
# Another OS or architecture gets no library (the engine reads UDP through Netty there); on Linux
# a missing compiler fails the build, since a silent skip would turn every native test into a skip.
set -euo pipefail

java_home=$1
headers=$2
out=$3
src=$(cd "$(dirname "$0")" && pwd)

case $(uname -s) in
    Linux) ;;
    *) echo "liblookoutnet: not built on $(uname -s) (Linux only); UDP is read through Netty"; exit 0 ;;
esac
case $(uname -m) in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) echo "liblookoutnet: not built for $(uname -m) (x86_64 and aarch64 only); UDP is read through Netty"; exit 0 ;;
esac
if ! command -v gcc > /dev/null; then
    echo "liblookoutnet: no gcc; install gcc and libc6-dev (Debian), or build with -Dlookout.native.skip=true" >&2
    exit 1
fi
[[ -f $java_home/include/jni.h ]] || { echo "liblookoutnet: no $java_home/include/jni.h (a JDK, not a JRE, is needed)" >&2; exit 1; }

mkdir -p "$out/linux-$arch"
# -fvisibility=hidden: only the JNIEXPORT functions are exported
gcc -std=c11 -O2 -fPIC -shared -fvisibility=hidden -fstack-protector-strong -D_FORTIFY_SOURCE=2 \
    -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion \
    -I"$java_home/include" -I"$java_home/include/linux" -I"$headers" \
    -Wl,-soname,liblookoutnet.so -Wl,-z,noexecstack -Wl,-z,relro -Wl,-z,now \
    -o "$out/linux-$arch/liblookoutnet.so" "$src/lookout_net.c"
