"""Animate fits the 3D view to the whole motion, not the start pose, in the real FreeCAD 0.20 GUI
under Xvfb (tests/gui/macros/macro_animate_fit.py): with the view zoomed in on the solved
slider-crank (parts cut off), after opening Animate every corner of every moving part's box at
every sampled pose projects inside the view."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_animate_fits_the_view_to_the_motion(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_animate_fit.py", tmp_path / "out", user_home=home, timeout=300)
    run.assert_finished()
    run.assert_passed("zoomed in: parts cut off before Animate", "every pose of the motion is inside the view")
