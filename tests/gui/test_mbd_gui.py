"""The workbench flow in the real FreeCAD GUI under Xvfb (tests/gui/macros/macro_mbd_flow.py):
commands create bodies and a joint from picked geometry, bad input gives dialogs and leaves
the document unchanged, Check and Solve run, the animation moves the part (two renders
differ) and restores the placements, the plot dock follows the animation and saves PNGs,
and the document is saved, reopened and animated again. About 15 s (more on a cold Numba
cache). Set MBD_GUI_ARTIFACTS=<dir> to keep the screenshots."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))

EXPECTED_PNGS = [
    "anim_t0.png",
    "anim_t035.png",
    "plot_energy.png",
    "plot_reaction.png",
    "view_model.png",
    "window_animation.png",
    "window_joint_frame_panel.png",
]


def test_workbench_flow_in_gui(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_mbd_flow.py", tmp_path / "out", user_home=home, timeout=300)
    run.keep_artifacts("flow")
    run.assert_finished()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    assert run.ok and "headless document solves" in run.checks(), run.describe()  # ran to the end
    assert [p.name for p in run.screenshots] == EXPECTED_PNGS
    assert run.result["anim_pixel_difference"] > 0.005
    for name in ("plot_reaction.png", "window_animation.png"):
        stats = png_stats(run.out_dir / name)
        assert stats["png"] and stats["width"] > 300
        if "distinct_colors" in stats:
            assert stats["distinct_colors"] > 50, stats


def test_slider_crank_example_in_gui(tmp_path):
    """The slider-crank and parallel-ankle examples built, solved, animated and plotted in the
    GUI (the README screenshots come from this macro: tools/make_screenshots.py)."""
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_screenshots.py", tmp_path / "out", user_home=home, timeout=300)
    assert not run.timed_out and run.forced_exit is None, run.describe()
    assert run.ok and run.result["error"] is None, run.describe()
    assert sorted(p.name for p in run.screenshots) == [
        "mbd_animation_plot.png",
        "mbd_ankle.png",
        "mbd_model.png",
        "mbd_plot_reaction.png",
    ]
