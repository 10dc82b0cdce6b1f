# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): the animation is a view-only
# state, Solve runs off the GUI thread, the plot dock follows the active document.
# 1. Animate the slider-crank (examples/slider_crank.FCStd, a saved copy): the parts are shown
#    moving (their coin transforms) while their Placements, the undo/redo lists and the
#    modified flag stay as they were; Plots and Check are enabled while the panel is open
#    (screenshot of the animation panel with the plot dock).
# 2. Closing the document's tab during playback closes it without a save prompt, stops the
#    panel, and puts no traceback / ReferenceError in the Report view.
# 3. Solve runs in a worker thread: a 20 ms QTimer keeps ticking while the solver works.
# 4. Cancel (the progress dialog's button) keeps the partial results, stored as "cancelled".
# 5. The plot dock shows each new run and follows the active document (nothing for a document
#    without results or after its document closed).
# Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait, save_window,
# close_message_boxes, wait_for_warm_up, open_example_copy are provided by the runner.
import sys
import time

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
from MBDWorkbench.commands import animate, plot_dock, solve_commands  # noqa: E402

mw = Gui.getMainWindow()
warm = solve_commands.warm_up_state()
check("warm-up started at activation", "done" in warm, warm)
check(
    "warm-up message in the status bar",
    warm.get("done") or mw.statusBar().currentMessage() == solve_commands.WARM_MESSAGE,
    mw.statusBar().currentMessage(),
)
result["warm_up"] = wait_for_warm_up()
check("warm-up finished without error", result["warm_up"].get("done") and "error" not in result["warm_up"])

from MBDWorkbench.cad.objects import find_simulation  # noqa: E402
from MBDWorkbench.commands.solve_commands import SolveCommand  # noqa: E402


def solve(timeout_ms=300000):
    seen = []
    close_message_boxes(seen, timeout_ms)
    Gui.runCommand("MBD_Solve")
    wait(100)
    return seen


def compiled_signatures():
    """(kernel, signature) of every compiled Numba specialisation of the solver so far."""
    import numba

    out = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("MBDWorkbench.solver"):
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, numba.core.registry.CPUDispatcher):
                out += ["%s.%s%s" % (name, attr, sig) for sig in value.signatures]
    return out


def report_text():
    for dock in mw.findChildren(QtWidgets.QDockWidget):
        if dock.objectName() == "Report view":
            edit = dock.findChild(QtWidgets.QTextEdit) or dock.findChild(QtWidgets.QPlainTextEdit)
            return edit.toPlainText() if edit is not None else ""
    return ""


def command_enabled(name):
    """Is the command's action enabled (FreeCAD greys out what a task dialog blocks)?"""
    try:
        Gui.updateCommands()
    except Exception:
        pass
    wait(400)
    actions = []
    try:
        actions = list(Gui.Command.get(name).getAction())
    except Exception:
        actions = [a for a in mw.findChildren(QtWidgets.QAction) if a.objectName() == name]
    return bool(actions) and all(a.isEnabled() for a in actions)


def shown_placement(obj):
    """Translation [mm] and rotation quaternion shown by the part's coin transform."""
    node = animate.transform_node(obj)
    return tuple(node.translation.getValue()), tuple(node.rotation.getValue().getValue())


def document_placement(obj):
    b, q = obj.Placement.Base, obj.Placement.Rotation.Q
    return (b.x, b.y, b.z), tuple(q)


def close(a, b, tol=1e-3):
    return all(abs(x - y) <= tol for u, v in zip(a, b) for x, y in zip(u, v))


# ------------------------------------------------------------------ 1. view-only animation
doc = open_example_copy("slider_crank.FCStd", "anim_view_only.FCStd")
Gui.activeDocument().activeView().viewTop()
Gui.SendMsgToActiveView("ViewFit")
seen = solve()
check("slider-crank solved", seen and "status: completed" in seen[0][2], seen)
App.setActiveDocument(doc.Name)
Gui.runCommand("Std_Save")  # the GUI save clears the modified flag (App save does not on 0.20)
wait(100)
gdoc = Gui.getDocument(doc.Name)
parts = [doc.getObject(n) for n in ("Crank", "Rod", "Slider")]
before = {p.Name: document_placement(p) for p in parts}
undo_before, redo_before = list(doc.UndoNames), list(doc.RedoNames)
check("saved document not modified", not gdoc.Modified)
check("Plots enabled before animating", command_enabled("MBD_Plot"))

Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
check("animation panel open", anim is not None)
anim.show_time(0.3)
wait(200)
moved = [p.Name for p in parts if not close(shown_placement(p), before[p.Name])]
check("the parts are shown moved", "Crank" in moved and "Rod" in moved, moved)
check(
    "their Placements are untouched",
    all(document_placement(p) == before[p.Name] for p in parts),
    {p.Name: document_placement(p) for p in parts},
)
anim.toggle()
wait(400)
anim.toggle()
check("Plots enabled while animating", command_enabled("MBD_Plot"))
check("Check enabled while animating", command_enabled("MBD_Check"))
Gui.runCommand("MBD_Plot")
dock = plot_dock.plot_dock()
check("plot dock opened during the animation", dock is not None and dock.results is not None)
if dock is not None:
    dock.select(element="Motor", quantity="Driver effort")
anim.show_time(0.6)
wait(300)
result["window_animation_plots"] = save_window("animation_with_plots")
check("undo list unchanged while animating", list(doc.UndoNames) == undo_before, doc.UndoNames)
check("not modified while animating", not gdoc.Modified)
anim.reject()
wait(200)
check("panel closed", animate.active_panel() is None and not Gui.Control.activeDialog())
check("undo list unchanged", list(doc.UndoNames) == undo_before, (undo_before, doc.UndoNames))
check("redo list unchanged", list(doc.RedoNames) == redo_before, (redo_before, doc.RedoNames))
check("modified flag unchanged (no save prompt on close)", not gdoc.Modified)
check("parts shown at their placements again", all(close(shown_placement(p), before[p.Name]) for p in parts))

# keep a frame: the one way the animation changes the document, one undo step
Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
anim.show_time(0.3)
shown = {p.Name: shown_placement(p) for p in parts}
anim.keep.setChecked(True)
anim.reject()
check(
    "kept Placements are the shown ones (coin transform = FreeCAD's own)",
    all(close(document_placement(p), shown[p.Name], 1e-4) for p in parts),  # coin: float32
    ({p.Name: document_placement(p) for p in parts}, shown),
)
check("kept frame: one undo step", list(doc.UndoNames) == ["Keep animation frame"] + undo_before, doc.UndoNames)
check("kept frame moved the crank", document_placement(parts[0]) != before["Crank"])
doc.undo()
check("undo restores it", document_placement(parts[0]) == before["Crank"])
App.setActiveDocument(doc.Name)
Gui.runCommand("Std_Save")  # the GUI save clears the modified flag (App save does not on 0.20)
wait(100)

# ------------------------------------------------------------------ 2. close the tab while playing
Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
anim.toggle()
wait(300)
check("playing", anim.timer.isActive())
report_before = report_text()
boxes = []
close_message_boxes(boxes, 1400)  # ends before the next part
name = doc.Name
App.setActiveDocument(name)
mdi = mw.findChild(QtWidgets.QMdiArea)
views = [w for w in mdi.subWindowList() if w.windowTitle().startswith(doc.Label + " ")]
check("the document's 3D view found", len(views) == 1, [w.windowTitle() for w in mdi.subWindowList()])
for w in views:  # as the tab's close button: from the event loop (Qt deletes the view later)
    QtCore.QTimer.singleShot(0, w.close)
wait(1600)
new_report = report_text()[len(report_before) :]
result["report_after_close"] = new_report[-2000:]
check("document closed", name not in App.listDocuments(), list(App.listDocuments()))
check("no save prompt", not boxes, boxes)
check("playback stopped", not anim.timer.isActive() and animate.active_panel() is None)
check("task panel closed", not Gui.Control.activeDialog())
check(
    "no traceback in the Report view", "Traceback" not in new_report and "ReferenceError" not in new_report, new_report
)

# ------------------------------------------------------------------ 3. Solve in a worker thread
doc = open_example_copy("slider_crank.FCStd", "solve_thread.FCStd")
sim = find_simulation(doc)
sim.EndTimeMilliseconds = 20000
doc.recompute()
ticks = []


def tick():
    run = solve_commands.solve_running()
    if run is not None:
        ticks.append((time.perf_counter(), run.dialog.labelText()))


timer = QtCore.QTimer()
timer.setInterval(20)
timer.timeout.connect(tick)
compiled_before = compiled_signatures()
timer.start()
solve_started = time.perf_counter()
seen = solve()
solve_wall = time.perf_counter() - solve_started
timer.stop()
gaps = sorted(b[0] - a[0] for a, b in zip(ticks, ticks[1:]))
timing = dict(
    ticks=len(ticks),
    solve_wall_s=solve_wall,
    max_gap_s=gaps[-1] if gaps else None,
    p90_gap_s=gaps[int(0.9 * (len(gaps) - 1))] if gaps else None,
    compiled_during_solve=sorted(set(compiled_signatures()) - set(compiled_before)),
    switch_interval_s=sys.getswitchinterval(),
)
result["solve_timing"] = timing
check("solved in the thread", seen and "status: completed" in seen[0][2], seen)
check("the event loop ticked during the solve", len(ticks) >= 5, timing)
# "responding within 100 ms": nine gaps in ten under 100 ms (a loaded 2-core machine stalls now and then)
check("the event loop answered within 100 ms", gaps and gaps[int(0.9 * (len(gaps) - 1))] < 0.1, timing)
check("progress label shows time and ETA", ticks and "ETA" in ticks[-1][1] and "t = " in ticks[-1][1], ticks[-1:])

# ------------------------------------------------------------------ 4. Cancel keeps partial results
sim.EndTimeMilliseconds = 400000
doc.recompute()
state = {"clicked": None}


def click_cancel():
    run = solve_commands.solve_running()
    if run is not None and run.state["t"] > 0.3 and state["clicked"] is None:
        for button in run.dialog.findChildren(QtWidgets.QPushButton):
            if button.text().replace("&", "") == "Cancel":
                state["clicked"] = run.state["t"]
                button.click()


timer = QtCore.QTimer()
timer.setInterval(50)
timer.timeout.connect(click_cancel)
timer.start()
seen = solve()
timer.stop()
stored = SolveCommand.last[0] if SolveCommand.last else None
check("cancel clicked during the run", state["clicked"] is not None, state)
check("cancelled: warning box says so", seen and "Run cancelled" in seen[0][2], seen)
check(
    "partial results stored",
    stored is not None and stored.summary.get("status") == "cancelled" and 0.3 <= stored.t[-1] < 400.0,
    None if stored is None else (stored.summary.get("status"), float(stored.t[-1])),
)

# ------------------------------------------------------------------ 5. plot dock follows
Gui.runCommand("MBD_Plot")
dock = plot_dock.plot_dock()
check("dock shows the cancelled run", dock.doc_name == doc.Name and abs(dock.results.t[-1] - stored.t[-1]) < 1e-9)
sim.EndTimeMilliseconds = 500
doc.recompute()
Gui.runCommand("MBD_Animate")
check("Solve enabled while animating", command_enabled("MBD_Solve"))
seen = solve()
check(
    "Solve closed the animation of the replaced run", animate.active_panel() is None and not Gui.Control.activeDialog()
)
check("dock shows the new run after Solve", dock.results is not None and abs(dock.results.t[-1] - 0.5) < 1e-9)
other = App.newDocument("NoResults")
wait(200)
check("new active document: no plots", dock.doc_name == "NoResults" and dock.results is None, dock.doc_name)
App.setActiveDocument(doc.Name)
wait(200)
check("back to the solved document", dock.doc_name == doc.Name and dock.results is not None, dock.doc_name)
name = doc.Name
App.closeDocument(name)
wait(200)
check("closed document's plots dropped", dock.doc_name != name, dock.doc_name)

# ------------------------------------------------------------------ 6. quit FreeCAD while playing
# Left playing: the runner then closes every document and the main window (as quitting FreeCAD
# does); test_animation_solve_gui.py checks that FreeCAD exits on its own without a traceback.
doc = open_example_copy("pendulum.FCStd", "quit_while_playing.FCStd")
seen = solve()
Gui.runCommand("MBD_Animate")
anim = animate.active_panel()
anim.toggle()
wait(300)
check("left playing for the quit", anim is not None and anim.timer.isActive())
