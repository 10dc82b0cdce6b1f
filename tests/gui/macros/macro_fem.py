# GUI macro: the 'FEM check of a body' command on examples/slider_crank.FCStd (opened from a
# temporary copy): the connecting rod is selected, MBD_FemCheck runs (its file dialog replaced
# by a fixed path), the copy opens with the von Mises stress on the mesh; screenshots of the 3D
# view and of the window are saved. Checks: command active with a body selected, the summary
# message, the copy and its result, the user's document unchanged and never marked modified (its
# modified flag is read after each step: opening, selecting, the FEM check, the screenshots).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_view, save_window,
# image_stats, close_message_boxes are provided by the runner.
import os
import shutil

import MBDWorkbench
from MBDWorkbench.commands import fem_command

EXAMPLE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__))), "examples", "slider_crank.FCStd"
)
user_file = os.path.join(OUT_DIR, "slider_crank.FCStd")
shutil.copyfile(EXAMPLE, user_file)
stamp = os.path.getmtime(user_file)

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
mw = Gui.getMainWindow()
for dock in mw.findChildren(QtWidgets.QDockWidget):
    if dock.objectName() in ("Python console", "Selection view", "Report view"):
        dock.setVisible(False)
wait(100)
doc = App.openDocument(user_file)
wait(200)
user_gui = Gui.getDocument(doc.Name)
modified = {"opened": user_gui.Modified}
cmd = fem_command.FemCheckCommand()
check("inactive without a selected body", not cmd.IsActive())
rod_body = [o for o in doc.Objects if getattr(o, "MbdType", "") == "Body" and o.Part.Name == "Rod"][0]
Gui.Selection.addSelection(doc.Name, rod_body.Name)
wait(100)
check("active with the rod's body selected", cmd.IsActive())
modified["selected"] = user_gui.Modified

# The load-case choice: a dialog listing every critical instant first (the default, as --critical).
choices = []


def accept_choice():
    shown = [w for w in QtWidgets.QApplication.topLevelWidgets() if w.isVisible()]
    dialog = next((w for w in shown if isinstance(w, QtWidgets.QInputDialog)), None)
    if dialog is None:
        QtCore.QTimer.singleShot(100, accept_choice)
        return
    choices.append(list(dialog.comboBoxItems()))
    dialog.accept()


QtCore.QTimer.singleShot(100, accept_choice)
check("the default choice is every critical instant", fem_command._ask_critical() is True, choices)
check("two choices offered", choices and len(choices[0]) == 2 and "critical instant" in choices[0][0], choices)

out = os.path.join(OUT_DIR, "slider_crank_rod_fem.FCStd")
fem_command._ask_output = lambda doc: out
fem_command._ask_critical = lambda: True
seen = []
close_message_boxes(seen, 540000)
Gui.runCommand("MBD_FemCheck")
wait(300)
modified["FEM check"] = user_gui.Modified
check("summary message", seen and seen[0][0] == fem_command.FEM_BOX and "von Mises" in seen[0][2], seen)
summary = fem_command.FemCheckCommand.last
check("every critical instant analysed", len((summary or {}).get("cases", [])) >= 2, summary)
check("the message lists each case and the envelope", seen and seen[0][2].count("t = ") == len(summary["cases"])
      and "Envelope over" in seen[0][2], seen)  # fmt: skip
shown = fem_command.shown_analysis(summary)
check("the case of the largest stress is shown", any(
    c["analysis"] == shown and c["max_von_mises_MPa"] == max(d["max_von_mises_MPa"] for d in summary["cases"])
    for c in summary["cases"]), summary)  # fmt: skip
result["summary"] = {k: v for k, v in (summary or {}).items() if k != "cases"}
result["cases"] = [
    {k: c[k] for k in ("time_s", "max_von_mises_MPa", "max_displacement_mm", "support_reaction_relative")}
    for c in (summary or {}).get("cases", [])
]
check("copy written", os.path.isfile(out))
check("user's document untouched", os.path.getmtime(user_file) == stamp and doc.FileName == user_file)
copy = App.ActiveDocument
check("copy open and active", copy is not None and os.path.realpath(copy.FileName) == os.path.realpath(out))
Gui.Selection.clearSelection()
wait(300)
result["view"] = save_view("mbd_fem_von_mises", 1000, 700, "White")
check("stress picture has colours", result["view"].get("distinct_colors", 0) > 20, result["view"])
result["window"] = save_window("mbd_fem_window")
result["visible"] = [
    o.Name for o in copy.Objects if getattr(o, "ViewObject", None) is not None and o.ViewObject.Visibility
]
check(
    "only the stressed mesh is shown",
    result["visible"] == [shown + "_Mesh"],
    result["visible"],
)
modified["stress picture"] = user_gui.Modified


# The analysis tree: the copy's analysis expanded (solver, material, mesh, result and the loads
# and support as FEM objects), the loads' symbols shown on the part.
case = next(c for c in summary["cases"] if c["analysis"] == shown)
for name in case["fem_objects"]:
    copy.getObject(name).ViewObject.Visibility = True
copy.getObject(case["analysis"] + "_Mesh").ViewObject.Visibility = False
copy.getObjectsByLabel(summary["part"])[0].ViewObject.Visibility = True
combo = [d for d in mw.findChildren(QtWidgets.QDockWidget) if d.objectName() == "Combo View"]
mw.resizeDocks(combo, [430], QtCore.Qt.Horizontal)
tree = [t for t in mw.findChildren(QtWidgets.QTreeWidget) if t.isVisible()][0]
items = QtWidgets.QTreeWidgetItemIterator(tree)
while items.value():
    item = items.value()
    if item.text(0) == case["analysis"]:
        item.setExpanded(True)
        tree.scrollToItem(item, QtWidgets.QAbstractItemView.PositionAtTop)
    items += 1
Gui.getDocument(copy.Name).activeView().viewIsometric()
Gui.SendMsgToActiveView("ViewFit")
wait(500)
result["tree"] = save_window("mbd_fem_tree")
shown = {QtWidgets.QTreeWidgetItemIterator(tree).value().text(0)}
items = QtWidgets.QTreeWidgetItemIterator(tree)
while items.value():
    shown.add(items.value().text(0))
    items += 1
check("the loads are FEM objects in the tree", all(n in shown for n in case["fem_objects"]), sorted(shown))
modified["analysis tree"] = user_gui.Modified
result["user_document_modified"] = modified
check("the user's document is never marked modified", not any(modified.values()), modified)
