"""Animate: a task panel that shows the parts moving through the stored results.

A view-only state: each part is shown through the coin SoTransform at the top of its view
provider (where FreeCAD writes the object's own Placement), so Placements, the undo/redo lists
and the document's modified flag are untouched; joint frames and CoG markers are hidden through
their display switch; the symbols of springs and forces follow the parts
(:func:`.view_providers.follow_parts`). Timeline slider, play/pause, speed and loop; a free-body
diagram of a picked body follows the playback (:mod:`.free_body`); stop impacts flash the joint's
parts and contact forces show as arrows (:mod:`.event_view`). On close the parts are shown
at their Placements again, unless "Keep this frame" is ticked: then the shown pose is written
as one undoable step "Keep animation frame" (the one way the animation changes the document).
The panel lets other commands run (Plots, Check, Solve) but not Undo and Redo: their actions
(menu, toolbar, shortcut) stay disabled while it is open, and an undo or redo made anyway (from
the Python console) closes it, so it never shows results that the document no longer holds. A
document observer stops playback and closes the panel when its document is closed. Listeners
(the plot dock) are told the current time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .common import (
    QT_TRANSLATE_NOOP,
    Command,
    active_document,
    dialog_buttons,
    message,
    qt_modules,
    show_task_panel,
    stored_results_or_message,
    translate,
)
from .view_providers import coin_module, follow_parts

if TYPE_CHECKING:
    import FreeCAD as App

    from ..cad.results_store import StoredResults

TimeListener = Callable[[float | None], object]  # called with the shown time [s], None on close
_listeners: list[TimeListener] = []
_active: list[AnimationPanel] = []


def add_time_listener(func: TimeListener) -> None:
    """``func(t)`` is called whenever the animation shows time t [s]."""
    if func not in _listeners:
        _listeners.append(func)


def remove_time_listener(func: TimeListener) -> None:
    if func in _listeners:
        _listeners.remove(func)


def active_panel() -> AnimationPanel | None:
    """The open AnimationPanel, or None."""
    return _active[0] if _active else None


# ---------------------------------------------------------------------- shared by the report
def result_parts(doc: App.Document, results: StoredResults) -> list[App.DocumentObject]:
    """Document objects of the parts the results move; ValueError naming any missing one."""
    names = list(results.part_placements(0))
    parts = [doc.getObject(name) for name in names]
    missing = [n for n, p in zip(names, parts) if p is None]
    if missing:
        raise ValueError("the results refer to parts no longer in the document: %s" % ", ".join(missing))
    return parts


def transform_node(obj: App.DocumentObject) -> Any:
    """The coin SoTransform at the top of the object's view provider (FreeCAD writes the
    object's own Placement there); ValueError if the object has none."""
    from pivy import coin

    vobj = getattr(obj, "ViewObject", None)
    root = getattr(vobj, "RootNode", None)
    if root is not None:
        for i in range(root.getNumChildren()):
            child = root.getChild(i)
            if child.isOfType(coin.SoTransform.getClassTypeId()):
                return child
    raise ValueError("'%s' has no 3D transform node to animate" % obj.Label)


def show_placement(obj: App.DocumentObject, local: App.Placement) -> None:
    """Show ``obj`` at its own (local) placement ``local`` [mm] in the 3D view only."""
    node = transform_node(obj)
    base, q = local.Base, local.Rotation.Q
    node.translation.setValue(base.x, base.y, base.z)
    node.rotation.setValue(q[0], q[1], q[2], q[3])


def global_to_local(doc: App.Document, names: list[str]) -> dict[str, App.Placement]:
    """{part name: inverse of its containers' placement}: local = that * global."""
    from ..cad.document_model import global_placement

    out = {}
    for name in names:
        obj = doc.getObject(name)
        out[name] = global_placement(obj).multiply(obj.Placement.inverse()).inverse()
    return out


def place_parts(doc: App.Document, results: StoredResults, k: int, preview: Preview | None = None) -> None:
    """Show the parts at sample ``k`` of the results (global placements, mm) in the 3D view;
    the document (placements, undo stack, modified flag) is not touched."""
    placements = results.part_placements(k)
    to_local = preview.to_local if preview is not None else global_to_local(doc, list(placements))
    for name, plc in placements.items():
        show_placement(doc.getObject(name), to_local[name].multiply(plc))
    follow_parts(doc, placements, float(results.t[k]))


def hide_markers(doc: App.Document) -> list[tuple[str, int]]:
    """Hide joint frames and CoG balls (they show the initial configuration) in the 3D view
    only (their display switch); [(name, previous switch value)]."""
    from ..cad.objects import find_objects

    hidden = []
    for obj in find_objects(doc):
        switch = getattr(getattr(obj, "ViewObject", None), "SwitchNode", None)
        if obj.MbdType in ("Joint", "Body") and switch is not None and switch.whichChild.getValue() >= 0:
            hidden.append((obj.Name, switch.whichChild.getValue()))
            switch.whichChild = -1
    return hidden


def show_markers(doc: App.Document, hidden: list[tuple[str, int]]) -> None:
    """Undo :func:`hide_markers`."""
    for name, value in hidden:
        obj = doc.getObject(name)
        switch = getattr(getattr(obj, "ViewObject", None), "SwitchNode", None)
        if switch is not None and switch.whichChild.getValue() < 0:
            switch.whichChild = value


class Preview(dict):
    """The parts' document placements ({name: Placement}) while they are shown elsewhere;
    ``to_local`` maps a global placement to each part's own."""

    to_local: dict


def begin_preview(doc: App.Document, parts: list[App.DocumentObject]) -> Preview:
    """Start showing ``parts`` away from their placements (view only: no transaction, no
    property change); returns what :func:`end_preview` needs."""
    original = Preview({p.Name: type(p.Placement)(p.Placement) for p in parts})
    original.to_local = global_to_local(doc, list(original))
    return original


def end_preview(doc: App.Document, original: dict[str, App.Placement]) -> None:
    """Show the parts at their document placements again."""
    for name in original:
        obj = doc.getObject(name)
        if obj is not None:
            show_placement(obj, obj.Placement)
    follow_parts(doc, None)


def document_alive(doc: App.Document) -> bool:
    """False once FreeCAD has closed ``doc`` (its Python object then raises ReferenceError)."""
    import FreeCAD

    try:
        name = doc.Name
    except Exception:
        return False
    return FreeCAD.listDocuments().get(name) is doc


class _DocumentCloseObserver:
    """FreeCAD document observer: stops the open animation when its document closes, closes it
    when its document's undo list is used (the stored results may have changed)."""

    def slotDeletedDocument(self, doc: App.Document) -> None:
        panel = active_panel()
        if panel is not None and panel.doc_name == getattr(doc, "Name", None):
            panel.document_closed()

    def slotUndoDocument(self, doc: App.Document) -> None:
        self._transaction_changed(doc, "Undo")

    def slotRedoDocument(self, doc: App.Document) -> None:
        self._transaction_changed(doc, "Redo")

    @staticmethod
    def _transaction_changed(doc: App.Document, what: str) -> None:
        import FreeCAD

        panel = active_panel()
        if panel is not None and panel.doc_name == getattr(doc, "Name", None):
            FreeCAD.Console.PrintWarning("Animate: closed by %s (the results shown may have changed)\n" % what)
            panel.undo_used()


UNDO_COMMANDS = ("Std_Undo", "Std_Redo")


class UndoLock:
    """Keeps FreeCAD's Undo and Redo actions (menu item, toolbar button with its history list,
    shortcut) disabled until ``release``. FreeCAD re-enables them from the undo list whenever
    it updates its commands: each ``changed`` signal disables them again."""

    def __init__(self) -> None:
        self.held: list[tuple[Any, Callable]] = []
        for action in undo_actions():
            hold = _holder(action)
            action.changed.connect(hold)
            action.setEnabled(False)
            self.held.append((action, hold))

    def release(self) -> None:
        import FreeCADGui

        for action, hold in self.held:
            try:
                action.changed.disconnect(hold)
            except (RuntimeError, TypeError):  # the action is gone
                pass
        self.held = []
        FreeCADGui.Command.update()  # FreeCAD sets them from the undo lists again


def _holder(action: Any) -> Callable[[], None]:
    def hold() -> None:
        if action.isEnabled():
            action.setEnabled(False)

    return hold


def undo_actions() -> list[Any]:
    """The QActions of FreeCAD's Undo and Redo commands: each command's own (named after it)
    and its toolbar button's with the history menu (unnamed, the same text)."""
    from .common import main_window

    _, _, QtWidgets = qt_modules()
    every = main_window().findChildren(QtWidgets.QAction)
    named = [a for a in every if a.objectName() in UNDO_COMMANDS]
    texts = {a.text() for a in named}
    return named + [a for a in every if not a.objectName() and a.text() in texts]


_observer: list[_DocumentCloseObserver] = []


def _watch_documents(on: bool) -> None:
    import FreeCAD

    if on and not _observer:
        _observer.append(_DocumentCloseObserver())
        FreeCAD.addDocumentObserver(_observer[0])
    elif not on and _observer:
        FreeCAD.removeDocumentObserver(_observer.pop())


class AnimationPanel:
    """Task panel driving the part placements from StoredResults."""

    TICK_MS = 40

    def __init__(self, doc: App.Document, results: StoredResults) -> None:
        from PySide import QtCore

        _, _, QtWidgets = qt_modules()
        self.doc, self.results, self.doc_name = doc, results, doc.Name
        self.parts = result_parts(doc, results)
        self.closed = False
        self.hidden = hide_markers(doc)
        self.index = 0
        self.time = float(results.t[0])
        self.playing = False
        self.free_body = self.events = None
        self.form = self._build(QtWidgets)
        self.timer = QtCore.QTimer()
        self.timer.setInterval(self.TICK_MS)
        self.timer.timeout.connect(self._tick)
        try:
            self.original = begin_preview(doc, self.parts)
        except Exception:
            self.free_body.close()  # its selection observer
            raise
        self.undo_lock = UndoLock()
        _active[:] = [self]
        _watch_documents(True)
        self.show_index(0)

    # ------------------------------------------------------------------ widgets
    def _build(self, QtWidgets):
        form = QtWidgets.QWidget()
        form.setObjectName("MBD_AnimationPanel")
        form.setWindowTitle(translate("MBD", "Animate"))
        layout = QtWidgets.QVBoxLayout(form)
        self.label = QtWidgets.QLabel()
        self.label.setObjectName("time")
        layout.addWidget(self.label)
        self.slider = QtWidgets.QSlider()
        self.slider.setObjectName("timeline")
        from PySide import QtCore

        self.slider.setOrientation(QtCore.Qt.Horizontal)
        self.slider.setRange(0, len(self.results) - 1)
        self.slider.valueChanged.connect(self.show_index)
        layout.addWidget(self.slider)
        row = QtWidgets.QHBoxLayout()
        self.play_button = QtWidgets.QPushButton(translate("MBD", "Play"))
        self.play_button.setObjectName("play")
        self.play_button.clicked.connect(self.toggle)
        row.addWidget(self.play_button)
        self.loop = QtWidgets.QCheckBox(translate("MBD", "Loop"))
        self.loop.setObjectName("loop")
        self.loop.setChecked(True)
        row.addWidget(self.loop)
        layout.addLayout(row)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel(translate("MBD", "Speed")))
        self.speed = QtWidgets.QDoubleSpinBox()
        self.speed.setObjectName("speed")
        self.speed.setRange(0.01, 100.0)
        self.speed.setValue(1.0)
        self.speed.setSuffix(" x")
        row.addWidget(self.speed)
        layout.addLayout(row)
        self.keep = QtWidgets.QCheckBox(translate("MBD", "Keep this frame when closing"))
        self.keep.setObjectName("keep")
        layout.addWidget(self.keep)
        from .free_body import FreeBodyPanel

        self.free_body = FreeBodyPanel(self.doc, self.results, QtWidgets)
        layout.addWidget(self.free_body.group)
        from .event_view import EventView

        size = motion_bound_box(self.doc, self.results)
        self.events = EventView(self.doc, self.results, QtWidgets, size.DiagonalLength if size.isValid() else 100.0)
        if self.events.group is not None:
            layout.addWidget(self.events.group)
        return form

    # ------------------------------------------------------------------ motion
    def show_index(self, k: int) -> None:
        """Place the parts at sample ``k``."""
        if self.closed or not document_alive(self.doc):
            self.document_closed()
            return
        k = int(max(0, min(k, len(self.results) - 1)))
        self.index = k
        self.time = float(self.results.t[k])
        place_parts(self.doc, self.results, k, self.original)
        if self.slider.value() != k:
            self.slider.blockSignals(True)
            self.slider.setValue(k)
            self.slider.blockSignals(False)
        self.label.setText(translate("MBD", "t = %.4f s (sample %d of %d)") % (self.time, k, len(self.results) - 1))
        self.free_body.show(k)
        self.events.show(k)
        for func in list(_listeners):
            try:
                func(self.time)
            except Exception:
                remove_time_listener(func)

    def show_time(self, t: float) -> None:
        """Place the parts at the sample nearest to time ``t`` [s]."""
        self.show_index(self.results.index_at(t))

    def toggle(self) -> None:
        self.playing = not self.playing
        self.play_button.setText("Pause" if self.playing else "Play")
        if self.playing:
            if self.index >= len(self.results) - 1:
                self.show_index(0)
            self.timer.start()
        else:
            self.timer.stop()

    def _tick(self):
        if self.closed:
            self.timer.stop()
            return
        t = self.time + self.speed.value() * self.TICK_MS / 1000.0
        t_end = float(self.results.t[-1])
        if t > t_end + 1e-12:
            if self.loop.isChecked():
                t = float(self.results.t[0])
            else:
                self.show_index(len(self.results) - 1)
                self.toggle()
                return
        self.show_index(self.results.index_at(t))
        self.time = t

    # ------------------------------------------------------------------ closing
    def restore(self) -> None:
        """Show every part at its document placement again."""
        end_preview(self.doc, self.original)

    def finish(self, keep: bool | None = None) -> None:
        """Close: show the document placements again, or keep the current frame as one
        undoable step "Keep animation frame" (the only way the animation changes the document)."""
        self.timer.stop()
        if self.closed:
            return
        self.closed = True
        keep = self.keep.isChecked() if keep is None else keep
        if document_alive(self.doc):
            self.restore()
            show_markers(self.doc, self.hidden)
            if keep:
                self._keep_frame()
        self._closed()

    def _keep_frame(self) -> None:
        from ..cad.document_model import set_global_placement

        self.doc.openTransaction("Keep animation frame")
        for name, plc in self.results.part_placements(self.index).items():
            set_global_placement(self.doc.getObject(name), plc)
        self.doc.commitTransaction()
        self.doc.recompute()

    def _closed(self) -> None:
        self.undo_lock.release()
        _active[:] = []
        self.free_body.close()
        self.events.close()
        _watch_documents(False)
        for func in list(_listeners):
            try:
                func(None)
            except Exception:
                remove_time_listener(func)

    def document_closed(self) -> None:
        """The document was closed under the panel: stop and close the panel (nothing to restore)."""
        from PySide import QtCore

        self.timer.stop()
        if self.closed:
            return
        self.closed = True
        self._closed()
        form = self.form
        QtCore.QTimer.singleShot(0, lambda: _close_task_dialog(form))

    def undo_used(self) -> None:
        """The document's undo list was used under the panel: close it, the parts shown at
        their (possibly undone) Placements."""
        from PySide import QtCore

        self.finish(keep=False)
        form = self.form
        QtCore.QTimer.singleShot(0, lambda: _close_task_dialog(form))

    # ------------------------------------------------------------------ task dialog
    def getStandardButtons(self) -> int:
        return dialog_buttons("Close")

    def isAllowedAlterDocument(self) -> bool:  # Plots, Check, Solve, Report stay usable
        return True

    def isAllowedAlterView(self) -> bool:
        return True

    def isAllowedAlterSelection(self) -> bool:
        return True

    def reject(self) -> bool:
        import FreeCADGui

        self.finish()
        FreeCADGui.Control.closeDialog()
        return True

    def accept(self) -> bool:
        return self.reject()


def _widget_shown(widget: Any) -> bool:
    """True while a Qt widget exists and is shown (False once Qt deleted it)."""
    try:
        return widget is not None and widget.isVisible()
    except RuntimeError:  # the C++ widget is gone
        return False


def _close_task_dialog(panel_form: Any = None) -> None:
    """Close the task dialog if it is an animation panel (after its document was closed): the
    panel's own form is still shown in it, or (FreeCAD 0.20) the dialog is the Python panel.
    FreeCAD 1.0's ``activeTaskDialog()`` returns a C++ TaskDialog without our attributes."""
    import FreeCADGui

    if not FreeCADGui.Control.activeDialog() or active_panel() is not None:
        return
    if _widget_shown(panel_form):
        FreeCADGui.Control.closeDialog()
        return
    try:
        dialog = FreeCADGui.Control.activeTaskDialog()
    except AttributeError:
        dialog = None
    if dialog is None or getattr(dialog, "doc_name", None) is not None:
        FreeCADGui.Control.closeDialog()


class AnimateCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_Animate", "Animate")
    TIP = QT_TRANSLATE_NOOP("MBD_Animate", "Play the results: move the parts along the simulated motion")
    ICON = "animate"

    def IsActive(self) -> bool:
        return active_document() is not None and active_panel() is None

    def Activated(self) -> None:
        import FreeCADGui

        doc = active_document()
        results = stored_results_or_message(doc, translate("MBD", "Animate"))
        if results is None:
            return
        if FreeCADGui.Control.activeDialog():
            message(translate("MBD", "Animate"), translate("MBD", "Close the open task panel first."), "error")
            return
        try:
            panel = AnimationPanel(doc, results)
        except Exception as exc:
            from .common import show_error

            show_error(translate("MBD", "Animate"), exc)
            return
        show_task_panel(panel)
        fit_view_to_motion(doc, results)


FIT_SAMPLES = 60  # samples whose poses the view fit takes (evenly spread over the run)


def motion_bound_box(doc: App.Document, results: StoredResults, samples: int = FIT_SAMPLES) -> App.BoundBox:
    """Global box [mm] around every part at every pose of the run (``samples`` poses evenly
    spread, the first and last included), and the parts that do not move."""
    import FreeCAD
    import numpy as np

    box = FreeCAD.BoundBox()
    local = {}
    moved = set(results.part_placements(0))
    for obj in doc.Objects:
        shape = getattr(obj, "Shape", None)
        if shape is None or shape.isNull() or not obj.ViewObject or not obj.ViewObject.Visibility:
            continue
        if obj.Name in moved:
            bare = shape.copy()
            bare.Placement = FreeCAD.Placement()
            local[obj.Name] = bare.BoundBox
        else:
            box.add(shape.BoundBox)
    for k in np.unique(np.linspace(0, len(results) - 1, min(samples, len(results))).astype(int)):
        for name, placement in results.part_placements(int(k)).items():
            if name in local:
                for i in range(8):
                    box.add(placement.multVec(local[name].getPoint(i)))
    return box


def fit_view_to_motion(doc: App.Document, results: StoredResults) -> None:
    """Fit the 3D view to the whole motion (not the start pose): the camera sees the box of
    every part at every sampled pose."""
    import FreeCADGui

    gui_doc = FreeCADGui.getDocument(doc.Name)
    view = gui_doc.activeView() if gui_doc is not None else None
    box = motion_bound_box(doc, results)
    if view is None or not hasattr(view, "getCameraNode") or not box.isValid():
        return
    coin = coin_module()
    width, height = view.getSize()
    corners = coin.SbBox3f(box.XMin, box.YMin, box.ZMin, box.XMax, box.YMax, box.ZMax)
    view.getCameraNode().viewBoundingBox(corners, width / float(max(height, 1)), 1.0)
