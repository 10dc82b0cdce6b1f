"""The task panel built from a force type's catalogue record in the real FreeCAD GUI under Xvfb
(tests/gui/macros/macro_force_element.py): the torsion and translational springs made as
ForceElements on a copy of the pendulum (their dedicated objects switched off), picked, edited by
double click, cancelled, read into the model in SI and solved."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


@pytest.fixture(scope="module")
def gui_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("force_element")
    home = make_user_home(tmp / "home", install=True)
    run = run_gui_macro(MACROS / "macro_force_element.py", tmp / "out", user_home=home, timeout=600)
    run.keep_artifacts("force_element")
    run.assert_finished()
    return run


def test_panel_from_the_record_creates_edits_and_solves(gui_run):
    gui_run.assert_passed(
        "picked joint selected",
        "units from the record",
        "free angle in degrees",
        "OK",
        "torsion spring made as a ForceElement",
        "double click opens the record's panel",
        "cancel leaves the document unchanged",
        "edit OK",
        "edit written in one undo step",
        "body picked before opening fills the first body row",
        "free length unset by default",
        "OK spring",
        "model forces in SI",
        "solves",
    )
