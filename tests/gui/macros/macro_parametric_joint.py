# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): a parametric joint. A revolute
# joint is made with the joint command and its task panel by picking a cylinder's top edge (and
# an offset of 5 mm along the axis); the cylinder is then moved, turned and made taller and the
# document recomputed, as an edit in the GUI would: the joint's Frame and its 3D frame symbol
# (the view provider's SoTransform) follow the edge, and a turn set in the Edit joint frame panel
# stays. A reference made to point at a missing edge marks the joint in error and Check names
# it. Renders the 3D view before and after the edit (parametric_before.png, parametric_after.png)
# and puts them side by side (mbd_parametric_joint.png).
# Names App, Gui, QtCore, QtGui, QtWidgets, OUT_DIR, check, wait, save_view are provided by the runner.
import os

from MBDWorkbench.cad.errors import CadError
from MBDWorkbench.cad.objects import find_objects
from MBDWorkbench.commands import joint_panel, task_panels

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
doc = App.newDocument("Parametric")
shaft = doc.addObject("Part::Cylinder", "Shaft")
shaft.Radius, shaft.Height = 5, 30
plate = doc.addObject("Part::Box", "Plate")
plate.Length, plate.Width, plate.Height = 60, 40, 4
plate.Placement.Base = App.Vector(-20, -20, -4)
doc.recompute()
gdoc = Gui.getDocument(doc.Name)
view = gdoc.activeView()
plate.ViewObject.Transparency = 60
wait(200)


def top_edge(cyl):
    """Name of the cylinder's circular edge at its local top (z = Height)."""
    local = cyl.Placement.inverse()
    for k, e in enumerate(cyl.Shape.Edges):
        if type(e.Curve).__name__ == "Circle" and abs(local.multVec(e.Curve.Center).z - cyl.Height.Value) < 1e-9:
            return "Edge%d" % (k + 1)
    raise ValueError("no top edge")


def expected_frame(cyl, offset):
    """(origin, z) of the joint: the top circle's centre moved ``offset`` mm along its axis."""
    axis = cyl.Placement.Rotation.multVec(App.Vector(0, 0, 1))
    return cyl.Placement.multVec(App.Vector(0, 0, cyl.Height.Value)) + axis * offset, axis


def symbol_matches(joint):
    """The 3D frame symbol's SoTransform equals the joint's Frame (translation and rotation)."""
    transform = joint.ViewObject.Proxy.transform
    t = transform.translation.getValue()
    q = transform.rotation.getValue().getValue()
    frame = joint.Frame
    moved = (App.Vector(t[0], t[1], t[2]) - frame.Base).Length < 1e-4  # SoTransform stores floats
    same = min(
        sum(abs(a - b) for a, b in zip(q, frame.Rotation.Q)), sum(abs(a + b) for a, b in zip(q, frame.Rotation.Q))
    )
    return moved and same < 1e-5, (tuple(t), tuple(q), frame)


def show(name):
    view.viewIsometric()
    Gui.SendMsgToActiveView("ViewFit")
    wait(300)
    stats = save_view(name, 800, 600, "White")
    check("render %s" % name, stats.get("distinct_colors", 0) > 20, stats)


# ------------------------------------------------------------------ the joint made by picking in its panel
Gui.Selection.clearSelection()
Gui.runCommand("MBD_Joint_revolute")
wait(100)
panel = task_panels.open_panel()
check("joint command opens the panel", isinstance(panel, task_panels.JointPanel) and panel.creating)
edge = top_edge(shaft)
Gui.Selection.addSelection(doc.Name, shaft.Name, edge)
wait(50)
panel.offset.edit.setText("5")
panel.accept()
wait(200)
joints = find_objects(doc, "Joint")
check("OK creates one joint", len(joints) == 1, [j.Label for j in joints])
joint = joints[0]
check(
    "the joint keeps its reference and offset",
    joint.Parametric
    and joint.References2 == (shaft, [edge])
    and joint.References1 is None
    and (joint.Offset1.Base - App.Vector(0, 0, 5)).Length < 1e-9,
    (joint.Parametric, joint.References1, joint.References2, joint.Offset1),
)
origin, axis = expected_frame(shaft, 5.0)
check("frame on the edge, 5 mm along its axis", (joint.Frame.Base - origin).Length < 1e-9, (joint.Frame, origin))
check("frame symbol at the frame", *symbol_matches(joint))
check("Frame is read-only in the property editor", joint.getEditorMode("Frame") == ["ReadOnly"])

# ------------------------------------------------------------------ Edit joint frame: a turn kept through recomputes
before = App.Placement(joint.Frame)
Gui.Selection.clearSelection()
Gui.Selection.addSelection(doc.Name, joint.Name)
Gui.runCommand("MBD_EditJointFrame")
wait(100)
frame_panel = joint_panel.open_panel()
frame_panel.set_values(rotation_deg=90)
frame_panel.accept()
wait(100)
doc.recompute()
x = joint.Frame.Rotation.multVec(App.Vector(1, 0, 0))
check(
    "frame panel OK: turned 90 deg about z, kept through a recompute",
    (x - before.Rotation.multVec(App.Vector(0, 1, 0))).Length < 1e-9 and (joint.Frame.Base - before.Base).Length < 1e-9,
    (joint.Frame, before),
)
Gui.Selection.clearSelection()
show("parametric_before")

# ------------------------------------------------------------------ CAD edit: move, turn, lengthen the shaft
shaft.Placement = App.Placement(App.Vector(25, 10, 0), App.Rotation(App.Vector(1, 0, 0), -50))
shaft.Height = 45
doc.recompute()
wait(200)
origin, axis = expected_frame(shaft, 5.0)
z = joint.Frame.Rotation.multVec(App.Vector(0, 0, 1))
check(
    "CAD edit moves the joint frame",
    (joint.Frame.Base - origin).Length < 1e-9 and (z - axis).Length < 1e-12,
    (joint.Frame, origin, axis),
)
check("frame symbol follows", *symbol_matches(joint))
check("joint is up to date", "Invalid" not in joint.State and "Touched" not in joint.State, joint.State)
show("parametric_after")


def side_by_side(names, target):
    """One PNG of the renders ``names`` next to each other (for docs/screenshots)."""
    images = [QtGui.QImage(os.path.join(OUT_DIR, n + ".png")) for n in names]
    out = QtGui.QImage(sum(i.width() for i in images), max(i.height() for i in images), images[0].format())
    out.fill(QtGui.QColor("white"))
    painter, x = QtGui.QPainter(out), 0
    for image in images:
        painter.drawImage(x, 0, image)
        x += image.width()
    painter.end()
    return out.save(os.path.join(OUT_DIR, target + ".png"))


check("before/after picture", side_by_side(["parametric_before", "parametric_after"], "mbd_parametric_joint"))

# ------------------------------------------------------------------ a broken reference is an error naming the joint
joint.References2 = (shaft, ["Edge9"])
doc.recompute()
wait(100)
check("broken reference: joint in error", "Invalid" in joint.State, joint.State)
check(
    "its message names the joint and the reference",
    "joint 'Revolute'" in joint.getStatusString() and "Edge9" in joint.getStatusString(),
    joint.getStatusString(),
)
try:
    from MBDWorkbench.commands.solve_commands import _model

    _model(doc)
    check("Check refuses the broken joint", False)
except CadError as exc:
    check("Check refuses the broken joint", "joint 'Revolute'" in str(exc) and "References2" in str(exc), exc)
