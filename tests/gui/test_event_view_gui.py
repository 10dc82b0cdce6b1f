"""Stop impacts and contact forces in Animate in the real FreeCAD GUI under Xvfb at FreeCAD's
default window and task-dock size (tests/gui/macros/macro_event_view.py): a stop impact flashes
the joint's part for a few samples, a contact pair in contact shows an arrow at its contact point
whose length is |F| (contacts.csv) times the scale setting, and closing Animate removes the nodes
and leaves the document's objects, placements, modified flag and undo list unchanged. Set
MBD_GUI_ARTIFACTS=<dir> to keep the screenshots (mbd_event_impact.png, mbd_event_contact.png)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


@pytest.fixture(scope="module")
def gui_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("event_view")
    home = make_user_home(tmp / "home", install=True)
    run = run_gui_macro(MACROS / "macro_event_view.py", tmp / "out", user_home=home, timeout=600)
    run.keep_artifacts("event_view")
    run.assert_finished()
    return run


def test_stop_impact_flashes_the_joint(gui_run):
    gui_run.assert_passed(
        "the run has stop impacts",
        "events group shown",
        "no flash before the impact",
        "the joint flashes at the impact",
        "one outline in the view's scene graph",
    )


def test_contact_arrow_length_is_the_force_times_the_scale(gui_run):
    gui_run.assert_passed(
        "the pair touches the floor",
        "one arrow in contact",
        "arrow length = |F| x scale",
        "doubling the scale doubles the arrow",
        "no arrow out of contact",
    )


def test_plot_dock_marks_the_events_and_plots_the_contact(gui_run):
    gui_run.assert_passed(
        "dock: impacts marked at their times",
        "dock lists the contact pair",
        "dock: the pair's normal force is contacts.csv's",
    )


def test_closing_leaves_the_document_unchanged(gui_run):
    gui_run.assert_passed(
        "saved: not modified before Animate",
        "nodes removed",
        "objects unchanged",
        "placements unchanged",
        "document not modified",
        "undo list unchanged",
        "report frames: nodes removed",
        "report frames: placements and undo list unchanged",
    )
    failed = [name for name, ok in gui_run.checks().items() if not ok]
    assert not failed, gui_run.describe()
