"""The workbench in the real FreeCAD GUI (under Xvfb), installed in a temporary user folder.

Each run starts FreeCAD once (about 6 s on FreeCAD 0.20.2). Screenshots stay in pytest's
tmp folder; set MBD_GUI_ARTIFACTS=<dir> to get copies.
"""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import REPO, gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def _real_user_mod_entries():
    """Entries of the real user's FreeCAD Mod folders (must not change)."""
    entries = {}
    for folder in (Path.home() / ".local/share/FreeCAD/Mod", Path.home() / ".FreeCAD/Mod"):
        if folder.is_dir():
            entries[str(folder)] = sorted(os.listdir(folder))
    return entries


@pytest.mark.parametrize("layout", ["root", "package"])
def test_workbench_in_gui(tmp_path, layout):
    before = _real_user_mod_entries()
    home = make_user_home(tmp_path / "home", install=True, layout=layout)
    link = home / "Mod" / "MultibodyDynamics"
    expected_target = REPO if layout == "root" else REPO / "MBDWorkbench"
    assert link.resolve() == expected_target.resolve()

    run = run_gui_macro(MACROS / "macro_workbench.py", tmp_path / "out", user_home=home, timeout=120)
    run.keep_artifacts(layout)
    assert not run.timed_out, run.describe()
    assert run.forced_exit is None, run.describe()  # FreeCAD closed by itself
    assert run.returncode == 0, run.describe()
    assert run.result is not None, run.describe()
    assert run.result["error"] is None, run.describe()
    assert run.ok, run.describe()

    # FreeCAD used the temporary folder, not the real one
    assert Path(run.result["user_app_data_dir"]).resolve() == home.resolve()
    assert _real_user_mod_entries() == before
    # the package came from this repository
    assert Path(run.result["package_file"]).resolve() == (REPO / "MBDWorkbench" / "__init__.py").resolve()
    assert "MBD_About" in run.result["commands"]
    # no start-up error from our Init.py/InitGui.py
    for line in run.log.splitlines():
        assert "Multibody Dynamics:" not in line, line
        if "During initialization the error" in line:
            assert "MultibodyDynamics" not in line and "MBDWorkbench" not in line, line

    names = sorted(p.name for p in run.screenshots)
    assert names == ["view_box.png", "window_workbench.png"], names
    view = png_stats(run.out_dir / "view_box.png")
    assert view["png"] and (view["width"], view["height"]) == (800, 600)
    window = png_stats(run.out_dir / "window_workbench.png")
    assert window["png"] and window["width"] >= 800 and window["height"] >= 600
    if "distinct_colors" in view:  # Pillow present: look at the pixels too
        assert view["distinct_colors"] >= 3 and 0.05 < view["non_background_fraction"] < 0.95, view
        assert window["distinct_colors"] > 50 and window["non_background_fraction"] > 0.3, window
