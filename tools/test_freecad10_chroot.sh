#!/usr/bin/env bash
# Run the test suite on FreeCAD 1.0 (Debian 13 "trixie") from a Debian 12 host, in a chroot.
# CI runs it through tools/test_freecad1x.sh. Needs root, debootstrap and network access to a Debian mirror.
#
#   sudo tools/test_freecad10_chroot.sh              # test the committed HEAD
#   sudo tools/test_freecad10_chroot.sh --worktree   # test the working tree (uncommitted edits too)
#   sudo tools/test_freecad10_chroot.sh --no-gui     # skip tests/gui
#   sudo tools/test_freecad10_chroot.sh --worktree --only tests/cad/test_assembly_freecad.py
#                                                    # run only these pytest arguments
#
# The chroot (default /var/tmp/trixie, override with CHROOT=...) is built once with
# `debootstrap --variant=minbase` and reused. The mirror is taken at run time from the host's
# apt configuration (the repository labelled "Debian"); MIRROR=... overrides it. The repository
# is copied to <chroot>/root/repo (the host checkout is never mounted into the chroot). Tests
# run with trixie's /usr/bin/python3: tests/cad (headless FreeCAD 1.0, including the real
# Assembly import), the solver tests tests/test_*.py, then tests/gui under xvfb-run.
set -euo pipefail

CHROOT=${CHROOT:-/var/tmp/trixie}
SUITE=${SUITE:-trixie}
REPO=$(cd "$(dirname "$0")/.." && pwd)
PACKAGES="freecad python3-numpy python3-scipy python3-numba python3-matplotlib python3-pytest xvfb xauth
          poppler-utils python3-pil git ca-certificates python3-dask python3-distributed gmsh python3-venv"
# calculix-ccx is not in trixie (main, index of 2026-11-21: only calculix-ccx-test 2.22-1, arch all, which
# Recommends the absent calculix-ccx), so the CalculiX runs skip in the chroot (tests/cad/conftest.py FEM_TOOLS).
WORKTREE=0
GUI=1
ONLY=""
while [ $# -gt 0 ]; do
    case "$1" in
        --worktree) WORKTREE=1 ;;
        --no-gui) GUI=0 ;;
        --only) shift; ONLY="$*"; break ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap, mount, chroot)" >&2; exit 2; }
# One run at a time per machine: every run copies the repository to the same <chroot>/root/repo.
exec 9>/var/lock/mbd-chroot.lock
flock 9 || { echo "cannot lock /var/lock/mbd-chroot.lock" >&2; exit 2; }

host_mirror() {
    # The host's Debian archive (not -security, not third-party repositories), as apt sees it.
    local uri
    uri=$(apt-get indextargets --format '$(REPO_URI) $(LABEL)' 2>/dev/null | awk '$2 == "Debian" {print $1; exit}')
    if [ -z "$uri" ]; then
        uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
              | grep -v '^\s*#' | grep -oE '(https?|file)://[^ ]*/debian/?( |$)' | head -n1 | tr -d ' ')
    fi
    echo "${uri%/}"
}

MIRROR=${MIRROR:-$(host_mirror)}
[ -n "$MIRROR" ] || { echo "no Debian mirror found in the host's apt configuration; set MIRROR=" >&2; exit 2; }

# ---------------------------------------------------------------- chroot
if [ ! -x "$CHROOT/usr/bin/apt-get" ]; then
    if ! command -v debootstrap >/dev/null; then
        apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null
    fi
    echo "== debootstrap $SUITE into $CHROOT"
    # built beside and renamed when complete, so that an interrupted build is never reused
    rm -rf "$CHROOT.partial"
    mkdir -p "$(dirname "$CHROOT")"
    debootstrap --variant=minbase "$SUITE" "$CHROOT.partial" "$MIRROR"
    rm -rf "$CHROOT"
    mv "$CHROOT.partial" "$CHROOT"
fi

MOUNTED=()
cleanup() {
    local k
    # A process that is still closing (FreeCAD's background cache job) can hold a mount for a moment:
    # retry once, then detach it lazily so no mount outlives the run.
    for ((k = ${#MOUNTED[@]} - 1; k >= 0; k--)); do
        umount "${MOUNTED[k]}" 2>/dev/null || { sleep 2; umount "${MOUNTED[k]}" 2>/dev/null; } \
            || umount -l "${MOUNTED[k]}" || true
    done
}
trap cleanup EXIT
for d in proc sys dev dev/pts; do
    if ! mountpoint -q "$CHROOT/$d"; then
        mount --bind "/$d" "$CHROOT/$d"
        MOUNTED+=("$CHROOT/$d")
    fi
done
cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"

in_chroot() {
    chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive QTWEBENGINE_CHROMIUM_FLAGS=--no-sandbox "$@"
}

# The package list's fingerprint is kept in the chroot: when PACKAGES changes, the packages are installed again.
STAMP="$CHROOT/etc/mbdworkbench-packages"
WANTED="$SUITE $(echo $PACKAGES)"
# shellcheck disable=SC2086
if [ "$(cat "$STAMP" 2>/dev/null)" != "$WANTED" ] || ! in_chroot dpkg-query -W $PACKAGES >/dev/null 2>&1; then
    echo "== installing packages in the chroot"
    in_chroot apt-get update
    in_chroot apt-get install -y --no-install-recommends $PACKAGES
    echo "$WANTED" > "$STAMP"
fi
in_chroot dpkg-query -W freecad python3 python3-numpy python3-numba

# ---------------------------------------------------------------- repository copy
rm -rf "$CHROOT/root/repo"
git clone -q "$REPO" "$CHROOT/root/repo"
if [ "$WORKTREE" = 1 ]; then  # overlay uncommitted edits and new files (not ignored ones)
    (cd "$REPO" && git ls-files -z --cached --others --exclude-standard \
        | tar --null --ignore-failed-read -cf - -T -) | tar -xf - -C "$CHROOT/root/repo"
    (cd "$REPO" && git ls-files -z --deleted) | (cd "$CHROOT/root/repo" && xargs -0 -r rm -f)
fi
# python-fcl for mesh-mesh pairs (docs/contact.md), through the host's certificates (a TLS proxy's CA, if any)
cp /etc/ssl/certs/ca-certificates.crt "$CHROOT/root/host-ca.crt"
in_chroot bash -c "cd /root/repo && PIP_CERT=/root/host-ca.crt bash tools/contact_venv.sh"
echo "== testing $(cd "$REPO" && git rev-parse --short HEAD)$([ "$WORKTREE" = 1 ] && echo ' + working tree')"

# ---------------------------------------------------------------- tests
declare -A STATUS
run() {
    # pytest in the chroot; a test that skips because FreeCAD, its GUI or the Assembly workbench is missing counts
    # as a failure here: in this chroot they are all installed, so such a skip means the tests did not really run.
    local name=$1; shift
    local log="$CHROOT/root/pytest-$name.log"
    echo "== $name"
    if in_chroot bash -c "cd /root/repo && /usr/bin/python3 -m pytest -q -p no:cacheprovider -rs $*" | tee "$log" \
        && [ "${PIPESTATUS[0]}" = 0 ]; then
        STATUS[$name]=passed
    else
        STATUS[$name]=FAILED
    fi
    if grep -E '^SKIPPED' "$log" | grep -qiE 'assembly workbench|FreeCAD is not available|no GUI|xvfb'; then
        echo "!! $name: FreeCAD 1.x tests skipped in the chroot (see the SKIPPED lines above)"
        STATUS[$name]=FAILED
    fi
}
if [ -n "$ONLY" ]; then
    run only "$ONLY"
else
    run cad tests/cad
    run solver 'tests/test_*.py'
    [ "$GUI" = 1 ] && run gui tests/gui
fi

echo "== summary (FreeCAD $(in_chroot dpkg-query -W -f '${Version}' freecad))"
rc=0
for name in only cad solver gui; do
    [ -n "${STATUS[$name]:-}" ] || continue
    echo "  $name: ${STATUS[$name]}"
    [ "${STATUS[$name]}" = passed ] || rc=1
done
exit $rc
