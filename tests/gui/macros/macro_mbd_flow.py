# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): the whole workbench flow.
# A grounded block and a steel bar become bodies through the commands, a revolute joint is
# made from picked geometry (the bar's edge and the block's face), the joint frame panel
# flips the axis, bad picks give error dialogs without changing the document, Check and
# Solve run, the animation moves the bar (two renders differ; placements restored on close,
# no undo step; a kept frame is one undo step), the plot dock follows the animation time and
# is saved to PNG, and the document is saved, reopened and animated again.
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_view, save_window,
# image_stats, close_message_boxes are provided by the runner.
import os
import time

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(100)

from MBDWorkbench.cad.objects import find_objects, find_simulation
from MBDWorkbench.commands import animate, joint_panel, plot_dock
from MBDWorkbench.commands.solve_commands import SolveCommand

doc = App.newDocument("MbdFlow")
block = doc.addObject("Part::Box", "Block")
block.Length, block.Width, block.Height = 40, 40, 20
block.Placement.Base = App.Vector(-20, -20, 0)
bar = doc.addObject("Part::Box", "Bar")
bar.Length, bar.Width, bar.Height = 200, 20, 20
bar.Placement.Base = App.Vector(0, -10, -20)
doc.recompute()
for part in (block, bar):  # 1.0's default look renders a face seen head-on pure white, like the background
    part.ViewObject.ShapeColor = (0.35, 0.5, 0.75)
view = Gui.activeDocument().activeView()
CAMERA = (
    "#Inventor V2.1 ascii\nOrthographicCamera {\n viewportMapping ADJUST_CAMERA\n position %g -1000 %g\n"
    " orientation 1 0 0 1.5707964\n nearDistance 1\n farDistance 3000\n aspectRatio 1\n"
    " focalDistance 1000\n height %g\n}\n"
)


def front_view(x=0.0, z=-60.0, height=520.0):
    """Look along +y at (x, z) [mm], ``height`` mm visible."""
    view.setCamera(CAMERA % (x, z, height))
    wait(100)


def edge_on_y_axis(obj, x, z):
    """Name of the bar/block edge parallel to y through (x, ., z)."""
    for k, e in enumerate(obj.Shape.Edges):
        bb = e.BoundBox
        if bb.XLength < 1e-9 and bb.ZLength < 1e-9 and abs(bb.XMin - x) < 1e-9 and abs(bb.ZMin - z) < 1e-9:
            return "Edge%d" % (k + 1)
    raise AssertionError("no such edge")


def face_with_normal(obj, n):
    for k, f in enumerate(obj.Shape.Faces):
        u0, u1, v0, v1 = f.ParameterRange
        if (f.normalAt((u0 + u1) / 2, (v0 + v1) / 2) - App.Vector(*n)).Length < 1e-9:
            return "Face%d" % (k + 1)
    raise AssertionError("no such face")


def same(a, b, tol=1e-9):
    """Placements equal within ``tol`` (FreeCAD 0.20 lacks Placement.isSame)."""
    ma, mb = a.toMatrix(), b.toMatrix()
    return all(abs(x - y) <= tol for x, y in zip(ma.A, mb.A))


def report_view(visible):
    for dock in Gui.getMainWindow().findChildren(QtWidgets.QDockWidget):
        if dock.objectName() in ("Report view", "Python console"):
            dock.setVisible(visible and dock.objectName() == "Report view")


def objects_snapshot():
    return sorted(o.Name for o in doc.Objects)


def pixel_difference(a, b):
    """Fraction of sampled pixels that differ between two PNGs of the same size."""
    ia, ib = QtGui.QImage(a), QtGui.QImage(b)
    if ia.size() != ib.size():
        return 1.0
    diff = total = 0
    for y in range(0, ia.height(), 4):
        for x in range(0, ia.width(), 4):
            diff += ia.pixel(x, y) != ib.pixel(x, y)
            total += 1
    return diff / float(total)


# ------------------------------------------------------------------ bodies through the commands
from MBDWorkbench.commands import task_panels  # noqa: E402

Gui.Selection.clearSelection()
Gui.runCommand("MBD_Body")  # nothing selected: the panel opens to pick the part after starting
wait(100)
panel = task_panels.open_panel()
check("body without selection: body panel", isinstance(panel, task_panels.BodyPanel) and panel.creating, panel)
check("OK without a part: error in the panel", not panel.accept() and "pick a part" in panel.error.text())
panel.reject()
check("nothing created", objects_snapshot() == ["Bar", "Block"], objects_snapshot())

Gui.Selection.clearSelection()
Gui.Selection.addSelection(doc.Name, "Block")
Gui.runCommand("MBD_GroundedBody")
Gui.Selection.clearSelection()
Gui.Selection.addSelection(doc.Name, "Bar")
Gui.runCommand("MBD_Body")
doc.recompute()
bodies = find_objects(doc, "Body")
check("two bodies", sorted(b.Part.Name for b in bodies) == ["Bar", "Block"], [b.Label for b in bodies])
check("simulation created", find_simulation(doc) is not None)
bar_body = [b for b in bodies if b.Part == bar][0]
bar_mass = float(bar_body.ComputedMass)  # kg
check("bar mass from geometry", abs(bar_mass - 7850 * 0.2 * 0.02 * 0.02) < 1e-12, bar_mass)
bar_rho = float(bar_body.Density.getValueAs("kg/m^3"))
check("density shown", abs(bar_rho - 7850.0) < 1e-9 and bar_body.Material == "Steel", bar_rho)
check("block grounded", [b for b in bodies if b.Part == block][0].Grounded)
check("body icon", bar_body.ViewObject.Proxy.getIcon().endswith("body.svg"), bar_body.ViewObject.Proxy.getIcon())

# ------------------------------------------------------------------ bad picks: dialogs, no change
before = objects_snapshot()
Gui.Selection.clearSelection()
Gui.Selection.addSelection(doc.Name, "Bar", "Vertex1")
Gui.Selection.addSelection(doc.Name, "Block", "Vertex1")
seen = run_with_boxes("MBD_Joint_revolute")
check("vertex picks: no-axis error", seen and "has no axis" in seen[0][2], seen)
Gui.Selection.clearSelection()
Gui.Selection.addSelection(doc.Name, "Bar", "Face1")
Gui.Selection.addSelection(doc.Name, "Bar", "Face2")
seen = run_with_boxes("MBD_Joint_revolute")
check("same part twice: error", seen and "same part 'Bar'" in seen[0][2], seen)
check("document unchanged after bad picks", objects_snapshot() == before, objects_snapshot())

# ------------------------------------------------------------------ revolute from picked geometry
pivot_edge = edge_on_y_axis(bar, 0, -20)
Gui.Selection.clearSelection()
Gui.Selection.addSelection(doc.Name, "Bar", pivot_edge)
Gui.Selection.addSelection(doc.Name, "Block", face_with_normal(block, (0, 0, -1)))
Gui.runCommand("MBD_Joint_revolute")
joints = find_objects(doc, "Joint")
check("joint created", len(joints) == 1 and joints[0].JointType == "revolute", [j.Label for j in joints])
joint = joints[0]
frame_z = joint.Frame.Rotation.multVec(App.Vector(0, 0, 1))
check(
    "joint frame on the pivot edge",
    (joint.Frame.Base - App.Vector(0, 0, -20)).Length < 1e-9 and abs(abs(frame_z.y) - 1) < 1e-12,
    joint.Frame,
)
check("joint frame drawn", hasattr(joint.ViewObject.Proxy, "transform") and joint.ViewObject.Visibility)

Gui.Selection.clearSelection()
Gui.Selection.addSelection(doc.Name, joint.Name)
Gui.runCommand("MBD_EditJointFrame")
wait(100)
panel = joint_panel.open_panel()
check("joint frame panel open", panel is not None and Gui.Control.activeDialog())
if panel is not None:
    panel.set_values(flip=True, offset_mm=5)
    z2 = joint.Frame.Rotation.multVec(App.Vector(0, 0, 1))
    check("flip reverses z", (z2 + frame_z).Length < 1e-9, z2)
    check("offset along z", (joint.Frame.Base - (App.Vector(0, 0, -20) - frame_z * 5)).Length < 1e-9, joint.Frame.Base)
    front_view(60, -20, 180)
    report_view(False)
    result["frame_panel"] = save_window("window_joint_frame_panel")
    report_view(True)
    panel.reject()
    wait(100)
check(
    "cancel restores the frame",
    (joint.Frame.Base - App.Vector(0, 0, -20)).Length < 1e-12
    and (joint.Frame.Rotation.multVec(App.Vector(0, 0, 1)) - frame_z).Length < 1e-12,
    joint.Frame,
)
check("panel closed", not Gui.Control.activeDialog())

sim = find_simulation(doc)
sim.EndTimeMilliseconds = 1000
sim.OutputStepMicroseconds = 10000
doc.recompute()
Gui.Selection.clearSelection()
front_view()
result["model_view"] = save_view("view_model", 800, 600, "White")

# ------------------------------------------------------------------ check and solve
seen = run_with_boxes("MBD_Check")
check("check report", seen and seen[0][0] == "MBD_CheckReport" and "1" in seen[0][2], seen)
result["check_text"] = seen[0][2] if seen else None

started = time.time()
seen = run_with_boxes("MBD_Solve", timeout_ms=240000)
result["solve_seconds"] = time.time() - started
check("solve summary shown", seen and seen[0][0] == "MBD_SolveSummary" and "status: completed" in seen[0][2], seen)
result["solve_summary"] = seen[0][2] if seen else None
stored = SolveCommand.last[0] if SolveCommand.last else None
check(
    "results stored",
    stored is not None and len(stored) == 101 and os.path.isfile(sim.ResultsArchive),
    sim.ResultsArchive,
)
check("summary property", sim.ResultsSummary and sim.ResultsSummary[0] == "status: completed", sim.ResultsSummary)

# ------------------------------------------------------------------ animation
original = {o.Name: App.Placement(o.Placement) for o in (bar, block)}
undo_before = doc.UndoCount
Gui.runCommand("MBD_Animate")
wait(100)
anim = animate.active_panel()
check("animation panel open", anim is not None)
anim.show_time(0.0)
wait(150)
img0 = save_view("anim_t0", 800, 600, "White")
p0 = animate.transform_node(bar).rotation.getValue().getValue()
anim.show_time(0.35)
wait(150)
img1 = save_view("anim_t035", 800, 600, "White")
p1 = animate.transform_node(bar).rotation.getValue().getValue()
check("bar shown turned", sum((a - b) ** 2 for a, b in zip(p0, p1)) > 1e-3, (p0, p1))
check("bar Placement untouched (view-only animation)", same(bar.Placement, original["Bar"], 1e-12))
diff = pixel_difference(img0["path"], img1["path"])
result["anim_pixel_difference"] = diff
check("renders at two times differ", diff > 0.005, diff)
check("block stays", same(block.Placement, original["Block"], 1e-12))

# play for a moment: time advances
anim.speed.setValue(1.0)
t_before = anim.time
anim.toggle()
wait(600)
anim.toggle()
check("play advances time", anim.time > t_before + 0.1, (t_before, anim.time))

# plot dock synced with the animation
Gui.runCommand("MBD_Plot")
wait(200)
dock = plot_dock.plot_dock()
check("plot dock open", dock is not None and dock.dock.isVisible())
dock.select(element=joint.Label, quantity="Reaction force")
anim.show_time(0.5)
wait(200)
check(
    "cursor follows the animation",
    dock.cursor_time is not None and abs(dock.cursor_time - 0.5) < 0.006,
    dock.cursor_time,
)
png = dock.save_png(os.path.join(OUT_DIR, "plot_reaction.png"))
result["plot"] = image_stats(png)
check("plot PNG not blank", result["plot"].get("distinct_colors", 0) > 10, result["plot"])
dock.select(quantity="Energy")
result["plot_energy"] = image_stats(dock.save_png(os.path.join(OUT_DIR, "plot_energy.png")))
dock.select(quantity="Reaction force")
front_view()
report_view(False)
result["window_animation"] = save_window("window_animation")
report_view(True)

anim.reject()
wait(100)
check("animation closed", animate.active_panel() is None and not Gui.Control.activeDialog())
check(
    "placements restored",
    all(same(doc.getObject(n).Placement, p, 1e-12) for n, p in original.items()),
    {n: str(doc.getObject(n).Placement) for n in original},
)
check("no undo step left", doc.UndoCount == undo_before, (undo_before, doc.UndoCount))
check(
    "markers shown again",
    all(o.ViewObject.Visibility and o.ViewObject.SwitchNode.whichChild.getValue() >= 0 for o in (joint, bar_body)),
)

# keep a frame: one undoable step
Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
anim.show_time(0.3)
shown = animate.transform_node(bar).translation.getValue().getValue()
anim.keep.setChecked(True)
anim.reject()
wait(100)
check(
    "kept frame stays",
    all(abs(a - b) < 1e-3 for a, b in zip(bar.Placement.Base, shown))  # the shown pose (coin: float32)
    and not same(bar.Placement, original["Bar"], 1e-6),
    bar.Placement,
)
check("one undo step", doc.UndoCount == undo_before + 1, (undo_before, doc.UndoCount))
doc.undo()
check("undo restores the original", same(bar.Placement, original["Bar"], 1e-12), bar.Placement)

# ------------------------------------------------------------------ save, reopen, animate again
path = os.path.join(OUT_DIR, "flow.FCStd")
doc.saveAs(path)
App.closeDocument(doc.Name)
wait(100)
doc = App.openDocument(path)
wait(200)
sim = find_simulation(doc)
from MBDWorkbench.cad.results_store import load_results

again = load_results(sim)
check("results survive reopen", again is not None and len(again) == 101)
j2 = find_objects(doc, "Joint")[0]
check("view provider restored", j2.ViewObject.Proxy is not None and hasattr(j2.ViewObject.Proxy, "transform"))
Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
check("animate after reopen", anim is not None)
if anim is not None:
    anim.show_time(0.5)
    anim.reject()
    check(
        "restored after reopen",
        same(doc.getObject("Bar").Placement, original["Bar"], 1e-9),
        doc.getObject("Bar").Placement,
    )

# ------------------------------------------------------------------ cancel a long run
sim.EndTimeMilliseconds = 100000
cancel_state = {"clicked": False, "progress_seen": 0}


def press_cancel():
    for w in QtWidgets.QApplication.topLevelWidgets() + Gui.getMainWindow().findChildren(QtWidgets.QProgressDialog):
        if isinstance(w, QtWidgets.QProgressDialog) and w.objectName() == "MBD_SolveProgress" and w.isVisible():
            cancel_state["progress_seen"] = w.value()
            if w.value() > 0:
                w.cancel()
                cancel_state["clicked"] = True
                return
    QtCore.QTimer.singleShot(100, press_cancel)


QtCore.QTimer.singleShot(300, press_cancel)
seen = run_with_boxes("MBD_Solve", timeout_ms=120000)
check("cancel button works (GUI responsive during the run)", cancel_state["clicked"], cancel_state)
check("cancelled run reported", seen and "Run cancelled" in seen[0][2] and "status: cancelled" in seen[0][2], seen)
partial = load_results(sim)
check(
    "partial results stored",
    partial is not None and partial.summary["status"] == "cancelled" and 1 < len(partial) < 10001,
    (partial.summary["status"], len(partial)) if partial else None,
)

# ------------------------------------------------------------------ bad input in a fresh document
bad = App.newDocument("BadInput")
wait(100)
seen = run_with_boxes("MBD_Solve")
check("solve without bodies: error", seen and seen[0][0] == "MBD_ErrorBox" and "has no bodies" in seen[0][2], seen)
sheet = bad.addObject("Part::Plane", "Sheet")
cube = bad.addObject("Part::Box", "Cube")
bad.recompute()
names = sorted(o.Name for o in bad.Objects)
Gui.Selection.clearSelection()
Gui.Selection.addSelection(bad.Name, "Sheet")
seen = run_with_boxes("MBD_Body")
check("part without solid: error", seen and "Sheet" in seen[0][2] and "no solid" in seen[0][2], seen)
check("document unchanged (no solid)", sorted(o.Name for o in bad.Objects) == names)
Gui.Selection.clearSelection()
Gui.Selection.addSelection(bad.Name, "Cube")
Gui.runCommand("MBD_Body")
names = sorted(o.Name for o in bad.Objects)
seen = run_with_boxes("MBD_Solve")
check("nothing grounded: error", seen and "nothing is grounded" in seen[0][2], seen)
seen = run_with_boxes("MBD_Driver")
check("driver without joint: error", seen and "a driver needs a joint" in seen[0][2], seen)
check(
    "document unchanged (nothing grounded)",
    sorted(o.Name for o in bad.Objects) == names and not find_simulation(bad).ResultsArchive,
)

# ------------------------------------------------------------------ a document written headless
import shutil

import MBDWorkbench

example = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples", "pendulum.FCStd"
)
copy = os.path.join(OUT_DIR, "pendulum_copy.FCStd")
shutil.copy(example, copy)
pend = App.openDocument(copy)
wait(200)
pj = find_objects(pend, "Joint")[0]
check(
    "headless document: joint view provider attached",
    type(pj.ViewObject.Proxy).__name__ == "ViewProviderJoint" and pj.ViewObject.DisplayMode == "Frame",
    (repr(pj.ViewObject.Proxy), pj.ViewObject.DisplayMode),
)
check("headless document: part shown", pend.getObject("Bar").ViewObject.Visibility)
seen = run_with_boxes("MBD_Solve", timeout_ms=120000)
check("headless document solves", seen and "status: completed" in seen[0][2], seen)
