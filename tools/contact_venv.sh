#!/usr/bin/env bash
# The git-ignored .venv-contact: FreeCAD's Python with the system site packages plus python-fcl
# (the collision library of mesh-mesh contact pairs, docs/contact.md "Mesh against mesh"), NumPy
# pinned to Debian's so that the system NumPy stays the one imported. Idempotent: quick when present.
set -euo pipefail
cd "$(dirname "$0")/.."
FCL_VERSION=0.7.0.11
VENV=.venv-contact
PY=$VENV/bin/python
if [ -x "$PY" ] && "$PY" -c "import fcl, sys; sys.exit(fcl.__version__ != '$FCL_VERSION')" 2>/dev/null; then
  exit 0
fi
/usr/bin/python3 -c "import ensurepip, venv" 2>/dev/null || {
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "contact_venv: installing python3-venv" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq python3-venv >/dev/null
}
echo "contact_venv: installing python-fcl $FCL_VERSION into $VENV" >&2
[ -x "$PY" ] || /usr/bin/python3 -m venv --system-site-packages "$VENV"
NUMPY=$(/usr/bin/python3 -c "import numpy; print(numpy.__version__)")
echo "numpy==$NUMPY" > "$VENV/numpy-constraint.txt"
"$PY" -m pip install -q --disable-pip-version-check -c "$VENV/numpy-constraint.txt" "python-fcl==$FCL_VERSION"
"$PY" -c "import fcl, numpy; assert numpy.__version__ == '$NUMPY', numpy.__version__"
