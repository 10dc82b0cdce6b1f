# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): the run status in the Solve
# dialogs. The pendulum example (examples/pendulum.FCStd) solves to "completed" in a non-modal
# information notice; with two motors on its pivot it is over-driven and Solve refuses it in a WARNING box naming
# both drivers (nothing stored); with explicit Euler and a coarse step it ends
# "completed_with_warnings": a non-modal notice, and the Simulation panel lists the violation
# warning below the status. Each box is grabbed to a PNG before it is closed; the panel too.
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_window, run_with_box are provided by the runner.
import os
import shutil

import MBDWorkbench

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(100)

from MBDWorkbench.cad.makers import make_driver
from MBDWorkbench.cad.objects import find_objects, find_simulation
from MBDWorkbench.commands.panels.base import open_panel
from MBDWorkbench.commands.solve_commands import SolveCommand


def solve_with_boxes(png):
    """Run MBD_Solve; (objectName, icon, text, modal) of the first box it shows, grabbed to
    OUT_DIR/<png>.png and closed."""
    return [(b["name"], b["icon"], b["text"], b["modal"]) for b in run_with_box("MBD_Solve", png)]


example = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples")
path = os.path.join(OUT_DIR, "pendulum_status.FCStd")
shutil.copy(os.path.join(example, "pendulum.FCStd"), path)
doc = App.openDocument(path)
wait(200)
sim = find_simulation(doc)
sim.EndTimeMilliseconds = 200
doc.recompute()

seen = solve_with_boxes("box_completed")
result["completed"] = seen
check(
    "completed run: information notice, not modal",
    seen
    and seen[0][0] == "MBD_SolveSummary"
    and seen[0][1] == "information"
    and "status: completed" in seen[0][2]
    and not seen[0][3],
    seen,
)

pivot = find_objects(doc, "Joint")[0]
make_driver(doc, pivot, "constant_speed", label="MotorA", Rate=90.0)
make_driver(doc, pivot, "constant_speed", label="MotorB", Rate=180.0)
doc.recompute()
archive_before = sim.ResultsArchive
seen = solve_with_boxes("box_overdriven")
result["overdriven"] = seen
text = seen[0][2] if seen else ""
check("over-driven: a warning box", seen and seen[0][1] == "warning" and seen[0][0] == "MBD_SolveRefused", seen)
check("over-driven: both drivers named", "'MotorA'" in text and "'MotorB'" in text, text)
check("over-driven: refused, nothing stored", "refused" in text and sim.ResultsArchive == archive_before)
check("over-driven: no results returned", SolveCommand.last is not None and SolveCommand.last[0] is None)

for d in find_objects(doc, "Driver"):
    doc.removeObject(d.Name)
sim.Integrator = "euler"
sim.StepMicroseconds = 10000
doc.recompute()
seen = solve_with_boxes("box_warnings")
result["warnings"] = seen
text = seen[0][2] if seen else ""
check(
    "completed with warnings: a notice, not modal", seen and seen[0][0] == "MBD_SolveSummary" and not seen[0][3], seen
)
check("status shown", "status: completed_with_warnings" in text, text)
Gui.getDocument(doc.Name).setEdit(sim.Name)  # double-click on the Simulation
wait(200)
panel = open_panel()
form = getattr(panel, "form", None)
status = form.findChild(QtWidgets.QLabel, "status") if form is not None else None
listed = form.findChild(QtWidgets.QListWidget, "warnings") if form is not None else None
items = [listed.item(k).text() for k in range(listed.count())] if listed is not None else []
result["warning_items"] = items
check("the Simulation panel shows the run", type(panel).__name__ == "SimulationPanel", type(panel).__name__)
modal = QtWidgets.QApplication.activeModalWidget()
check("no modal box over the panel", modal is None, modal and modal.objectName())
check("panel status shown", status is not None and "completed_with_warnings" in status.text(), status and status.text())
check("warnings listed in the panel", listed is not None and listed.isVisible() and items, items)
check(
    "violation warning listed with its joint", any("[violation at t = " in t and "'Pivot'" in t for t in items), items
)
check(
    "the list fits the task dock (no horizontal scrolling)",
    listed is not None
    and listed.horizontalScrollBar().maximum() == 0
    and listed.mapTo(form, QtCore.QPoint(listed.width(), 0)).x() <= form.width(),
    listed and listed.width(),
)
result["form_width"] = [form.minimumSizeHint().width(), form.width()]
area = listed
while area is not None and not isinstance(area, QtWidgets.QScrollArea):
    area = area.parentWidget()
if area is not None:
    area.ensureWidgetVisible(listed)  # the window's screenshot shows the listed warnings
wait(300)
save_window("panel_warnings")
if form is not None:
    form.grab().save(os.path.join(OUT_DIR, "panel_warnings_form.png"))
Gui.Control.closeDialog()
stored = SolveCommand.last[0] if SolveCommand.last else None
check("results stored", stored is not None and stored.summary["status"] == "completed_with_warnings")
