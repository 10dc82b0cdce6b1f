#!/usr/bin/env bash
# Set up a fresh Debian machine, link the workbench into FreeCAD, and run the showcase
# example headless: simulation results plus the motion-study report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
# link the workbench and compile the solver kernels into the Numba cache (rk4 and galpha, 1-3 min), so
# that a new user's first Solve in FreeCAD loads them (under 2 s) instead of starting interpreted
/usr/bin/python3 tools/install_workbench.py --warm-foreground
MODEL=examples/ankle.json
[ -f "$MODEL" ] || MODEL=examples/slider_crank.json
OUT=out/$(basename "$MODEL" .json)
rm -rf "$OUT"
/usr/bin/python3 -m MBDWorkbench simulate "$MODEL" --out "$OUT/results" --report "$OUT/report"
echo "showcase results: $OUT/results   report: $OUT/report"
