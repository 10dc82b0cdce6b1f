#!/usr/bin/env bash
# The linter (tools/lint.sh), the whole test suite with FreeCAD's Python (installs what it needs first), then the
# FreeCAD 1.x tests (tools/test_freecad1x.sh: natively on a FreeCAD 1.x host, else in a Debian 13 chroot).
# Every part runs even when an earlier one failed; the exit status is non-zero if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
lint=0
bash tools/lint.sh || lint=$?
tests=0
/usr/bin/python3 -m pytest -q -p no:cacheprovider tests "$@" || tests=$?
fc1x=0
bash tools/test_freecad1x.sh || fc1x=$?
[ "$lint" -eq 0 ] || echo "test: tools/lint.sh found problems (see above)" >&2
[ "$tests" -eq 0 ] || echo "test: the test suite failed (see above)" >&2
[ "$fc1x" -eq 0 ] || echo "test: the FreeCAD 1.x tests failed (see above)" >&2
[ "$lint" -eq 0 ] && [ "$tests" -eq 0 ] && [ "$fc1x" -eq 0 ]
