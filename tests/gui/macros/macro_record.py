# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): objects made through the task
# panels are recorded as macro lines. A macro is recorded (Macro > Record, FreeCAD's own dialog)
# while, on a copy of examples/slider_crank.FCStd, the panels make a revolute joint (picked hole
# edges), a force (picked vertex) and a spring-damper (two picked vertices), edit a body's mass
# and the new joint's frame (Edit joint frame: offset and rotation). The macro must not start with
# `import __init__`; run on a fresh copy of the same file it rebuilds the same objects with the
# same values. Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait are provided by
# the runner.
import os
import shutil
import sys

import MBDWorkbench

REPO = os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__)))
sys.path.insert(0, os.path.join(REPO, "examples"))
from make_slider_crank_fcstd import R, hole_edge  # noqa: E402

from MBDWorkbench.cad.objects import mbd_type  # noqa: E402
from MBDWorkbench.commands import task_panels  # noqa: E402

MACRO_NAME = "mbd_recorded"
Gui.activateWorkbench("MultibodyDynamicsWorkbench")


def open_fresh_copy(folder):
    os.makedirs(os.path.join(OUT_DIR, folder), exist_ok=True)
    path = os.path.join(OUT_DIR, folder, "slider_crank_rec.FCStd")  # same name: same document name
    shutil.copy2(os.path.join(REPO, "examples", "slider_crank.FCStd"), path)
    doc = App.openDocument(path)
    wait(300)
    return doc


def start_recording():
    """Macro > Record...: FreeCAD's dialog (its folder from the Macro preferences), the name filled
    in, Record clicked; message boxes it shows are closed and reported."""
    App.ParamGet("User parameter:BaseApp/Preferences/Macro").SetString("MacroPath", OUT_DIR + os.sep)
    boxes = []

    def fill():
        for dialog in QtWidgets.QApplication.topLevelWidgets():
            if dialog.objectName() == "Gui__Dialog__DlgMacroRecord" and dialog.isVisible():
                dialog.findChild(QtWidgets.QLineEdit, "lineEditPath").setText(MACRO_NAME)
                close_message_boxes(boxes, 3000)
                dialog.findChild(QtWidgets.QPushButton, "buttonStart").click()
                return
        QtCore.QTimer.singleShot(100, fill)

    QtCore.QTimer.singleShot(100, fill)
    Gui.runCommand("Std_DlgMacroRecord")
    wait(300)
    check("recording started without a message box", not boxes, boxes)


def stop_recording():
    """Macro > Stop recording: FreeCAD 0.20's own command; FreeCAD 1.x has none, its Macro >
    Record toggles (run again while recording, it stops)."""
    try:
        Gui.runCommand("Std_MacroStopRecord")
    except Exception:  # FreeCAD 1.x: "No such command 'Std_MacroStopRecord'"
        Gui.runCommand("Std_DlgMacroRecord")


def accept(name, panel):
    ok = panel.accept()
    check("%s panel OK" % name, ok, "" if ok else panel.error.text())
    wait(100)


def pick(obj, sub=""):
    Gui.Selection.addSelection(obj.Document.Name, obj.Name, sub)
    wait(50)


def plain(value):
    """A property value comparable across documents (objects by name, numbers to 1e-9)."""
    if isinstance(value, App.DocumentObject):
        return ("object", value.Name)
    if isinstance(value, App.Units.Quantity):
        return plain(value.Value)
    if isinstance(value, App.Vector):
        return plain(tuple(value))
    if isinstance(value, App.Placement):
        return plain((tuple(value.Base), tuple(value.Rotation.Q)))
    if isinstance(value, (list, tuple)):
        return tuple(plain(v) for v in value)
    if isinstance(value, float):
        return round(value, 9) + 0.0
    return str(value)


def made_objects(doc):
    """(MbdType, Label, properties) of the MBD objects, comparable across documents."""
    out = []
    for obj in doc.Objects:
        kind = mbd_type(obj)
        if kind and kind != "Simulation":
            props = [(p, plain(getattr(obj, p))) for p in sorted(obj.PropertiesList) if p not in ("Proxy",)]
            out.append((kind, obj.Label, props))
    return sorted(out, key=str)


doc = open_fresh_copy("recorded")
before = made_objects(doc)
crank, rod, slider = (doc.getObject(n) for n in ("Crank", "Rod", "Slider"))
by_label = {o.Label: o for o in doc.Objects}
start_recording()

Gui.Selection.clearSelection()
Gui.runCommand("MBD_Joint_revolute")
wait(100)
pick(crank, hole_edge(crank, R, 8))
pick(rod, hole_edge(rod, R, 8))
accept("joint", task_panels.open_panel())

Gui.runCommand("MBD_Force")
wait(100)
panel = task_panels.open_panel()
pick(slider, "Vertex1")
panel.components["X"].setText("10*t")
accept("force", panel)

Gui.runCommand("MBD_SpringDamper")
wait(100)
panel = task_panels.open_panel()
pick(crank, "Vertex1")
pick(slider, "Vertex1")
panel.stiffness.edit.setText("2.5")
accept("spring", panel)


body = by_label["Crank_body"]
body.ViewObject.Proxy.doubleClicked(body.ViewObject)
wait(100)
panel = task_panels.open_panel()
panel.mass.edit.setText("0.25")
accept("body", panel)

from MBDWorkbench.commands import joint_panel  # noqa: E402

new_joint = [o for o in doc.Objects if mbd_type(o) == "Joint" and o.Label not in [b for _, b, _ in before]][0]
Gui.Selection.clearSelection()
Gui.Selection.addSelection(doc.Name, new_joint.Name)
Gui.runCommand("MBD_EditJointFrame")
wait(100)
frame_panel = joint_panel.open_panel()
frame_panel.offset.setValue(5.0)
frame_panel.rotation.setValue(30.0)
check("joint frame panel OK", frame_panel.accept())
wait(100)
wait(100)
stop_recording()
wait(200)

made = made_objects(doc)
result["made"] = [(k, label) for k, label, _ in made if (k, label) not in [(a, b) for a, b, _ in before]]
check("three objects made", len(result["made"]) == 3, result["made"])
path = os.path.join(OUT_DIR, MACRO_NAME + ".FCMacro")
text = open(path).read() if os.path.exists(path) else ""
result["macro"] = text
code_lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
check("macro recorded", len(code_lines) > 5, text)
check("no `import __init__` in the macro", "import __init__" not in text, code_lines[:3])
check("the makers' calls are in it", "mbd_makers.make_force(" in text and "make_joint_from_picks(" in text, text)

App.closeDocument(doc.Name)
wait(200)
doc = open_fresh_copy("replayed")
fresh = made_objects(doc)
check("a fresh copy has none of them", fresh == before, [x for x in fresh if x not in before])
Gui.doCommand("exec(open(%r).read())" % path)  # as Macro > Execute: in FreeCAD's __main__
doc.recompute()
wait(200)
replayed = made_objects(doc)
check(
    "replaying the macro rebuilds the same objects and values",
    replayed == made,
    [[x for x in replayed if x not in made], [x for x in made if x not in replayed]],
)
