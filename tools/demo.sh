#!/usr/bin/env bash
# Set up a fresh Debian machine, link the workbench into FreeCAD, and run the showcase
# example headless: simulation results plus the motion-study report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
/usr/bin/python3 tools/install_workbench.py
MODEL=examples/ankle.json
[ -f "$MODEL" ] || MODEL=examples/slider_crank.json
OUT=out/$(basename "$MODEL" .json)
rm -rf "$OUT"
/usr/bin/python3 -m MBDWorkbench simulate "$MODEL" --out "$OUT/results" --report "$OUT/report"
echo "showcase results: $OUT/results   report: $OUT/report"
