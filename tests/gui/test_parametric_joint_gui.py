"""A parametric joint in the real FreeCAD GUI under Xvfb (tests/gui/macros/macro_parametric_joint.py):
made with the joint command by picking a cylinder's edge in its task panel; a CAD edit (the
cylinder moved, turned and lengthened, then recomputed) moves the joint's Frame and its 3D frame
symbol to the edge's new centre and axis; a broken reference marks the joint in error and Check
names it. Renders the 3D view before and after the edit, side by side in mbd_parametric_joint.png
(the one in docs/screenshots). Set MBD_GUI_ARTIFACTS=<dir> to keep them."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_cad_edit_moves_a_joint_frame(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_parametric_joint.py", tmp_path / "out", user_home=home, timeout=200)
    run.keep_artifacts("parametric_joint")
    run.assert_finished()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    assert "Check refuses the broken joint" in run.checks(), run.describe()  # ran to the end
    assert [p.name for p in run.screenshots] == [
        "mbd_parametric_joint.png",
        "parametric_after.png",
        "parametric_before.png",
    ]
    for png in run.screenshots:
        stats = png_stats(png)
        assert stats["png"] and stats["width"] == (1600 if png.name.startswith("mbd") else 800), (png, stats)
