"""Undo and Redo while Animate is open, in the real FreeCAD 0.20 GUI under Xvfb
(tests/gui/macros/macro_animate_undo.py): after Solve ("Store results" on the undo list) the
animation panel disables FreeCAD's Undo and Redo actions and toolbar buttons (they stay disabled
when FreeCAD updates its commands; a click on Undo changes nothing), gives them back on close
(then the same click undoes), and an undo made anyway from Python closes the panel."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_undo_is_disabled_while_animating(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_animate_undo.py", tmp_path / "out", user_home=home, timeout=400)
    run.assert_finished()
    run.assert_passed(
        "Undo and Redo disabled while animating",
        "still disabled after FreeCAD updated its commands",
        "toolbar Undo/Redo buttons disabled",
        "clicking Undo changes nothing",
        "Undo enabled again after closing",
        "then the Undo button undoes",
        "an undo made anyway closes the animation",
    )
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
