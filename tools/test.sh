#!/usr/bin/env bash
# The whole test suite with FreeCAD's Python (installs what it needs first).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
exec /usr/bin/python3 -m pytest -q -p no:cacheprovider tests "$@"
