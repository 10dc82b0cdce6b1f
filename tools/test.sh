#!/usr/bin/env bash
# The linter (tools/lint.sh), then the whole test suite with FreeCAD's Python (installs what it needs first).
# The tests run even when the linter has findings; the exit status is non-zero if either failed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
lint=0
bash tools/lint.sh || lint=$?
/usr/bin/python3 -m pytest -q -p no:cacheprovider tests "$@"
if [ "$lint" -ne 0 ]; then
  echo "test: tests passed but tools/lint.sh found problems (see above)" >&2
fi
exit "$lint"
