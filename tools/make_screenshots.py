#!/usr/bin/python3
"""Regenerate the README screenshots in docs/screenshots/ with the real FreeCAD GUI (Xvfb).

    /usr/bin/python3 tools/make_screenshots.py [MACRO ...]

Runs tests/gui/macros/macro_screenshots.py (the slider-crank example: model, animation with
the plot dock), tests/gui/macros/macro_mbd_flow.py (joint frame panel) and
tests/gui/macros/macro_native_gui.py (preferences page, toolbar, typed properties) and
tests/gui/macros/macro_task_panels.py (the task panels, mbd_panel_*.png) and
tests/gui/macros/macro_parametric_joint.py (a joint frame following a CAD edit) and
tests/gui/macros/macro_contact_examples.py (the cam-follower and drop-test animations with their
contact force arrows, the cam's contact force plot), or only the macros
named, then copies the chosen PNGs. Look at them before committing.
"""

import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "gui"))
from run_gui_macro import make_user_home, run_gui_macro  # noqa: E402

SHOTS = {
    "macro_screenshots.py": ["mbd_model.png", "mbd_animation_plot.png", "mbd_plot_reaction.png", "mbd_ankle.png"],
    "macro_mbd_flow.py": ["window_joint_frame_panel.png", "plot_energy.png"],
    "macro_native_gui.py": ["preferences_page.png", "toolbar.png", "combo_simulation_properties.png"],
    "macro_task_panels.py": [
        "mbd_panel_%s.png" % name
        for name in ("body", "joint_create", "joint_edit", "driver", "force", "spring", "simulation")
    ],
    "macro_parametric_joint.py": ["mbd_parametric_joint.png"],
    "macro_contact_examples.py": [
        "mbd_cam_follower_animation.png",
        "mbd_cam_follower_plot.png",
        "mbd_drop_test_contact.png",
    ],
}
RENAME = {
    "window_joint_frame_panel.png": "mbd_joint_frame_panel.png",
    "plot_energy.png": "mbd_plot_energy.png",
    "preferences_page.png": "mbd_preferences.png",
    "toolbar.png": "mbd_toolbar.png",
    "combo_simulation_properties.png": "mbd_simulation_properties.png",
}


def main(macros=None):
    dest = REPO / "docs" / "screenshots"
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        home = make_user_home(Path(tmp) / "home")
        for macro, names in SHOTS.items():
            if macros and macro not in macros:
                continue
            run = run_gui_macro(
                REPO / "tests" / "gui" / "macros" / macro, Path(tmp) / macro, user_home=home, timeout=300
            )
            if not run.ok:
                print(run.describe())
                return 1
            for name in names:
                target = dest / RENAME.get(name, name)
                shutil.copy2(run.out_dir / name, target)
                print("wrote %s" % target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
