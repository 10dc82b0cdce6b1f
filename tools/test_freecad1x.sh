#!/usr/bin/env bash
# The FreeCAD 1.x tests (real Assembly documents, FreeCAD 1.x's App and GUI), part of tools/test.sh and so of CI.
#
# Where the host's FreeCAD is 1.x (Debian 13), the host's test run has already run them: nothing more to do.
# Where it is older (Debian 12 ships 0.20, without the Assembly workbench), they run in a Debian 13 chroot
# (tools/test_freecad10_chroot.sh) kept in $MBD_CHROOT (default /var/cache/mbdworkbench/trixie): built on the
# first run (debootstrap, ~5 min with a near mirror), reused by later runs, its packages installed again when the
# script's package list changes. Needs root (or sudo) and a Debian mirror.
#
# Environment: MBD_FREECAD1X=skip leaves them out (a local run without root or network; CI never sets it);
# MBD_FREECAD1X_TESTS=... the pytest arguments (default below).
set -euo pipefail
cd "$(dirname "$0")/.."

# Every test that uses FreeCAD: tests/cad (headless; the real Assembly imports among them) and tests/gui (the real
# GUI under Xvfb). The solver tests do not use FreeCAD; they ran on the host.
TESTS=${MBD_FREECAD1X_TESTS:-"tests/cad tests/gui"}

host_version=$(/usr/bin/python3 - <<'EOF' 2>/dev/null || echo "none"
from MBDWorkbench.cad.freecad_env import import_freecad
App = import_freecad()
print(".".join(App.Version()[:2]))
EOF
)
if [ "$host_version" != none ] && [ "${host_version%%.*}" -ge 1 ] 2>/dev/null; then
    echo "freecad1x: the host has FreeCAD $host_version: its tests ran in the host's test run"
    exit 0
fi
if [ "${MBD_FREECAD1X:-}" = skip ]; then
    echo "freecad1x: SKIPPED (MBD_FREECAD1X=skip): the FreeCAD 1.x tests did not run" >&2
    exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "freecad1x: the host has FreeCAD $host_version; FreeCAD 1.x tests in the Debian 13 chroot ${MBD_CHROOT:-/var/cache/mbdworkbench/trixie}"
start=$(date +%s)
# shellcheck disable=SC2086
$SUDO env CHROOT="${MBD_CHROOT:-/var/cache/mbdworkbench/trixie}" bash tools/test_freecad10_chroot.sh --only $TESTS
echo "freecad1x: $(($(date +%s) - start)) s"
