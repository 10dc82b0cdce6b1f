"""The Contact panel and the drop-test example in the real FreeCAD GUI under Xvfb
(tests/gui/macros/macro_contact.py): a contact made from a picked solid and a picked face, an
edit cancelled, all pairs among picked bodies, the example solved and animated at the first
rebound's apex (e^2 h above the plate, from the closed form)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_contact_panel_and_drop_test(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_contact.py", tmp_path / "out", user_home=home, timeout=600)
    run.keep_artifacts("contact")
    run.assert_finished()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    run.assert_passed(
        "example not modified at open",
        "command opens the contact panel",
        "picks shown as the sides",
        "sides and law written",
        "the panel's contact is a sphere on the face's plane",
        "cancel leaves the contact unchanged",
        "bounded faces: the top face's rectangle",
        "all pairs object",
        "drop test solved",
        "ball shown near its first apex e^2 h",
    )
