# GUI macro: the "Parameter study" command on a copy of examples/slider_crank.FCStd. The panel
# offers the motor speed among the document's numbers; a 3-point grid of it runs on the local
# Dask cluster (worker processes started from inside FreeCAD) with the progress bar; the study
# folder is written, the KPI plot shown in its dock (grabbed to study_plot_dock.png), and the
# panel's values are saved with the document (its Meta) and come back when it is reopened.
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait are provided by the runner.
import csv
import json
import os
import shutil
import time

import MBDWorkbench
from MBDWorkbench.commands import study_panel

EXAMPLE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples", "slider_crank.FCStd"
)
SPEED = "drivers[Motor].profile.speed"

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(100)
path = os.path.join(OUT_DIR, "slider_crank_study.FCStd")
shutil.copy(EXAMPLE, path)
doc = App.openDocument(path)
wait(200)
Gui.runCommand("MBD_ParameterStudy")
wait(200)
panel = study_panel.open_panel()
check("panel open", panel is not None)
check("motor speed offered", panel.parameter.findData(SPEED) >= 0)
out = os.path.join(OUT_DIR, "study")
panel.set_settings({"parameter": SPEED, "design": "grid", "low": "2", "high": "6", "count": 3, "out": out})
panel.workers.setValue(2)
check("started", panel.start())
deadline = time.time() + 240
while panel.running() and time.time() < deadline:
    wait(200)
check("finished", not panel.running(), panel.status.text())
result["status_text"] = panel.status.text()
rows = (
    list(csv.DictReader(open(os.path.join(out, "study.csv")))) if os.path.exists(os.path.join(out, "study.csv")) else []
)
result["rows"] = rows
check("three variants", [float(r[SPEED]) for r in rows] == [2.0, 4.0, 6.0], rows)
check("all completed", all(r["status"].startswith("completed") for r in rows), [r["status"] for r in rows])
check("progress at the end", panel.progress.value() == 3, panel.progress.value())
dock = Gui.getMainWindow().findChild(QtWidgets.QDockWidget, study_panel.PLOT_DOCK)
check("plot dock shown", dock is not None and dock.isVisible())
if dock is not None:
    wait(200)
    dock.grab().save(os.path.join(OUT_DIR, "study_plot_dock.png"))
    mw = Gui.getMainWindow()
    check(
        "plot dock beside the 3D view, not in a corner",
        mw.dockWidgetArea(dock) == QtCore.Qt.RightDockWidgetArea
        and dock.width() >= 0.3 * mw.width()
        and dock.height() >= 0.5 * mw.height()
        and not dock.isFloating(),
        (int(mw.dockWidgetArea(dock)), dock.width(), dock.height(), mw.width(), mw.height()),
    )
    image = dock.findChild(QtWidgets.QLabel, "MBD_StudyPlotImage")
    check(
        "the plot is scaled to the dock (not cut off)",
        image.pixmap().width() <= dock.width() and image.pixmap().width() >= 0.6 * dock.width(),
        (image.pixmap().width(), dock.width()),
    )
    save_window("study_window")
check("report written", os.path.exists(os.path.join(out, "report.html")))
panel.reject()
wait(100)
doc.save()
App.closeDocument(doc.Name)
wait(100)
doc = App.openDocument(path)
saved = json.loads(doc.Meta.get(study_panel.META_KEY, "{}"))
result["saved"] = saved
check("study saved with the document", saved.get("parameter") == SPEED and saved.get("count") == 3, saved)
App.closeDocument(doc.Name)
