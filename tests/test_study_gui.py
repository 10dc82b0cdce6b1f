"""The "Parameter study" command in the real FreeCAD GUI (tests/gui/macros/macro_study.py): a
3-point motor-speed grid of examples/slider_crank.FCStd runs from the task panel on a local Dask
cluster; study.csv, the report and the plot dock appear, the panel's values are saved with the
document. About 30 s. Set MBD_GUI_ARTIFACTS=<dir> to keep the grabbed dock."""

import sys
from pathlib import Path

import pytest

GUI = Path(__file__).resolve().parent / "gui"
sys.path.insert(0, str(GUI))
from run_gui_macro import gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_parameter_study_panel_runs_a_grid_on_the_local_cluster(tmp_path):
    pytest.importorskip("distributed")
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(GUI / "macros" / "macro_study.py", tmp_path / "out", user_home=home, timeout=400)
    run.keep_artifacts("study", whole_folder=True)
    run.assert_finished()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    assert "study saved with the document" in run.checks(), run.describe()
    stats = png_stats(run.out_dir / "study_plot_dock.png")
    assert stats["png"] and stats["width"] > 100, stats
