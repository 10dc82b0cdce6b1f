"""The free-body diagram of Animate in the real FreeCAD GUI under Xvfb at FreeCAD's default
window and task-dock size (tests/gui/macros/macro_free_body.py): picking a part draws one arrow
per load of its body's load set in a node of the 3D view's scene graph, at the load points; the
arrows follow the slider and the playback; the body list switches bodies; closing Animate
removes the node and leaves the document unchanged. Set MBD_GUI_ARTIFACTS=<dir> to keep the
screenshot (mbd_free_body.png)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


@pytest.fixture(scope="module")
def gui_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("free_body")
    home = make_user_home(tmp / "home", install=True)
    run = run_gui_macro(MACROS / "macro_free_body.py", tmp / "out", user_home=home, timeout=600)
    run.keep_artifacts("free_body")
    run.assert_finished()
    return run


def test_picking_a_part_draws_its_loads(gui_run):
    gui_run.assert_passed(
        "picking the Rod part selects body 'rod'",
        "one diagram node in the view's scene graph",
        "one arrow per drawn load",
        "arrow tails at the load points",
        "gravity and inertia at the stored CoG",
        "reactions of both pins, gravity, inertia",
        "table: every load and the sum",
        "the loads balance",
        "no values shown by default",
        "values at the arrows",
    )


def test_arrows_follow_the_playback(gui_run):
    gui_run.assert_passed("the arrows follow the slider", "played", "the arrows follow the playback")


def test_body_list(gui_run):
    gui_run.assert_passed(
        "slider chosen in the list",
        "slider arrows drawn",
        "'(none)': no arrows",
        "picking the crank's MBD Body object selects it",
    )


def test_closing_removes_the_diagram(gui_run):
    gui_run.assert_passed(
        "diagram node removed", "document not modified", "undo list unchanged", "undo list unchanged while animating"
    )
    stats = png_stats(gui_run.out_dir / "mbd_free_body.png")
    assert stats["png"] and stats["width"] > 300
