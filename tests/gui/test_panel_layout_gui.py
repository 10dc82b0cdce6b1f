"""Every task panel at FreeCAD's DEFAULT window and task-dock sizes, in the real FreeCAD 0.20 GUI
under Xvfb (tests/gui/macros/macro_panel_layout.py): nothing resized, each panel opened on a copy
of examples/slider_crank.FCStd and checked for clipping (no horizontal scroll bar in the task
view; every visible widget inside the viewport and at least its minimumSizeHint wide; buttons
and check boxes their sizeHint; a label's text, a number field's digits and a combo box's
current item fit their widget by QFontMetrics). One screenshot of the Combo View per panel
(docs/screenshots/panel_<name>.png are these, looked at).

FreeCAD 0.20's defaults, from its first start on Xvfb's 1280x1024 screen (MainWindow sizes
itself to the available screen; the Combo View dock takes its size hint): main window 1228x983,
Combo View 264x856 px, the task view's viewport 258 px wide (244 px with a vertical scroll bar).
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"
PANELS = [
    "animate",
    "body",
    "contact",
    "driver",
    "force",
    "force_element",
    "joint_create",
    "joint_edit",
    "joint_frame",
    "simulation",
    "spring",
    "study",
]
DEFAULT_COMBO_VIEW_WIDTH = 264  # px, FreeCAD 0.20 on a 1280x1024 screen

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_every_panel_fits_the_default_task_dock(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_panel_layout.py", tmp_path / "out", user_home=home, timeout=500)
    run.keep_artifacts("panel_layout")
    run.assert_finished()
    assert run.result["combo_view"][0] <= DEFAULT_COMBO_VIEW_WIDTH, run.result["combo_view"]  # not widened
    run.assert_passed(*("panel %s not clipped" % name for name in PANELS))
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    assert [p.name for p in run.screenshots] == ["panel_%s.png" % name for name in PANELS]
    for png in run.screenshots:
        stats = png_stats(png)
        assert stats["png"] and 200 < stats["width"] < 300, (png, stats)  # the dock (its frame included)
