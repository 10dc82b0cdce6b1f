# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): the task panel built from a
# force type's catalogue record (commands/panels/force_element.py) on a copy of
# examples/pendulum.FCStd. The dedicated objects of the torsion spring and the translational
# spring are switched off (cad.force_fields.DEDICATED_FORCE_OBJECTS), so both are made as
# ForceElements: created with the joint / bodies picked, edited by double click, Cancel leaves
# the document unchanged, and the document solves with them. A screenshot of the panel is saved
# (mbd_panel_force_element.png).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_window are provided by
# the runner.
import math
import os
import shutil

import MBDWorkbench
from MBDWorkbench.cad import force_fields, objects
from MBDWorkbench.cad.document_model import model_from_document
from MBDWorkbench.commands import task_panels
from MBDWorkbench.commands.panels.base import open_panel

REPO = os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__)))
force_fields.DEDICATED_FORCE_OBJECTS = {"point_force": "Force", "torque": "Force"}
Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(300)
path = os.path.join(OUT_DIR, "pendulum_copy.FCStd")
shutil.copy2(os.path.join(REPO, "examples", "pendulum.FCStd"), path)
doc = App.openDocument(path)
wait(300)
Gui.getDocument(doc.Name).activeView().viewIsometric()
Gui.SendMsgToActiveView("ViewFit")
joint = objects.find_objects(doc, "Joint")[0]
body = objects.find_objects(doc, "Body")[0]


def accepted(panel):
    """OK pressed; the panel's error text when it stayed open."""
    ok = panel.accept()
    return ok, "" if ok else panel.error.text()


def rows(panel):
    return {r.spec.name: r for r in panel.rows}


# create a torsion spring: the joint picked after the panel opened
panel = task_panels.show(task_panels.ForceElementPanel(doc, "rotational_spring_damper"))
Gui.Selection.addSelection(doc.Name, joint.Name)
wait(100)
r = rows(panel)
check("picked joint selected", r["joint"].edits[0].currentData() == joint.Name)
check("units from the record", r["stiffness"].edits[0].unit_label.text() == "N m/rad", r["stiffness"].edits[0].unit)
check("free angle in degrees", r["free_angle"].edits[0].unit_label.text() == "deg")
r["stiffness"].edits[0].edit.setText("0.5")
r["damping"].edits[0].edit.setText("0.01")
r["free_angle"].edits[0].edit.setText("10")
wait(200)
save_window("mbd_panel_force_element")
check("OK", *accepted(panel))
made = objects.find_objects(doc, "ForceElement")
check(
    "torsion spring made as a ForceElement",
    len(made) == 1
    and made[0].Joint == joint
    and made[0].Stiffness == 0.5
    and abs(made[0].FreeAngle.Value - 10) < 1e-12,
    [(o.Label, o.Stiffness, str(o.FreeAngle)) for o in made],
)
spring = made[0]

# edit by double click; Cancel keeps the values, OK writes them
undo = doc.UndoCount
spring.ViewObject.Proxy.doubleClicked(spring.ViewObject)
wait(200)
panel = open_panel()
check("double click opens the record's panel", isinstance(panel, task_panels.ForceElementPanel) and not panel.creating)
rows(panel)["damping"].edits[0].edit.setText("0.02")
panel.reject()
wait(100)
check("cancel leaves the document unchanged", spring.Damping == 0.01 and doc.UndoCount == undo)
spring.ViewObject.Proxy.doubleClicked(spring.ViewObject)
wait(200)
panel = open_panel()
rows(panel)["damping"].edits[0].edit.setText("0.02")
check("edit OK", *accepted(panel))
check("edit written in one undo step", spring.Damping == 0.02 and doc.UndoCount == undo + 1)

# a translational spring from the ground to the bar: an optional field (free length) unset
panel = task_panels.show(task_panels.ForceElementPanel(doc, "spring_damper", None, (body,)))
r = rows(panel)
check("body picked before opening fills the first body row", r["body_i"].edits[0].currentData() == body.Name)
r["body_i"].edits[0].setCurrentIndex(r["body_i"].edits[0].findData(""))  # the ground
r["body_j"].edits[0].setCurrentIndex(r["body_j"].edits[0].findData(body.Name))
for c, v in zip("xyz", (0.0, 0.0, 100.0)):
    [e for e in r["point_i"].edits if e.name == "point_i_" + c][0].set(v)
for c, v in zip("xyz", (200.0, 0.0, 0.0)):
    [e for e in r["point_j"].edits if e.name == "point_j_" + c][0].set(v)
r["stiffness"].edits[0].edit.setText("20")
check("free length unset by default", not r["free_length"].check.isChecked())
check("OK spring", *accepted(panel))
model = model_from_document(doc)
by_type = {f.type: f for f in model.forces}
rot, lin = by_type["rotational_spring_damper"], by_type["spring_damper"]
check(
    "model forces in SI",
    rot.joint == joint.Label
    and rot.stiffness == 0.5
    and rot.damping == 0.02
    and abs(rot.free_angle - math.radians(10)) < 1e-12
    and lin.body_i == "ground"
    and lin.point_i == [0.0, 0.0, 0.1]
    and lin.point_j == [0.2, 0.0, 0.0]
    and lin.stiffness == 20.0
    and lin.free_length is None,
    [rot, lin],
)

seen = []
close_message_boxes(seen, 240000)
Gui.runCommand("MBD_Solve")
wait(100)
check("solves", seen and "status: completed" in seen[0][2], seen)
