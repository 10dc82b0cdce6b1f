"""The run status in the real FreeCAD GUI (tests/gui/macros/macro_status.py): Solve shows a
non-modal information notice for a 'completed' run; an over-driven document (two motors on one
pivot) is refused in a modal warning box naming both drivers; a run with warnings gets a
non-modal warning notice and the Simulation panel lists its warnings below the status, with no
modal box open. About 20 s. Set MBD_GUI_ARTIFACTS=<dir>
to keep the grabbed dialogs."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_solve_dialogs_follow_the_run_status(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_status.py", tmp_path / "out", user_home=home, timeout=300)
    run.keep_artifacts("status")
    run.assert_finished()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    assert run.ok and "results stored" in run.checks(), run.describe()  # ran to the end
    names = [
        "box_completed.png",
        "box_overdriven.png",
        "box_warnings.png",
        "panel_warnings.png",
        "panel_warnings_form.png",
    ]
    assert sorted(p.name for p in run.screenshots) == sorted(names)
    for png in run.screenshots:
        stats = png_stats(png)
        assert stats["png"] and stats["width"] > 200, (png, stats)
