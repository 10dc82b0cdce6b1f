# GUI macro (run by tests/gui/test_contact_examples_gui.py and tools/make_screenshots.py inside FreeCAD,
# at FreeCAD's default window and task-dock size): the two contact examples solved and animated with
# their contact force arrows (commands/event_view.py).
# 1. examples/cam_follower.FCStd (a copy): opens unmodified, solves; at 3/4 of a turn the follower is
#    shown at the cam's closed-form lift E (1 - cos w t) and one arrow sits at the contact point,
#    |F| x scale long (|F| from the stored contacts.csv); the plot dock plots the pair's contact force.
#    Screenshots mbd_cam_follower_animation.png, mbd_cam_follower_plot.png.
# 2. examples/drop_test.FCStd (a copy): solved; at the last sample the ball rests on the plate, its
#    arrow the ball's weight (|F| x scale long). Screenshot mbd_drop_test_contact.png.
# Closing Animate leaves each document's undo list as it was (the animation changes nothing).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_window, close_message_boxes
# are provided by the runner.
import csv
import io
import math
import os
import shutil
import time
import zipfile

import MBDWorkbench
from MBDWorkbench.cad.objects import find_simulation
from MBDWorkbench.commands import animate, plot_dock, solve_commands

REPO = os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__)))
Gui.activateWorkbench("MultibodyDynamicsWorkbench")
mw = Gui.getMainWindow()
for dock in mw.findChildren(QtWidgets.QDockWidget):
    if dock.objectName() in ("Report view", "Python console", "Selection view"):
        dock.setVisible(False)
deadline = time.time() + 400
while not solve_commands.warm_up_state().get("done") and time.time() < deadline:
    wait(200)
result["window_size"] = [mw.width(), mw.height()]


def open_copy(name):
    os.makedirs(os.path.join(OUT_DIR, "examples"), exist_ok=True)
    path = os.path.join(OUT_DIR, "examples", name + ".FCStd")
    shutil.copy2(os.path.join(REPO, "examples", name + ".FCStd"), path)
    doc = App.openDocument(path)
    wait(500)
    check("%s not modified at open" % name, not Gui.getDocument(doc.Name).Modified)
    return doc


def solve(name):
    seen = []
    close_message_boxes(seen, 300000)
    Gui.Selection.clearSelection()
    Gui.runCommand("MBD_Solve")
    wait(100)
    check("%s solved" % name, seen and "status: completed" in seen[0][2], seen)


def stored_contacts(doc, pair):
    """(force on body_a [N], normal force [N]) per sample, read from the stored archive's contacts.csv."""
    with zipfile.ZipFile(find_simulation(doc).ResultsArchive) as archive:
        rows = list(csv.DictReader(io.StringIO(archive.read("contacts.csv").decode())))
    force = [[float(r["%s.F%s [N]" % (pair, c)]) for c in "xyz"] for r in rows]
    return force, [float(r["%s.normal_force [N]" % pair]) for r in rows]


def check_arrow(name, events, force, k):
    magnitude = math.sqrt(sum(f * f for f in force[k]))
    lengths = events.arrow_lengths_mm()
    check("%s: one arrow |F| x scale long" % name,
          len(lengths) == 1 and abs(lengths[0] - magnitude * events.scale) <= 1e-6 * magnitude * events.scale,
          (lengths, magnitude, events.scale))  # fmt: skip
    result[name + "_arrow"] = dict(sample=k, force_N=magnitude, scale_mm_per_N=events.scale, lengths_mm=lengths)


def close_animation(doc, anim, undo):
    """Close Animate; the document's undo list is as before it (the animation changed nothing)."""
    anim.reject()
    wait(200)
    check("%s unchanged by Animate" % doc.Label, list(doc.UndoNames) == undo, (list(doc.UndoNames), undo))


# 1. the cam and follower
doc = open_copy("cam_follower")
gdoc = Gui.getDocument(doc.Name)
cam, follower, frame = (doc.getObject(n) for n in ("Cam", "Follower", "Frame"))
cam.ViewObject.ShapeColor = (0.33, 0.37, 0.45)  # dark: the arrow's label at its tip, on the cam, reads
follower.ViewObject.ShapeColor = (0.45, 0.62, 0.81)
frame.ViewObject.Transparency = 60
solve("cam_follower")
force, normal = stored_contacts(doc, "Cam_on_follower")
check("cam: in contact at every sample", min(normal) > 0, min(normal))
undo = list(doc.UndoNames)
Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
check("cam: animation open", anim is not None)
w, e = 10.0, 10.0  # rad/s, mm
start_z = animate.transform_node(follower).translation.getValue()[2]
shown = anim.results.index_at(1.5 * math.pi / w)  # 3/4 turn: the arrow's label on the cam, clear of its bore
anim.show_index(shown)
t = float(anim.results.t[shown])
wait(300)
lift = animate.transform_node(follower).translation.getValue()[2] - start_z
expected = e * (1 - math.cos(w * t))
result["cam_lift_mm"] = [t, lift, expected]
check("cam: follower shown at the closed-form lift", abs(lift - expected) < 1e-3, result["cam_lift_mm"])
check_arrow("cam", anim.events, force, shown)
gdoc.activeView().viewFront()
Gui.SendMsgToActiveView("ViewFit")
wait(300)
result["cam_animation_shot"] = save_window("mbd_cam_follower_animation")
Gui.runCommand("MBD_Plot")
dock = plot_dock.plot_dock()
dock.select("Cam_on_follower", "Contact force")
wait(100)
curves = {line.get_label(): list(line.get_ydata()) for line in dock.figure.axes[0].get_lines()}
check("cam: the dock plots contacts.csv's normal force", curves.get("normal") == normal, sorted(curves))
wait(500)  # the dock has narrowed the 3D view
gdoc.activeView().fitAll()
camera = gdoc.activeView().getCameraNode()
camera.height.setValue(170.0)  # [mm] across the narrow side: the mechanism, not its bounding sphere
wait(300)
result["cam_plot_shot"] = save_window("mbd_cam_follower_plot")
dock.dock.hide()
close_animation(doc, anim, undo)

# 2. the drop test
doc = open_copy("drop_test")
gdoc = Gui.getDocument(doc.Name)
ball, plate = doc.getObject("Ball"), doc.getObject("Plate")
ball.ViewObject.ShapeColor = (0.33, 0.37, 0.45)  # dark: the arrow's label reads on it
plate.ViewObject.ShapeColor = (0.45, 0.62, 0.81)
solve("drop_test")
force, normal = stored_contacts(doc, "Ball_on_plate")
undo = list(doc.UndoNames)
Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
k = len(normal) - 1  # at rest on the plate (an impact, 0.1 ms long, falls between the 2 ms samples)
anim.show_index(k)
wait(300)
bottom = animate.transform_node(ball).translation.getValue()[2] - 20.0  # the ball's radius [mm]
result["drop_contact"] = dict(sample=k, t=float(anim.results.t[k]), normal_N=normal[k], bottom_mm=bottom)
weight = 4.0 / 3.0 * math.pi * 0.02**3 * 7850 * 9.81  # [N]
check("drop: the ball resting on the plate", abs(bottom) < 0.01 and abs(normal[k] - weight) < 1e-3 * weight,
      (result["drop_contact"], weight))  # fmt: skip
check_arrow("drop", anim.events, force, k)
gdoc.activeView().viewFront()
Gui.SendMsgToActiveView("ViewFit")
wait(300)
result["drop_contact_shot"] = save_window("mbd_drop_test_contact")
close_animation(doc, anim, undo)
result["ok"] = True
