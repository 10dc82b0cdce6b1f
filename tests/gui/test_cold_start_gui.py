"""A first Solve on an empty solver cache in the real FreeCAD GUI (tests/gui/macros/macro_cold_solve.py):
it runs in the solver process (solver/solve_process.py), interpreted while that process's background
compile fills the cache (solver/numerics/cold_start.py), so nothing compiles or solves in FreeCAD's
process and the event loop keeps ticking;
after the background compile a second Solve loads the compiled kernels and gives the same samples.
About 1.5 min (the background compile of the rk4 kernels)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_first_solve_on_an_empty_cache_runs_interpreted_then_compiled(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    empty_cache = tmp_path / "cache"
    empty_cache.mkdir()
    run = run_gui_macro(
        MACROS / "macro_cold_solve.py",
        tmp_path / "out",
        user_home=home,
        timeout=900,
        extra_env={"XDG_CACHE_HOME": str(empty_cache), "MBD_COLD_START": "interpret"},
    )
    run.keep_artifacts("cold_solve")
    run.assert_finished()
    run.assert_passed(
        "warm-up compiling in the background",
        "first Solve completed",
        "no kernel ran in FreeCAD's process",
        "nothing compiled in FreeCAD's process",
        "the background compile still runs after it",
        "the event loop kept ticking",
        "background compile finished without error",
        "the kernels are in the cache",
        "second Solve completed",
        "second Solve: compiled kernels loaded from the cache, none compiled",
        "same samples interpreted and compiled",
    )
