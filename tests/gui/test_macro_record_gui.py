"""Objects made through the task panels are recorded as macro lines, in the real FreeCAD 0.20 GUI
under Xvfb (tests/gui/macros/macro_record.py): a macro recorded with FreeCAD's own Macro > Record
dialog while the panels make a joint, a force and a spring-damper and edit a body's mass holds
the makers' calls (FreeCADGui.doCommand) and no `import __init__` (FreeCAD writes `import
<file name of the addCommand caller>`: commands/__init__.py before); executed on a fresh copy of
the same file, it rebuilds the same objects with the same property values."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_panels_are_recorded_and_the_macro_replays(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_record.py", tmp_path / "out", user_home=home, timeout=300)
    run.assert_finished()
    run.assert_passed(
        "recording started without a message box",
        "three objects made",
        "no `import __init__` in the macro",
        "the makers' calls are in it",
        "a fresh copy has none of them",
        "replaying the macro rebuilds the same objects and values",
    )
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
