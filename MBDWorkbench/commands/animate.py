"""Animate: a task panel that moves the parts (their Placement) through the stored results.

Timeline slider, play/pause, speed and loop. On close every original placement is restored
unless "Keep this frame" is ticked; the animation opens a transaction that is aborted on
close, so it leaves no undo step, and a kept frame is one undoable step "Keep animation frame".
Listeners (the plot dock) are told the current time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .common import Command, active_document, dialog_buttons, message, qt_modules, stored_results_or_message

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


def place_parts(doc: App.Document, results: StoredResults, k: int) -> None:
    """Place the parts at sample ``k`` of the results (global placements, mm)."""
    from ..cad.document_model import set_global_placement

    for name, plc in results.part_placements(k).items():
        set_global_placement(doc.getObject(name), plc)


def hide_markers(doc: App.Document) -> list[str]:
    """Hide joint frames and CoG balls (they show the initial configuration); their names."""
    from ..cad.objects import find_objects

    hidden = []
    for obj in find_objects(doc):
        vobj = getattr(obj, "ViewObject", None)
        if obj.MbdType in ("Joint", "Body") and vobj is not None and vobj.Visibility:
            vobj.Visibility = False
            hidden.append(obj.Name)
    return hidden


def show_markers(doc: App.Document, names: list[str]) -> None:
    for name in names:
        obj = doc.getObject(name)
        if obj is not None and obj.ViewObject is not None:
            obj.ViewObject.Visibility = True


def restore_placements(doc: App.Document, original: dict[str, App.Placement]) -> None:
    """Put back ``original`` ({object name: Placement})."""
    for name, plc in original.items():
        obj = doc.getObject(name)
        if obj is not None:
            obj.Placement = plc


def begin_preview(doc: App.Document, parts: list[App.DocumentObject]) -> dict[str, App.Placement]:
    """Start moving ``parts`` without touching the document: returns their original placements
    and opens the transaction that :func:`end_preview` aborts (so no undo step is left)."""
    original = {p.Name: type(p.Placement)(p.Placement) for p in parts}
    doc.openTransaction("MBD animation")
    return original


def end_preview(doc: App.Document, original: dict[str, App.Placement]) -> None:
    """Restore the original placements and abort the preview transaction."""
    restore_placements(doc, original)
    doc.abortTransaction()
    restore_placements(doc, original)  # abort rolls back recorded changes; make sure the originals stand


class AnimationPanel:
    """Task panel driving the part placements from StoredResults."""

    TICK_MS = 40

    def __init__(self, doc: App.Document, results: StoredResults) -> None:
        from PySide import QtCore

        _, _, QtWidgets = qt_modules()
        self.doc, self.results = doc, results
        self.parts = result_parts(doc, results)
        self.hidden = hide_markers(doc)
        self.index = 0
        self.time = float(results.t[0])
        self.playing = False
        self.form = self._build(QtWidgets)
        self.timer = QtCore.QTimer()
        self.timer.setInterval(self.TICK_MS)
        self.timer.timeout.connect(self._tick)
        self.original = begin_preview(doc, self.parts)
        _active[:] = [self]
        self.show_index(0)

    # ------------------------------------------------------------------ widgets
    def _build(self, QtWidgets):
        form = QtWidgets.QWidget()
        form.setObjectName("MBD_AnimationPanel")
        form.setWindowTitle("Animate")
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
        self.play_button = QtWidgets.QPushButton("Play")
        self.play_button.setObjectName("play")
        self.play_button.clicked.connect(self.toggle)
        row.addWidget(self.play_button)
        self.loop = QtWidgets.QCheckBox("Loop")
        self.loop.setObjectName("loop")
        self.loop.setChecked(True)
        row.addWidget(self.loop)
        layout.addLayout(row)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("Speed"))
        self.speed = QtWidgets.QDoubleSpinBox()
        self.speed.setObjectName("speed")
        self.speed.setRange(0.01, 100.0)
        self.speed.setValue(1.0)
        self.speed.setSuffix(" x")
        row.addWidget(self.speed)
        layout.addLayout(row)
        self.keep = QtWidgets.QCheckBox("Keep this frame when closing")
        self.keep.setObjectName("keep")
        layout.addWidget(self.keep)
        return form

    # ------------------------------------------------------------------ motion
    def show_index(self, k: int) -> None:
        """Place the parts at sample ``k``."""
        k = int(max(0, min(k, len(self.results) - 1)))
        self.index = k
        self.time = float(self.results.t[k])
        place_parts(self.doc, self.results, k)
        if self.slider.value() != k:
            self.slider.blockSignals(True)
            self.slider.setValue(k)
            self.slider.blockSignals(False)
        self.label.setText("t = %.4f s (sample %d of %d)" % (self.time, k, len(self.results) - 1))
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
        """Put every part back where it was when the panel opened."""
        restore_placements(self.doc, self.original)

    def finish(self, keep: bool | None = None) -> None:
        """Close: restore placements (or keep the current frame as one undoable step)."""
        self.timer.stop()
        keep = self.keep.isChecked() if keep is None else keep
        kept = {p.Name: type(p.Placement)(p.Placement) for p in self.parts}
        end_preview(self.doc, self.original)
        if keep:
            self.doc.openTransaction("Keep animation frame")
            for name, plc in kept.items():
                self.doc.getObject(name).Placement = plc
            self.doc.commitTransaction()
        show_markers(self.doc, self.hidden)
        _active[:] = []
        for func in list(_listeners):
            try:
                func(None)
            except Exception:
                remove_time_listener(func)
        self.doc.recompute()

    def getStandardButtons(self) -> int:
        return dialog_buttons("Close")

    def reject(self) -> bool:
        import FreeCADGui

        self.finish()
        FreeCADGui.Control.closeDialog()
        return True

    def accept(self) -> bool:
        return self.reject()


class AnimateCommand(Command):
    MENU, TIP, ICON = "Animate", "Play the results: move the parts along the simulated motion", "animate"

    def IsActive(self) -> bool:
        return active_document() is not None and active_panel() is None

    def Activated(self) -> None:
        import FreeCADGui

        doc = active_document()
        results = stored_results_or_message(doc, "Animate")
        if results is None:
            return
        if FreeCADGui.Control.activeDialog():
            message("Animate", "Close the open task panel first.", "error")
            return
        try:
            panel = AnimationPanel(doc, results)
        except Exception as exc:
            from .common import show_error

            show_error("Animate", exc)
            return
        FreeCADGui.Control.showDialog(panel)
