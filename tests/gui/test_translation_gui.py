"""FreeCAD loads the workbench's German translation (InitGui.py: FreeCADGui.addLanguagePath),
in the real FreeCAD 0.20 GUI under Xvfb (tests/gui/macros/macro_translation.py): with the
language set to German, panel strings and the Body command's menu entry are German; strings
without a translation and the English setting stay English."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_german_translation_is_loaded(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_translation.py", tmp_path / "out", user_home=home, timeout=200)
    run.assert_finished()
    run.assert_passed(
        "German: panel strings",
        "German: command text",
        "German: the toolbar/menu entry",
        "untranslated strings stay English",
        "English again",
    )
