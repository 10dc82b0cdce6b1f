#!/usr/bin/env bash
# Install what MBD Workbench needs from Debian's packages (idempotent; quiet when all is there).
# FreeCAD's Python is the system /usr/bin/python3: every command of the project uses it.
set -euo pipefail
PKGS=(freecad python3-numpy python3-scipy python3-numba python3-matplotlib python3-pytest python3-dask python3-distributed
      python3-pil xvfb xauth poppler-utils calculix-ccx gmsh)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
/usr/bin/python3 -c "import numpy, scipy, numba, matplotlib, pytest" >/dev/null
# python-fcl, the collision library of mesh-mesh contact pairs, in the git-ignored .venv-contact (idempotent)
bash "$(dirname "$0")/contact_venv.sh"
