# GUI macro: the slider-crank example built through the workbench's API inside the GUI,
# solved with the Solve command, animated with the plot dock open; saves the README
# screenshots (tools/make_screenshots.py copies them to docs/screenshots/).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_view, save_window,
# image_stats, close_message_boxes are provided by the runner.
import os
import sys

import MBDWorkbench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples"))
import make_slider_crank_fcstd  # noqa: E402

from MBDWorkbench.commands import animate, plot_dock  # noqa: E402

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
mw = Gui.getMainWindow()
for dock in mw.findChildren(QtWidgets.QDockWidget):
    if dock.objectName() in ("Report view", "Python console", "Selection view"):
        dock.setVisible(False)
doc = App.newDocument("SliderCrank")
parts = make_slider_crank_fcstd.build(doc)
doc.recompute()
for name in ("Crank", "Rod", "Slider"):
    doc.getObject(name).ViewObject.Transparency = 35
doc.getObject("Crank").ViewObject.ShapeColor = (0.45, 0.62, 0.81)
doc.getObject("Rod").ViewObject.ShapeColor = (0.99, 0.69, 0.24)
doc.getObject("Slider").ViewObject.ShapeColor = (0.54, 0.89, 0.20)
view = Gui.activeDocument().activeView()
view.viewIsometric()
Gui.SendMsgToActiveView("ViewFit")
wait(300)
for t in mw.findChildren(QtWidgets.QTreeWidget):
    t.expandAll()
rod_body = [o for o in doc.Objects if getattr(o, "MbdType", "") == "Body" and o.Part == parts["rod"]][0]
Gui.Selection.addSelection(doc.Name, rod_body.Name)
wait(300)
result["model"] = save_window("mbd_model")
check("model screenshot", result["model"].get("distinct_colors", 0) > 50, result["model"])

Gui.Selection.clearSelection()
seen = []
close_message_boxes(seen, 240000)
Gui.runCommand("MBD_Solve")
wait(100)
check("solved", seen and "status: completed" in seen[0][2], seen)
Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
check("animation open", anim is not None)
Gui.runCommand("MBD_Plot")
dock = plot_dock.plot_dock()
dock.select(element="Motor", quantity="Driver effort")
anim.show_time(0.3)
view.viewTop()
Gui.SendMsgToActiveView("ViewFit")
wait(300)
result["animation"] = save_window("mbd_animation_plot")
check("animation screenshot", result["animation"].get("distinct_colors", 0) > 50, result["animation"])
dock.select(element="CrankPin", quantity="Reaction force")
dock.save_png(os.path.join(OUT_DIR, "mbd_plot_reaction.png"))
anim.reject()

# ------------------------------------------------------------------ the parallel ankle (spatial)
import make_ankle_fcstd  # noqa: E402


def look_rotation(direction, up=(0.0, 0.0, 1.0)):
    """Camera orientation looking along ``direction`` with global ``up`` kept upright."""
    d = App.Vector(*direction).normalize()
    z = d * -1.0
    y = App.Vector(*up) - z * App.Vector(*up).dot(z)
    y.normalize()
    x = y.cross(z)
    m = App.Matrix()
    for col, v in enumerate((x, y, z)):
        m.setCol(col, v)
    return App.Rotation(m)


dock.dock.hide()
ankle = App.newDocument("ParallelAnkle")
make_ankle_fcstd.build(ankle)
colors = {
    "Shank": (0.75, 0.75, 0.78),
    "Foot": (0.45, 0.62, 0.81),
    "Bar1": (0.99, 0.69, 0.24),
    "Bar2": (0.99, 0.69, 0.24),
    "Rod1": (0.54, 0.89, 0.20),
    "Rod2": (0.54, 0.89, 0.20),
}
for name, color in colors.items():
    ankle.getObject(name).ViewObject.ShapeColor = color
ankle.getObject("Shank").ViewObject.Transparency = 50
seen = []
close_message_boxes(seen, 240000)
Gui.runCommand("MBD_Solve")
wait(100)
check("ankle solved", seen and "status: completed" in seen[0][2], seen)
Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
Gui.runCommand("MBD_Plot")
dock = plot_dock.plot_dock()
dock.select(element="Drive1", quantity="Driver effort")
anim.show_time(1.5)
view = Gui.activeDocument().activeView()
view.setCameraOrientation(look_rotation((0.8, 0.55, -0.35)))  # from behind and to the side
Gui.SendMsgToActiveView("ViewFit")
wait(300)
result["ankle"] = save_window("mbd_ankle")
check("ankle screenshot", result["ankle"].get("distinct_colors", 0) > 50, result["ankle"])
anim.reject()
