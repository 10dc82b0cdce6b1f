"""'Make statically determinate' in the real FreeCAD GUI (tests/gui/macros/macro_determinate.py):
the Check result of the redundant four-bar has the button, which sets the Simulation's
MakeDeterminate; the next Solve stores the relaxed joints in its summary. About 20 s."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_make_statically_determinate_from_the_check_result(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_determinate.py", tmp_path / "out", user_home=home, timeout=300)
    run.keep_artifacts("determinate")
    run.assert_finished()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    assert "finished" in run.checks(), run.describe()
