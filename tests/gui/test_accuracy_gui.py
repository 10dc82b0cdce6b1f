"""The accuracy line of the Simulation panel in the real FreeCAD GUI
(tests/gui/macros/macro_accuracy.py). Set MBD_GUI_ARTIFACTS=<dir> to keep the screenshot."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_simulation_panel_shows_the_accuracy(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_accuracy.py", tmp_path / "out", user_home=home, timeout=400)
    run.keep_artifacts("accuracy")
    run.assert_finished()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    assert run.ok and "switched off says so" in run.checks(), run.describe()
    (png,) = run.screenshots
    assert png_stats(png)["width"] > 200
