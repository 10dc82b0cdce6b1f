# GUI macro (run by tests/gui/gui_runner_macro.py inside FreeCAD): every task panel of the
# workbench at FreeCAD's DEFAULT main-window and task-dock sizes (nothing resized: on a first
# start FreeCAD 0.20 sizes its main window to the available screen, here Xvfb's 1280x1024, and
# the Combo View dock to its own size hint). Each panel is opened on a copy of
# examples/slider_crank.FCStd and checked for clipping: no horizontal scroll bar in the task
# view, every visible widget inside the task view's viewport and at least as wide as its
# minimumSizeHint, buttons and check boxes as wide as their sizeHint, a label's text (a wrapping
# label's longest word) fits its width (QFontMetrics). A screenshot of the Combo View dock per
# panel: panel_<name>.png. Names App, Gui, QtCore, QtGui, QtWidgets, OUT_DIR, result, check,
# wait, close_message_boxes are provided by the runner.
import os
import shutil

import MBDWorkbench
from MBDWorkbench.commands import animate, joint_panel, study_panel, task_panels

REPO = os.path.dirname(os.path.dirname(os.path.abspath(MBDWorkbench.__file__)))
mw = Gui.getMainWindow()
Gui.activateWorkbench("MultibodyDynamicsWorkbench")
wait(300)


def holds_task_view(dock):
    """True when ``dock`` holds FreeCAD's task view (FreeCAD 1.x has no Combo View: a Tasks dock)."""
    return any("TaskView" in w.metaObject().className() for w in dock.findChildren(QtWidgets.QWidget))


docks = mw.findChildren(QtWidgets.QDockWidget)
combo = ([d for d in docks if d.objectName() == "Combo View"] or [d for d in docks if holds_task_view(d)])[0]
result["main_window"] = [mw.width(), mw.height()]
result["combo_view"] = [combo.width(), combo.height()]
path = os.path.join(OUT_DIR, "slider_crank_layout.FCStd")
shutil.copy2(os.path.join(REPO, "examples", "slider_crank.FCStd"), path)
doc = App.openDocument(path)
wait(300)
by_label = {o.Label: o for o in doc.Objects}
sim = [o for o in doc.Objects if getattr(o, "MbdType", "") == "Simulation"][0]
result["dock_after_open"] = [combo.width(), combo.height()]


def text_width(widget, text):
    metrics = widget.fontMetrics()
    width = metrics.horizontalAdvance if hasattr(metrics, "horizontalAdvance") else metrics.width
    return width(text)


def is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def widget_problems(widget, viewport):
    """Why ``widget`` is clipped (empty: it is not)."""
    name = "%s(%s %r)" % (type(widget).__name__, widget.objectName(), getattr(widget, "text", lambda: "")())
    out = []
    left = widget.mapTo(viewport, QtCore.QPoint(0, 0)).x() if viewport.isAncestorOf(widget) else 0
    if left < 0 or left + widget.width() > viewport.width() + 1:
        out.append(
            "%s spans x %d..%d outside the viewport width %d" % (name, left, left + widget.width(), viewport.width())
        )
    hint = widget.minimumSizeHint()
    if hint.isValid() and widget.width() + 1 < hint.width():
        out.append("%s width %d < minimumSizeHint %d" % (name, widget.width(), hint.width()))
    if isinstance(widget, QtWidgets.QAbstractButton) and widget.text():
        if widget.width() + 1 < widget.sizeHint().width():
            out.append("%s width %d < sizeHint %d" % (name, widget.width(), widget.sizeHint().width()))
    if isinstance(widget, QtWidgets.QLineEdit) and is_number(widget.text()):
        need = text_width(widget, widget.text()) + 8  # the frame and the text margins
        if need > widget.width():
            out.append("%s number needs %d px, has %d" % (name, need, widget.width()))
    if isinstance(widget, QtWidgets.QComboBox) and widget.currentText():
        icon = widget.iconSize().width() + 4 if not widget.itemIcon(widget.currentIndex()).isNull() else 0
        need = text_width(widget, widget.currentText()) + icon + 28  # the frame and the arrow
        if need > widget.width():
            out.append("%s item %r needs %d px, has %d" % (name, widget.currentText(), need, widget.width()))
    if isinstance(widget, QtWidgets.QLabel) and widget.text() and not widget.pixmap():
        text = widget.text()
        room = widget.contentsRect().width()
        need = (
            max(text_width(widget, w) for w in text.split())
            if widget.wordWrap()
            else max(text_width(widget, line) for line in text.splitlines())
        )
        if need > room + 1:
            out.append("%s text needs %d px, has %d" % (name, need, room))
    return out


def panel_problems(form):
    scroll = form
    while scroll is not None and not isinstance(scroll, QtWidgets.QScrollArea):
        scroll = scroll.parentWidget()
    viewport = scroll.viewport() if scroll is not None else form
    out = []
    if scroll is not None and scroll.horizontalScrollBar().maximum() > 0:
        widest = sorted(
            (max(w.minimumSizeHint().width(), w.minimumWidth()), type(w).__name__, w.objectName())
            for w in form.findChildren(QtWidgets.QWidget)
            if w.isVisible()
        )[-4:]
        out.append("horizontal scroll bar (range %d; widest: %s)" % (scroll.horizontalScrollBar().maximum(), widest))
    for widget in [form] + form.findChildren(QtWidgets.QWidget):
        if widget.isVisible() and not isinstance(widget, (QtWidgets.QScrollBar, QtWidgets.QMenu)):
            out += widget_problems(widget, viewport)
    return out


def inspect(name, form):
    wait(400)
    problems = panel_problems(form)
    result.setdefault("problems", {})[name] = problems
    result.setdefault("dock_width", {})[name] = combo.width()
    combo.grab().save(os.path.join(OUT_DIR, "panel_%s.png" % name))
    check("panel %s not clipped" % name, not problems, problems)


def double_click(obj):
    obj.ViewObject.Proxy.doubleClicked(obj.ViewObject)
    wait(200)
    return task_panels.open_panel()


def run_panel(name, open_it, close_it=lambda p: p.reject()):
    try:
        panel = open_it()
    except Exception as exc:  # noqa: BLE001 -- reported as a failed check
        check("panel %s opens" % name, False, repr(exc))
        return
    check("panel %s opens" % name, panel is not None)
    if panel is not None:
        inspect(name, panel.form)
        close_it(panel)
        wait(200)


def by_command(command, finder=task_panels.open_panel):
    def open_it():
        Gui.Selection.clearSelection()
        Gui.runCommand(command)
        wait(300)
        return finder()

    return open_it


joint = by_label["Guide"] if "Guide" in by_label else None
run_panel("body", lambda: double_click(by_label["Crank_body"]))
run_panel("contact", by_command("MBD_Contact"))
run_panel("joint_create", by_command("MBD_Joint_revolute"))
run_panel("joint_edit", lambda: double_click(joint))
run_panel("driver", lambda: double_click(by_label["Motor"]))
run_panel("force", by_command("MBD_Force"))
run_panel(
    "force_element",
    lambda: task_panels.show(task_panels.ForceElementPanel(doc, "rotational_spring_damper")),
)
run_panel("spring", by_command("MBD_SpringDamper"))
run_panel("simulation", lambda: double_click(sim))


def open_frame_panel():
    Gui.Selection.clearSelection()
    Gui.Selection.addSelection(doc.Name, joint.Name)
    Gui.runCommand("MBD_EditJointFrame")
    wait(300)
    return joint_panel.open_panel()


run_panel("joint_frame", open_frame_panel)
run_panel("study", by_command("MBD_ParameterStudy", study_panel.open_panel))
seen = []
close_message_boxes(seen, 300000)
Gui.runCommand("MBD_Solve")
wait(300)
result["solve_boxes"] = seen
run_panel("animate", by_command("MBD_Animate", animate.active_panel))
