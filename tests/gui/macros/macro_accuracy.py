# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): the accuracy line of the
# Simulation panel. On a copy of examples/pendulum.FCStd: Solve from the panel with the estimate
# (the default) shows "Accuracy: positions +-..." under the status; with the "Estimate the
# accuracy" box unchecked it says the estimate was switched off. Screenshot mbd_panel_accuracy.png
# at FreeCAD's default window size. Names App, Gui, QtWidgets, OUT_DIR, check, wait, save_window,
# close_message_boxes, open_example_copy are provided by the runner.
import os

from MBDWorkbench.cad.objects import find_simulation
from MBDWorkbench.commands import task_panels

os.environ.pop("MBD_ACCURACY", None)  # the test suite switches it off; this macro tests it
Gui.activateWorkbench("MultibodyDynamicsWorkbench")
doc = open_example_copy("pendulum.FCStd", "pendulum_copy.FCStd", 300)
sim = find_simulation(doc)
sim.ViewObject.Proxy.doubleClicked(sim.ViewObject)
wait(100)
panel = task_panels.open_panel()
check("simulation panel opens", isinstance(panel, task_panels.SimulationPanel))
check("estimate box checked by default", panel.estimate.isChecked() and sim.EstimateAccuracy)
panel.numbers["EndTimeMilliseconds"].edit.setText("1000")
seen = []
close_message_boxes(seen, 240000)
panel.solve_button.click()
wait(200)
text = panel.accuracy.text()
tip = panel.accuracy.toolTip()
check(
    "accuracy line after the solve",
    text.startswith("Accuracy (richardson_2h):\npositions \u00b1")
    and "joint loads \u00b1" in text
    and "estimated by" in tip,
    (text, tip),
)
check("accuracy in the stored summary", any(line.startswith("accuracy: positions") for line in sim.ResultsSummary))
wait(200)
stats = save_window("mbd_panel_accuracy")
check("screenshot accuracy", stats.get("distinct_colors", 0) > 50, stats)
panel.estimate.setChecked(False)
close_message_boxes(seen, 240000)
panel.solve_button.click()
wait(200)
text = panel.accuracy.text()
check("switched off says so", not sim.EstimateAccuracy and "switched off" in text, text)
panel.reject()
wait(100)
result["done"] = True
