# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): activate the Multibody
# Dynamics workbench, check its registration, run MBD_About, make a box, take screenshots.
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_view, save_window,
# close_message_boxes are provided by the runner.
import os

result["user_app_data_dir"] = App.getUserAppDataDir()
result["workbenches"] = sorted(Gui.listWorkbenches().keys())
check("workbench registered", "MultibodyDynamicsWorkbench" in result["workbenches"], result["workbenches"])

workbench = Gui.getWorkbench("MultibodyDynamicsWorkbench")
check("menu text", workbench.MenuText == "Multibody Dynamics", workbench.MenuText)
check("icon file exists", bool(workbench.Icon) and os.path.isfile(workbench.Icon), workbench.Icon)

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(200)
active = Gui.activeWorkbench()
check("workbench active", type(active).__name__ == "MultibodyDynamicsWorkbench", type(active).__name__)

import MBDWorkbench
from MBDWorkbench import commands

result["package_file"] = MBDWorkbench.__file__
result["commands"] = [c for c in Gui.listCommands() if c.startswith("MBD_")]
for name in commands.COMMANDS:
    check("command %s registered" % name, name in result["commands"], result["commands"])
toolbars = active.listToolbars()
for title, _ in commands.TOOLBARS:
    check("toolbar %s" % title, title in toolbars, toolbars)
menus = [a.text() for a in Gui.getMainWindow().menuBar().actions()]
check("menu", "&Multibody Dynamics" in menus, menus)

# MBD_About opens a modal message box: close it from a timer, keep what it said
seen = []
close_message_boxes(seen, timeout_ms=5000)
Gui.runCommand("MBD_About")
check("about box shown", len(seen) == 1 and seen[0][0] == "MBD_AboutBox", seen)
check("about text", bool(seen) and "Multibody Dynamics workbench" in seen[0][2], seen)

doc = App.newDocument("GuiSmoke")
box = doc.addObject("Part::Box", "Box")
box.Length, box.Width, box.Height = 10, 20, 30
doc.recompute()
Gui.activeDocument().activeView().viewIsometric()
Gui.SendMsgToActiveView("ViewFit")
wait(300)

from MBDWorkbench.cad import mass_properties

mp = mass_properties(box)
result["box_mass_kg"] = mp.mass
check("box mass", abs(mp.mass - 7850 * 6e-6) < 1e-12, mp.mass)

result["view"] = save_view("view_box", 800, 600, "White")
check("view screenshot not blank", result["view"].get("non_background_fraction", 0) > 0.05, result["view"])
result["window"] = save_window("window_workbench")
check("window screenshot not blank", result["window"].get("distinct_colors", 0) > 20, result["window"])
