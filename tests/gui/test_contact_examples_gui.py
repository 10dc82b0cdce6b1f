"""The contact examples solved and animated in the real FreeCAD GUI under Xvfb, at FreeCAD's default
window and task-dock size (tests/gui/macros/macro_contact_examples.py): the cam-follower's follower
shown at the cam's closed-form lift with its contact force arrow (|F| x scale long, |F| from the
stored contacts.csv) and the plot dock's contact force; the drop test's ball at rest on the plate,
its arrow its weight; Animate changes neither document. The macro also writes the screenshots of
docs/contact.md (tools/make_screenshots.py); MBD_GUI_ARTIFACTS=<dir> keeps them."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_contact_examples_animated_with_their_arrows(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_contact_examples.py", tmp_path / "out", user_home=home, timeout=900)
    run.keep_artifacts("contact_examples")
    run.assert_finished()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    run.assert_passed(
        "cam_follower not modified at open",
        "cam_follower solved",
        "cam: follower shown at the closed-form lift",
        "cam: one arrow |F| x scale long",
        "cam: the dock plots contacts.csv's normal force",
        "drop_test solved",
        "drop: the ball resting on the plate",
        "drop: one arrow |F| x scale long",
        "cam_follower unchanged by Animate",
        "drop_test unchanged by Animate",
    )
