# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): Undo and Redo while Animate is
# open. On a copy of examples/slider_crank.FCStd: Solve (its results stored as the undo step
# "Store results"), open Animate; FreeCAD's Undo and Redo actions (menu item and toolbar button)
# are disabled (so is their shortcut, Ctrl+Z: Qt fires no shortcut of a disabled action), stay
# disabled after FreeCAD updates its commands, and a click on the toolbar's Undo changes
# nothing; closing the panel gives them back (then the same click undoes). An undo made anyway (the Python console's
# doc.undo()) closes the panel. Names App, Gui, QtCore, QtWidgets, OUT_DIR, result, check, wait,
# close_message_boxes, open_example_copy are provided by the runner.

from MBDWorkbench.cad.objects import find_simulation
from MBDWorkbench.commands import animate

Gui.activateWorkbench("MultibodyDynamicsWorkbench")
mw = Gui.getMainWindow()
doc = open_example_copy("slider_crank.FCStd", "slider_crank_undo.FCStd", 300)
seen = []
close_message_boxes(seen, 300000)
Gui.runCommand("MBD_Solve")
wait(300)
check("solved", seen and "status: completed" in seen[0][2], seen)
check("results stored as the last undo step", doc.UndoNames[:1] == ["Store results"], doc.UndoNames)
sim = find_simulation(doc)
stored = list(sim.ResultsSummary)


def undo_buttons():
    """The toolbar's Undo and Redo buttons."""
    actions = animate.undo_actions()
    return [b for b in mw.findChildren(QtWidgets.QToolButton) if b.defaultAction() in actions]


def click_undo():
    """Click the toolbar's Undo button as a user would (QAbstractButton.click: nothing when disabled)."""
    for button in undo_buttons():
        if button.defaultAction().text() == "&Undo":
            button.click()
    wait(300)


def undo_state():
    return [(a.objectName() or a.text(), a.isEnabled()) for a in animate.undo_actions()]


check("Undo enabled before Animate", any(enabled for _, enabled in undo_state()), undo_state())
Gui.runCommand("MBD_Animate")
wait(200)
anim = animate.active_panel()
check("animation open", anim is not None)
check("four undo/redo actions found", len(undo_state()) == 4, undo_state())
check("Undo and Redo disabled while animating", not any(e for _, e in undo_state()), undo_state())
Gui.Command.update()  # FreeCAD re-evaluates every command's state
anim.show_time(0.5)
wait(1500)
check("still disabled after FreeCAD updated its commands", not any(e for _, e in undo_state()), undo_state())
undo_count = doc.UndoCount
buttons = undo_buttons()
check("toolbar Undo/Redo buttons disabled", len(buttons) >= 2 and not any(b.isEnabled() for b in buttons), buttons)
click_undo()
check(
    "clicking Undo changes nothing",
    doc.UndoCount == undo_count and list(sim.ResultsSummary) == stored and animate.active_panel() is anim,
    (doc.UndoCount, undo_count, list(sim.ResultsSummary) == stored, animate.active_panel()),
)
anim.reject()
wait(300)
check("Undo enabled again after closing", dict(undo_state()).get("Std_Undo"), undo_state())
click_undo()
check("then the Undo button undoes", doc.RedoNames[:1] == ["Store results"], doc.RedoNames)
doc.redo()
wait(200)

Gui.runCommand("MBD_Animate")
wait(200)
anim = animate.active_panel()
check("animation reopened", anim is not None)
doc.undo()  # from the Python console: not through the actions
wait(300)
check("an undo made anyway closes the animation", animate.active_panel() is None and not Gui.Control.activeDialog())
check("that undo took back the stored results", doc.RedoNames[:1] == ["Store results"], doc.RedoNames)
wait(300)
check("Redo enabled after the panel closed", dict(undo_state()).get("Std_Redo"), undo_state())
