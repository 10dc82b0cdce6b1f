# GUI macro: the motion-study report command on examples/slider_crank.FCStd. The example is
# solved with the Solve command, then MBD_Report runs (its folder dialog replaced by a fixed
# path) and make_report is called directly with the PNG frames kept. Checks: the command is
# inactive before the solve, the files are written, the placements and the undo count are
# unchanged. The GIF itself is checked by tests/gui/test_report_gui.py (Pillow).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, close_message_boxes are
# provided by the runner.
import os

import MBDWorkbench
from MBDWorkbench.cad.objects import find_simulation
from MBDWorkbench.commands import report_command

EXAMPLE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples", "slider_crank.FCStd"
)

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(100)
doc = App.openDocument(EXAMPLE)
wait(200)
view = Gui.getDocument(doc.Name).activeView()
view.viewIsometric()
Gui.SendMsgToActiveView("ViewFit")
wait(200)
for name in ("Crank", "Rod", "Slider"):
    doc.getObject(name).ViewObject.ShapeColor = (0.35, 0.5, 0.75)


def same(a, b, tol=1e-12):
    ma, mb = a.toMatrix(), b.toMatrix()
    return all(abs(x - y) <= tol for x, y in zip(ma.A, mb.A))


def snapshot():
    return {o.Name: App.Placement(o.Placement) for o in doc.Objects if hasattr(o, "Placement")}


cmd = report_command.ReportCommand()
check("report inactive without results", not cmd.IsActive())

seen = []
close_message_boxes(seen, 240000)
Gui.runCommand("MBD_Solve")
wait(100)
check("solved", seen and seen[0][0] == "MBD_SolveSummary" and "status: completed" in seen[0][2], seen)
check("report active after solve", cmd.IsActive())

# a camera zoomed in on the crank: the GIF's camera must still hold the whole motion (checked by the test)
Gui.Selection.clearSelection()
Gui.Selection.addSelection(doc.getObject("Crank"))
Gui.SendMsgToActiveView("ViewSelection")
Gui.Selection.clearSelection()
wait(100)
cam = view.getCameraNode()
cam.height.setValue(cam.height.getValue() * 0.5)


def camera_state():
    """Position, orientation and height of the 3D view's camera (a fresh node after setCamera)."""
    c = view.getCameraNode()
    return list(c.position.getValue()) + list(c.orientation.getValue().getValue()) + [c.height.getValue()]


camera_before = camera_state()

before = snapshot()
undo_before = doc.UndoCount
visible_before = {o.Name: o.ViewObject.Visibility for o in doc.Objects}
result["undo_before"] = undo_before

# the command, with its folder dialog answered by a fixed path
out1 = os.path.join(OUT_DIR, "report_cmd")
report_command._ask_folder = lambda: out1
seen = []
close_message_boxes(seen, 120000)
Gui.runCommand("MBD_Report")
wait(100)
check(
    "report message lists the paths",
    seen and seen[0][0] == report_command.REPORT_BOX and "motion_3d.gif" in seen[0][2] and "report.html" in seen[0][2],
    seen,
)
result["command_paths"] = report_command.ReportCommand.last

# direct call: frames kept for inspection
out2 = os.path.join(OUT_DIR, "report_direct")
paths = report_command.make_report(doc, find_simulation(doc), out2, frames=24, size=(640, 480), keep_frames=True)
result["direct_paths"] = paths
result["out_dirs"] = [out1, out2]
camera_after = camera_state()
check(
    "camera restored after the report",
    all(abs(a - b) <= 1e-4 * (1 + abs(a)) for a, b in zip(camera_before, camera_after)),
    (camera_before, camera_after),
)
with open(os.path.join(out2, "report.html"), encoding="utf-8") as f:
    html = f.read()
archive = find_simulation(doc).ResultsArchive
check("report names the document, not the temporary archive path", doc.FileName in html and archive not in html)

after = snapshot()
check(
    "placements unchanged",
    set(after) == set(before) and all(same(after[n], before[n]) for n in before),
    {n: str(after[n]) for n in after if n in before and not same(after[n], before[n])},
)
check("no undo step", doc.UndoCount == undo_before, (undo_before, doc.UndoCount))
check("visibility unchanged", {o.Name: o.ViewObject.Visibility for o in doc.Objects} == visible_before)

# existing files are not silently replaced by the scripted call
try:
    report_command.make_report(doc, find_simulation(doc), out2, frames=3)
    refused = False
except Exception as exc:
    refused = "already exists" in str(exc)
check("existing report not overwritten", refused)
check("no undo step after refusal", doc.UndoCount == undo_before, (undo_before, doc.UndoCount))

# the report while the Animate panel plays: enabled, and the panel goes on at its own frame afterwards
from MBDWorkbench.commands import animate  # noqa: E402

Gui.runCommand("MBD_Animate")
wait(200)
panel = animate.active_panel()
panel.toggle()
wait(300)
check("report enabled while animating", cmd.IsActive())
out3 = os.path.join(OUT_DIR, "report_animating")
report_command.make_report(doc, find_simulation(doc), out3, frames=4, size=(320, 240))
check("report written while animating", os.path.isfile(os.path.join(out3, "motion_3d.gif")))
check("animation still open and playing", animate.active_panel() is panel and panel.timer.isActive())
panel.toggle()
wait(100)
shown = tuple(animate.transform_node(doc.getObject("Crank")).rotation.getValue().getValue())
expected = panel.results.part_placements(panel.index)["Crank"].Rotation.Q
check("the panel's frame is shown again", all(abs(a - b) < 1e-5 or abs(a + b) < 1e-5 for a, b in zip(shown, expected)))
panel.reject()
wait(100)
check("no undo step after animating", doc.UndoCount == undo_before, (undo_before, doc.UndoCount))
