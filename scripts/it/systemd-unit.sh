#!/usr/bin/env bash
# The service's systemd unit (lib/systemd/lookout.service in the image) passes
# `systemd-analyze verify` (Debian package systemd; no running systemd needed) with the image's
# own launcher in place of /opt/lookout, and its hardening scores at most 2.0 in
# `systemd-analyze security --offline` (0 is best, 10 worst). The example configuration the image
# ships for the service passes --check-config.
#   scripts/it/systemd-unit.sh [IMAGE_DIR]
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
image=${1:-${LOOKOUT_IMAGE:-$root/jlink/target/lookout}}
unit=$image/lib/systemd/lookout.service
command -v systemd-analyze >/dev/null || { echo "systemd-unit: systemd-analyze missing (Debian package systemd, see .ci/run)" >&2; exit 1; }
[[ -f $unit ]] || { echo "systemd-unit: FAIL: no unit at $unit" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "systemd-unit: FAIL: $*" >&2; exit 1; }

grep -q '^ExecStart=/opt/lookout/bin/lookout --headless --config /etc/lookout/lookout.conf$' "$unit" \
    || fail "ExecStart is not the headless engine on /etc/lookout/lookout.conf"
grep -q '^ExecReload=/bin/kill -HUP \$MAINPID$' "$unit" || fail "ExecReload is not SIGHUP"
for key in StateDirectory=lookout Restart=on-failure AmbientCapabilities=CAP_NET_BIND_SERVICE NoNewPrivileges=yes \
           ProtectSystem=strict ProtectHome=yes PrivateTmp=yes ReadWritePaths=/etc/lookout; do
    grep -q "^$key\$" "$unit" || fail "the unit lacks $key"
done

# verify checks that the commands exist: point it at this image's launcher
sed "s#/opt/lookout/#$image/#g" "$unit" > "$work/lookout.service"
if ! systemd-analyze verify "$work/lookout.service" > "$work/verify.out" 2>&1 || [[ -s $work/verify.out ]]; then
    cat "$work/verify.out" >&2
    fail "systemd-analyze verify did not accept the unit"
fi
echo "systemd-unit: ok: systemd-analyze verify accepts lib/systemd/lookout.service"

if ! systemd-analyze security --offline=yes --threshold=20 "$work/lookout.service" > "$work/security.out" 2>&1; then
    tail -30 "$work/security.out" >&2
    fail "systemd-analyze security rates the unit above 2.0"
fi
echo "systemd-unit: ok: $(grep -o 'Overall exposure level.*' "$work/security.out")"

export HOME=$work/home
mkdir -p "$HOME"
timeout 60 "$image/bin/lookout" --check-config "$image/lib/lookout.conf.example" \
    || fail "the example configuration lib/lookout.conf.example does not pass --check-config"
grep -q '^state_dir => /var/lib/lookout' "$image/lib/lookout.conf.example" \
    || fail "the example configuration does not put its state where StateDirectory= is"
echo "systemd-unit: all passed"
