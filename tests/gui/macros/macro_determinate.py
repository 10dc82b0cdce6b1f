# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): "Make statically determinate".
# The four-bar example (examples/four_bar.FCStd: four revolutes, redundant) is checked: the Check
# result offers the button, which sets the Simulation's MakeDeterminate; the next Solve relaxes
# the joints the Check proposed and stores them in the run's summary (no 'redundant' warning).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_window, run_with_box are provided by the runner.
import os
import shutil

import MBDWorkbench

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(100)

from MBDWorkbench.cad.objects import find_simulation
from MBDWorkbench.commands.solve_commands import SolveCommand


def run_with_boxes(command, png, press=None):
    """Run ``command``; (objectName, text, pressed) of the first box it shows, grabbed to
    OUT_DIR/<png>.png, its button ``press`` clicked (else closed)."""
    return [(b["name"], b["text"], b["pressed"]) for b in run_with_box(command, png, press)]


example = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples")
path = os.path.join(OUT_DIR, "four_bar_determinate.FCStd")
shutil.copy(os.path.join(example, "four_bar.FCStd"), path)
doc = App.openDocument(path)
wait(200)
sim = find_simulation(doc)
sim.EndTimeMilliseconds = 100
doc.recompute()
check("not determinate at first", not sim.MakeDeterminate)

seen = run_with_boxes("MBD_Check", "check_determinate", press="make_determinate")
result["check"] = seen
check("the Check result offers 'Make statically determinate'", seen and seen[0][2], seen)
check("the button sets MakeDeterminate", sim.MakeDeterminate)

seen = run_with_boxes("MBD_Solve", "solve_determinate")
result["solve"] = seen
stored = SolveCommand.last[0] if SolveCommand.last else None
summary = stored.summary if stored is not None else {}
result["relaxations"] = summary.get("relaxations")
check("the run relaxed the joints", summary.get("relaxations"), summary.get("relaxations"))
check("no redundant warning", not any(w["kind"] == "redundant" for w in summary.get("warnings", [])), summary)
if Gui.Control.activeDialog():
    Gui.Control.closeDialog()
check("finished", True)
