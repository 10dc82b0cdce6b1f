"""3D symbols of springs and forces in the real FreeCAD GUI under Xvfb
(tests/gui/macros/macro_symbols.py): the pendulum with a spring, a rotational spring, a force and
a torque; the coil runs between the attachment points and the arrow starts at the application
point, at the document configuration and at an animation frame (the symbols follow the parts,
view only: undo list and modified flag unchanged). Set MBD_GUI_ARTIFACTS=<dir> to keep the
screenshot (docs/screenshots/mbd_spring_force_symbols.png)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


@pytest.fixture(scope="module")
def gui_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("symbols")
    home = make_user_home(tmp / "home", install=True)
    run = run_gui_macro(MACROS / "macro_symbols.py", tmp / "out", user_home=home, timeout=600)
    run.keep_artifacts("symbols")
    run.assert_finished()
    return run


def test_symbols_exist(gui_run):
    gui_run.assert_passed(
        "pendulum with spring and forces solved",
        "Spring has the symbol view provider",
        "PivotSpring has the symbol view provider",
        "Push has the symbol view provider",
        "Spring symbol shown",
        "Push symbol shown",
    )


@pytest.mark.parametrize("tag", ["document", "animation", "closed"])
def test_symbols_at_the_attachment_points(gui_run, tag):
    gui_run.assert_passed(
        *(
            "%s: %s" % (tag, what)
            for what in (
                "coil from the ground point",
                "coil to the bar's tip",
                "coil has turns",
                "arrow at the application point",
                "arrow along the force (body axes)",
                "arrow head shown",
                "torque arc about the CoG",
                "spiral at the joint frame",
            )
        )
    )


def test_animation_moves_the_bar_and_leaves_the_document(gui_run):
    gui_run.assert_passed(
        "the bar has swung",
        "Placement untouched",
        "undo count unchanged while animating",
        "not modified while animating",
        "undo count unchanged",
        "modified flag unchanged",
    )


def test_document_saved_before_the_symbols(gui_run):
    gui_run.assert_passed(
        "old-style spring saved",
        "old document: symbol view provider",
        "old document: not modified",
        "old document: coil drawn to the tip",
    )


def test_screenshot(gui_run):
    stats = png_stats(gui_run.out_dir / "mbd_spring_force_symbols.png")
    assert stats["png"] and stats["width"] == 800, stats


def test_every_check_passed(gui_run):
    failed = [name for name, ok in gui_run.checks().items() if not ok]
    assert not failed and gui_run.ok, gui_run.describe()
