"""The Import assembly joints command in the real FreeCAD 1.x GUI under Xvfb
(tests/gui/macros/macro_assembly_import.py): a real Assembly (GroundedJoint, Revolute) becomes
bodies and a revolute joint at the Assembly's joint frame, then Check and Solve run. Skipped
where FreeCAD has no Assembly workbench (0.20)."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"


def _no_assembly_reason():
    """Why the Assembly workbench is unavailable, or None (checked without importing FreeCAD)."""
    from MBDWorkbench.cad.freecad_env import find_freecad_mod_dir

    mod = find_freecad_mod_dir()
    if mod is None or not os.path.isfile(os.path.join(mod, "Assembly", "JointObject.py")):
        return "FreeCAD has no Assembly workbench here (it arrived in 1.0; Mod folder: %s)" % mod
    return None


pytestmark = [
    pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason())),
    pytest.mark.skipif(_no_assembly_reason() is not None, reason=str(_no_assembly_reason())),
]


def test_import_assembly_command_in_gui(tmp_path):
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_assembly_import.py", tmp_path / "out", user_home=home, timeout=240)
    assert not run.timed_out and run.forced_exit is None, run.describe()
    assert run.result is not None and run.result["error"] is None, run.describe()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    assert "bar swings about the hinge axis" in run.checks(), run.describe()  # ran to the end
