"""Animation as a view-only state, Solve off the GUI thread and the plot dock that follows the
active document, in the real FreeCAD GUI under Xvfb (tests/gui/macros/macro_animation_solve.py):
Animate leaves the undo/redo lists, the modified flag and the Placements unchanged and keeps
Plots/Check enabled; closing the tab during playback closes the document without a save
prompt or a traceback in the Report view; the event loop keeps ticking while Solve runs in its
worker thread; Cancel keeps the partial results; the plot dock shows each new run and follows
the active document. About 40 s on a warm Numba cache. Set MBD_GUI_ARTIFACTS=<dir> to keep
the screenshot of the animation panel with the plot dock."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


@pytest.fixture(scope="module")
def gui_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("anim_solve")
    home = make_user_home(tmp / "home", install=True)
    run = run_gui_macro(MACROS / "macro_animation_solve.py", tmp / "out", user_home=home, timeout=600)
    run.keep_artifacts("animation_solve")
    run.assert_finished()
    return run


def test_animation_leaves_undo_stack_unchanged(gui_run):
    gui_run.assert_passed(
        "the parts are shown moved",
        "their Placements are untouched",
        "undo list unchanged while animating",
        "undo list unchanged",
        "redo list unchanged",
        "kept frame: one undo step",
        "kept Placements are the shown ones (coin transform = FreeCAD's own)",
        "undo restores it",
    )


def test_animation_leaves_modified_flag_unchanged(gui_run):
    gui_run.assert_passed(
        "saved document not modified",
        "not modified while animating",
        "modified flag unchanged (no save prompt on close)",
    )


def test_closing_the_tab_during_playback(gui_run):
    gui_run.assert_passed(
        "playing",
        "document closed",
        "no save prompt",
        "playback stopped",
        "task panel closed",
        "no traceback in the Report view",
    )


def test_quitting_freecad_during_playback(gui_run):
    """The runner closes the documents and the main window with the animation still playing."""
    gui_run.assert_passed("left playing for the quit")
    after = gui_run.log.split("result written", 1)[-1]
    assert gui_run.returncode == 0 and gui_run.forced_exit is None, gui_run.describe()
    assert "Traceback" not in after and "ReferenceError" not in after, after


def test_plots_usable_while_animating(gui_run):
    gui_run.assert_passed(
        "Plots enabled while animating",
        "Check enabled while animating",
        "plot dock opened during the animation",
    )
    stats = png_stats(gui_run.out_dir / "animation_with_plots.png")
    assert stats["png"] and stats["width"] > 300


def test_solve_thread_keeps_event_loop_running(gui_run):
    gui_run.assert_passed("warm-up started at activation", "warm-up finished without error", "solved in the thread")
    gui_run.assert_passed(
        "the event loop ticked during the solve",
        "the event loop answered within 100 ms",
        "progress label shows time and ETA",
    )


def test_cancel_keeps_partial_results(gui_run):
    gui_run.assert_passed("cancel clicked during the run", "cancelled: warning box says so", "partial results stored")


def test_plot_dock_follows_document_and_runs(gui_run):
    gui_run.assert_passed(
        "dock shows the cancelled run",
        "Solve enabled while animating",
        "Solve closed the animation of the replaced run",
        "dock shows the new run after Solve",
        "new active document: no plots",
        "back to the solved document",
        "closed document's plots dropped",
    )


def test_every_check_passed(gui_run):
    failed = [name for name, ok in gui_run.checks().items() if not ok]
    assert not failed and gui_run.ok, gui_run.describe()
