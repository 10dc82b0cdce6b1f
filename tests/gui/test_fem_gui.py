"""The 'FEM check of a body' command in the real FreeCAD GUI (tests/gui/macros/macro_fem.py):
slider-crank rod, real Gmsh and CalculiX; the copy opens with the von Mises stress shown, then the
analysis tree with its loads as FEM objects.
Set MBD_GUI_ARTIFACTS=<dir> to keep the screenshots (docs/screenshots/mbd_fem_*.png)."""

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def test_fem_check_command_in_gui(tmp_path):
    for tool in ("ccx", "gmsh"):
        if shutil.which(tool) is None:
            pytest.skip("%s is not installed (Debian packages calculix-ccx, gmsh; trixie has no calculix-ccx)" % tool)
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_fem.py", tmp_path / "out", user_home=home, timeout=720)
    run.keep_artifacts("fem", whole_folder=True)
    run.assert_finished()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    case = run.result["cases"][0]
    assert case["max_von_mises_MPa"] > 0 and case["support_reaction_relative"] < 0.01
    assert (run.out_dir / "mbd_fem_von_mises.png").stat().st_size > 0
