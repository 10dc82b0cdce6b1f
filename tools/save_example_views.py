#!/usr/bin/python3
"""Save example documents from FreeCAD's GUI (under xvfb-run) so that they carry their view data
(GuiDocument.xml: view providers and an isometric camera fitted to the mechanism), which a
headless generator (examples/make_*_fcstd.py) cannot write. Run it after regenerating an example,
with the FreeCAD that wrote it (0.20 for the native examples, 1.x for the Assembly ones: their
Document.xml says which, ProgramVersion):

    /usr/bin/python3 tools/save_example_views.py examples/pendulum.FCStd [...]

The workbench is installed in a temporary FreeCAD user folder (its view providers must load)."""

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "gui"))

from run_gui_macro import make_user_home, run_gui_macro  # noqa: E402


def save_views(paths: list[str]) -> dict:
    """Save each document of ``paths`` from the GUI; returns {file name: camera} (raises on failure)."""
    with tempfile.TemporaryDirectory() as tmp:
        home = make_user_home(Path(tmp) / "home", install=True)
        files = os.pathsep.join(str(Path(p).resolve()) for p in paths)
        run = run_gui_macro(
            REPO / "tests" / "gui" / "macros" / "macro_example_views.py",
            Path(tmp) / "out",
            user_home=home,
            timeout=60 + 30 * len(paths),
            extra_env={"MBD_EXAMPLES": files},
        )
        run.assert_finished()
        failed = [name for name, ok in run.checks().items() if not ok]
        if failed or not run.ok:
            raise RuntimeError(run.describe())
        return run.result.get("cameras", {})


def main(argv=None) -> int:
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print(__doc__)
        return 2
    for name, camera in save_views(paths).items():
        kind = next((w for w in camera.split() if w.endswith("Camera")), "camera")
        print("saved %s with its view (%s)" % (name, kind))
    return 0


if __name__ == "__main__":
    sys.exit(main())
