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
