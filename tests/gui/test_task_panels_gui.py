"""The task panels in the real FreeCAD GUI under Xvfb (tests/gui/macros/macro_task_panels.py):
Body, Joint (created by picking after starting the command, and edited), Driver and Force
(profile editor checked as you type, preview plot compared with the closed form), Spring and
Simulation (Solve from the panel) on a copy of examples/slider_crank.FCStd. OK is one undo
step with the expected values; Cancel leaves values and the undo list unchanged. Saves a
screenshot of each panel (tools/make_screenshots.py copies them to docs/screenshots). Set
MBD_GUI_ARTIFACTS=<dir> to keep them."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"
PANELS = ["body", "driver", "force", "joint_create", "joint_edit", "simulation", "spring"]

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_task_panels_in_gui(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_task_panels.py", tmp_path / "out", user_home=home, timeout=400)
    run.keep_artifacts("task_panels")
    run.assert_finished()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    assert "no panel left open" in run.checks(), run.describe()  # ran to the end
    assert [p.name for p in run.screenshots] == ["mbd_panel_%s.png" % name for name in PANELS]
    for png in run.screenshots:
        stats = png_stats(png)
        assert stats["png"] and stats["width"] > 600, (png, stats)
