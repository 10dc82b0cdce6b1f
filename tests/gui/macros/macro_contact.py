# GUI macro (run by tests/gui/test_contact_gui.py inside FreeCAD): the Contact panel and the drop
# test example (examples/drop_test.FCStd, a copy). A contact made with the panel from a pick of the
# ball (its solid) and of the plate's top face; an edit cancelled; all pairs among picked bodies;
# then the example solved and animated at the first rebound's apex (screenshots
# mbd_panel_contact.png and mbd_drop_test.png, looked at).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_window, image_stats,
# close_message_boxes are provided by the runner.
import os
import shutil

import MBDWorkbench
from MBDWorkbench.cad.document_model import model_from_document
from MBDWorkbench.cad.objects import find_objects
from MBDWorkbench.commands import animate, plot_dock, task_panels

REPO = os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__)))
Gui.activateWorkbench("MultibodyDynamicsWorkbench")
mw = Gui.getMainWindow()
for dock in mw.findChildren(QtWidgets.QDockWidget):
    if dock.objectName() in ("Report view", "Python console", "Selection view"):
        dock.setVisible(False)
wait(300)
path = os.path.join(OUT_DIR, "drop_test_copy.FCStd")
shutil.copy2(os.path.join(REPO, "examples", "drop_test.FCStd"), path)
doc = App.openDocument(path)
wait(500)
gdoc = Gui.getDocument(doc.Name)
check("example not modified at open", not gdoc.Modified)
plate, ball = doc.getObject("Plate"), doc.getObject("Ball")
shipped = find_objects(doc, "Contact")
check("example has its contact", len(shipped) == 1 and shipped[0].Face2 != "", [c.Label for c in shipped])
top = shipped[0].Face2

# a contact made with the panel: the ball picked as a solid, the plate's top face
Gui.Selection.clearSelection()
Gui.runCommand("MBD_Contact")
wait(300)
panel = task_panels.open_panel()
check("command opens the contact panel", isinstance(panel, task_panels.ContactPanel), repr(panel))
Gui.Selection.addSelection(doc.Name, ball.Name)
Gui.Selection.addSelection(doc.Name, plate.Name, top)
wait(200)
sides = [label.text() for label in panel.ends]
check("picks shown as the sides", "Ball" in sides[0] and top in sides[1], sides)
panel.numbers["Restitution"].set("0.5")
panel.choices["Law"].setCurrentIndex(panel.choices["Law"].findData("restitution"))
panel.choices["FrictionLaw"].setCurrentIndex(panel.choices["FrictionLaw"].findData("stiction"))
wait(200)
save_window("mbd_panel_contact")
result["panel_shot"] = image_stats(os.path.join(OUT_DIR, "mbd_panel_contact.png"))
ok = panel.accept()
check("OK", ok, "" if ok else panel.error.text())
made = [c for c in find_objects(doc, "Contact") if c not in shipped]
check("one contact made", len(made) == 1, [c.Label for c in made])
contact = made[0]
check(
    "sides and law written",
    contact.Body1.Part == ball and contact.Face1 == "" and contact.Body2.Part == plate and contact.Face2 == top
    and contact.Restitution == 0.5 and contact.Law == "restitution" and contact.FrictionLaw == "stiction",
    (contact.Body1.Label, contact.Face1, contact.Body2.Label, contact.Face2, contact.Restitution, contact.Law,
     contact.FrictionLaw),
)  # fmt: skip
shipped[0].Enabled = False
model = model_from_document(doc)
pair = model.contacts[0] if len(model.contacts) == 1 else None
check(
    "the panel's contact is a sphere on the face's plane",
    pair is not None
    and (pair.shape_a.type, pair.shape_b.type) == ("sphere", "plane")
    and pair.restitution == 0.5
    and pair.friction_law == "stiction",
    repr(pair),
)
shipped[0].Enabled = True

# an edit cancelled leaves the contact as it was
contact.ViewObject.Proxy.doubleClicked(contact.ViewObject)
wait(200)
panel = task_panels.open_panel()
check("double click opens the contact panel", isinstance(panel, task_panels.ContactPanel))
panel.numbers["Restitution"].set("0.9")
panel.reject()
wait(200)
check("cancel leaves the contact unchanged", contact.Restitution == 0.5, contact.Restitution)

# an edit: plane faces counted within their edges (BoundedFaces): the plate's top face, a 200 mm square
contact.ViewObject.Proxy.doubleClicked(contact.ViewObject)
wait(200)
panel = task_panels.open_panel()
unchecked = not panel.bounded.isChecked()
panel.bounded.setChecked(True)
panel.choices["FrictionLaw"].setCurrentIndex(panel.choices["FrictionLaw"].findData("regularised"))  # sphere-face
ok = panel.accept()
wait(200)
shipped[0].Enabled = False
model = model_from_document(doc)
shipped[0].Enabled = True
face = model.contacts[0].shape_b if len(model.contacts) == 1 else None
check(
    "bounded faces: the top face's rectangle",
    unchecked and ok and contact.BoundedFaces and contact.FrictionLaw == "regularised"
    and face is not None and face.type == "face"
    and abs(face.length - 0.2) < 1e-12 and abs(face.width - 0.2) < 1e-12 and abs(face.depth - 0.01) < 1e-9,
    repr(face),
)  # fmt: skip
doc.removeObject(contact.Name)
doc.recompute()

# all pairs among picked bodies
Gui.Selection.clearSelection()
Gui.runCommand("MBD_Contact")
wait(300)
panel = task_panels.open_panel()
panel.all_pairs.setChecked(True)
for part in (ball, plate):
    Gui.Selection.addSelection(doc.Name, part.Name)
wait(200)
check("bodies listed", "Ball" in panel.ends[0].text() and "Plate" in panel.ends[0].text(), panel.ends[0].text())
ok = panel.accept()
check("OK all pairs", ok, "" if ok else panel.error.text())
pairs = [c for c in find_objects(doc, "Contact") if c not in shipped]
check("all pairs object", len(pairs) == 1 and pairs[0].AllPairs and len(pairs[0].Bodies) == 2)
for c in pairs:
    doc.removeObject(c.Name)
doc.recompute()

# the example solved and animated
seen = []
close_message_boxes(seen, 300000)
Gui.Selection.clearSelection()
Gui.runCommand("MBD_Solve")
wait(100)
check("drop test solved", seen and "status: completed" in seen[0][2], seen)
Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
check("animation open", anim is not None)
g, h0, e = 9.81, 0.1, 0.7
t_apex = (2 * h0 / g) ** 0.5 + e * (2 * g * h0) ** 0.5 / g  # first touch, then up at e v0
anim.show_time(t_apex)
wait(300)
shown = animate.transform_node(ball).translation.getValue()
result["ball_shown_mm"] = [shown[0], shown[1], shown[2]]
check("ball shown near its first apex e^2 h", abs(shown[2] - (20 + 1000 * e * e * h0)) < 1.0, result["ball_shown_mm"])
ball.ViewObject.ShapeColor = (0.99, 0.69, 0.24)
plate.ViewObject.ShapeColor = (0.45, 0.62, 0.81)
Gui.runCommand("MBD_Plot")
dock = plot_dock.plot_dock()
if dock is not None:
    dock.select(quantity="Energy")
view = gdoc.activeView()
view.viewFront()
Gui.SendMsgToActiveView("ViewFit")
wait(300)
result["animation_shot"] = save_window("mbd_drop_test")
if dock is not None:
    dock.dock.hide()
anim.reject()
wait(200)
result["ok"] = True
