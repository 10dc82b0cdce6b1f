"""The event loop never stalls during Solve (issue 36): the largest gap (not a percentile) between
two ticks of a 10 ms QTimer over the whole of MBD_Solve -- the model built from the document, the
run in its worker thread, the results archive written and read back, stored and plotted, up to the
summary box -- stays under 100 ms, with a filled kernel cache (slider-crank and four-bar to 20 s,
two Solves each) and with an empty one (the interpreted start while the background process
compiles). In the real FreeCAD 0.20 GUI under Xvfb (tests/gui/macros/macro_solve_gaps.py, which
samples the GUI thread's stack during any stall so a failure names what blocked it).

The machine these tests run on is shared: a stall of the whole process (the scheduler, Xvfb) is
no regression of ours, so the assertion allows MBD_GAP_MARGIN (default 1.5) times 100 ms when the
load average per core exceeds 1, and a larger gap at a load beyond 3 per core skips the test with
its numbers (measured on 2026-12-05 with the solver process: 0.05 s warm and cold at a load of
0.1-0.6, 0.12-0.33 s at 6-8 per core). bench/gui_gaps.py records the numbers
(bench/results/gui_gaps.md). About 1 min warm, 1-2 min cold."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACRO = Path(__file__).resolve().parent / "macros" / "macro_solve_gaps.py"
TARGET_S = 0.1
MARGIN = float(os.environ.get("MBD_GAP_MARGIN", "1.5"))
OVERLOAD = 3.0  # load average per core beyond which a stall is the machine's (the test skips)

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def allowed_gap(load_average: list) -> float:
    """The gap allowed [s]: the target, times MARGIN on a machine loaded beyond one job per core."""
    per_core = max(load_average) / (os.cpu_count() or 1)
    return TARGET_S * (MARGIN if per_core > 1.0 else 1.0)


def run_gaps(tmp_path, cold: bool):
    """The macro's result (dict) for a warm or an empty kernel cache."""
    home = make_user_home(tmp_path / "home", install=True)
    env = {}
    if cold:
        cache = tmp_path / "empty_cache"
        cache.mkdir()
        env = {
            "XDG_CACHE_HOME": str(cache),
            "MBD_COLD_START": "interpret",
            "MBD_GAP_COLD": "1",
            "MBD_GAP_CASES": "slider_crank.FCStd:1",
            "MBD_GAP_RUNS": "1",
        }
    run = run_gui_macro(MACRO, tmp_path / "out", user_home=home, timeout=900, extra_env=env)
    run.keep_artifacts("solve_gaps_cold" if cold else "solve_gaps")
    run.assert_finished()
    assert run.ok, run.describe()
    return run.result


def assert_no_stall(result):
    """Every Solve's largest gap under the allowed one; on a machine loaded beyond OVERLOAD jobs
    per core a larger gap skips the test (naming the numbers): it measures the machine then."""
    loads = [result["load_average"], *[r.get("load_average", [0.0]) for r in result["runs"]]]
    allowed = max(allowed_gap(x) for x in loads)
    per_core = max(max(x) for x in loads) / (os.cpu_count() or 1)
    for run in result["runs"]:
        blocked = [" > ".join(s["gui"][-4:]) for s in run["worst_gap_samples"][:3]]
        what = (run["case"], run["run"], run["max_gap_s"], allowed, blocked)
        if run["max_gap_s"] >= allowed and per_core > OVERLOAD:
            pytest.skip("not measurable: load %.1f per core; %s" % (per_core, what))
        assert run["max_gap_s"] < allowed, what


def test_largest_gap_with_a_filled_cache(tmp_path):
    result = run_gaps(tmp_path, cold=False)
    assert len(result["runs"]) == 4
    assert_no_stall(result)


def test_largest_gap_on_an_empty_cache(tmp_path):
    """The Solve runs in the solver process while the background process compiles: measured 0.047 s
    at a load of 0.6 (bench/results/gui_gaps.md, "quiet-06UTC"); skips with its numbers under load."""
    result = run_gaps(tmp_path, cold=True)
    assert result["warm_up"].get("done") is False  # the Solve ran while the kernels compiled
    assert_no_stall(result)
