"""The "Parameter study" command: a task panel that varies one number of the document's model
(picked from its bodies, joints, forces, drivers and settings) over a range, as a grid, a Latin
hypercube or a Monte Carlo design, and runs the variants on the local Dask cluster (or on the
scheduler whose address is the preference ``StudyScheduler`` of
``User parameter:BaseApp/Preferences/Mod/MBDWorkbench``) with a progress bar and Cancel. The
study folder (study.csv, plots, report.html; docs/studies.md) is written as a whole, the KPI
plot is shown in the dock "MBD study plot", and the panel's settings are saved with the document
(its ``Meta`` entry ``MBD_Study``).

The run goes on a background thread; a Qt timer reads its progress, so the window stays
responsive. Workers never import FreeCAD: the document is converted to a model dict once, here.
"""

from __future__ import annotations

import json
import os
import threading
from typing import TYPE_CHECKING

from .common import (
    QT_TRANSLATE_NOOP,
    Command,
    active_document,
    dialog_buttons,
    main_window,
    qt_modules,
    show_error,
    show_task_panel,
    translate,
)

if TYPE_CHECKING:
    import FreeCAD as App

META_KEY = "MBD_Study"
PREFERENCES = "User parameter:BaseApp/Preferences/Mod/MBDWorkbench"
DESIGNS = ("grid", "lhs", "monte_carlo")
PLOT_DOCK = "MBD_StudyPlot"
_open: list[StudyPanel] = []


def open_panel() -> StudyPanel | None:
    """The open StudyPanel, or None."""
    return _open[0] if _open else None


def scheduler_preference() -> str:
    """The Dask scheduler address of the preferences ('' = the local cluster)."""
    import FreeCAD

    return FreeCAD.ParamGet(PREFERENCES).GetString("StudyScheduler", "").strip()


class ParameterStudyCommand(Command):
    MENU, ICON = QT_TRANSLATE_NOOP("MBD_ParameterStudy", "Parameter study"), "study"
    TIP = QT_TRANSLATE_NOOP(
        "MBD_ParameterStudy",
        "Vary one value of the model over a range (grid, Latin hypercube, Monte Carlo) and compare the KPIs",
    )

    def Activated(self) -> None:

        from ..cad.document_model import document_model

        doc = active_document()
        try:
            doc.recompute()
            model = document_model(doc)[0].to_dict()
            panel = StudyPanel(doc, model)
        except Exception as exc:
            show_error(translate("MBD", "Parameter study"), exc)
            return
        show_task_panel(panel)


class StudyPanel:
    """Pick a parameter, a range and a design; Run / Cancel; progress; the KPI plot at the end."""

    def __init__(self, doc: App.Document, model: dict) -> None:
        from ..study.choices import parameter_choices

        QtCore, _, QtWidgets = qt_modules()
        self.doc, self.model = doc, model
        self.choices = parameter_choices(model)
        self.form = QtWidgets.QWidget()
        self.form.setObjectName("MBD_StudyPanel")
        self.form.setWindowTitle(translate("MBD", "Parameter study"))
        layout = QtWidgets.QFormLayout(self.form)
        self.parameter = self._widget(QtWidgets.QComboBox(), "parameter")
        for path, value in self.choices:
            self.parameter.addItem(path, path)
            self.parameter.setItemData(self.parameter.count() - 1, "%s = %g" % (path, value), QtCore.Qt.ToolTipRole)
        self.design = self._widget(QtWidgets.QComboBox(), "design")
        self.design.addItems(list(DESIGNS))
        self.low, self.high = (self._widget(QtWidgets.QLineEdit(), n) for n in ("low", "high"))
        self.count = self._widget(QtWidgets.QSpinBox(), "count")
        self.count.setRange(1, 100000)
        self.count.setValue(8)
        self.seed = self._widget(QtWidgets.QSpinBox(), "seed")
        self.seed.setRange(0, 2**31 - 1)
        self.workers = self._widget(QtWidgets.QSpinBox(), "workers")
        self.workers.setRange(1, 256)
        self.workers.setValue(os.cpu_count() or 1)
        self.out = self._widget(QtWidgets.QLineEdit(default_folder(doc)), "out")
        scheduler = scheduler_preference()
        for label, widget in (
            (QT_TRANSLATE_NOOP("MBD", "Parameter"), self.parameter),
            (QT_TRANSLATE_NOOP("MBD", "Design"), self.design),
            (QT_TRANSLATE_NOOP("MBD", "From"), self.low),
            (QT_TRANSLATE_NOOP("MBD", "To"), self.high),
            (QT_TRANSLATE_NOOP("MBD", "Variants (grid points or samples)"), self.count),
            (QT_TRANSLATE_NOOP("MBD", "Seed"), self.seed),
            (QT_TRANSLATE_NOOP("MBD", "Workers"), self.workers),
            (QT_TRANSLATE_NOOP("MBD", "Study folder"), self.out),
        ):
            layout.addRow(translate("MBD", label), widget)
        local = translate("MBD", "local (worker processes on this computer)")
        layout.addRow(translate("MBD", "Cluster"), QtWidgets.QLabel(scheduler or local))
        self.run_button = self._widget(QtWidgets.QPushButton(translate("MBD", "Run")), "run")
        self.cancel_button = self._widget(QtWidgets.QPushButton(translate("MBD", "Cancel study")), "cancel")
        self.cancel_button.setEnabled(False)
        buttons = QtWidgets.QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        layout.addRow(buttons)
        self.progress = self._widget(QtWidgets.QProgressBar(), "progress")
        self.status = self._widget(QtWidgets.QLabel(""), "status")
        self.status.setWordWrap(True)
        layout.addRow(self.progress)
        layout.addRow(self.status)
        self.parameter.currentIndexChanged.connect(self._default_range)
        self.run_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.timer = QtCore.QTimer(self.form)
        self.timer.timeout.connect(self._poll)
        self.job: StudyJob | None = None
        self.last_run = None
        self._default_range()
        self._restore()
        _open[:] = [self]

    @staticmethod
    def _widget(widget, name: str):
        widget.setObjectName(name)
        return widget

    def _default_range(self, *args: object) -> None:
        value = dict(self.choices).get(self.parameter.currentData(), 0.0)
        low, high = (0.5 * value, 1.5 * value) if value else (-1.0, 1.0)
        self.low.setText("%g" % min(low, high))
        self.high.setText("%g" % max(low, high))

    def settings(self) -> dict:
        """The panel's values (saved with the document)."""
        return {
            "parameter": self.parameter.currentData(),
            "design": self.design.currentText(),
            "low": self.low.text(),
            "high": self.high.text(),
            "count": self.count.value(),
            "seed": self.seed.value(),
            "out": self.out.text(),
        }

    def set_settings(self, values: dict) -> None:
        """Set the panel's controls from ``settings()``-like values (missing keys kept)."""
        if "parameter" in values:
            k = self.parameter.findData(values["parameter"])
            if k >= 0:
                self.parameter.setCurrentIndex(k)
        if values.get("design") in DESIGNS:
            self.design.setCurrentIndex(DESIGNS.index(values["design"]))
        for key, widget in (("low", self.low), ("high", self.high), ("out", self.out)):
            if key in values:
                widget.setText(str(values[key]))
        for key, widget in (("count", self.count), ("seed", self.seed)):
            if key in values:
                widget.setValue(int(values[key]))

    def _restore(self) -> None:
        try:
            self.set_settings(json.loads(self.doc.Meta.get(META_KEY, "{}")))
        except (ValueError, TypeError):
            pass

    def _save(self) -> None:
        meta = dict(self.doc.Meta)
        meta[META_KEY] = json.dumps(self.settings())
        self.doc.Meta = meta

    def study(self):
        """The checked study of the panel's values (ModelError naming the field at fault)."""
        from ..solver.errors import ModelError
        from ..study.choices import range_study
        from ..study.spec import parse_study

        values = []
        for name, widget in (("From", self.low), ("To", self.high)):
            try:
                values.append(float(widget.text()))
            except ValueError:
                raise ModelError(name, "not a number: %r" % widget.text()) from None
        data = range_study(
            self.model,
            self.parameter.currentData(),
            self.design.currentText(),
            values[0],
            values[1],
            self.count.value(),
            self.seed.value(),
            name="%s_study" % self.doc.Name,
        )
        return parse_study(data)

    def start(self) -> bool:
        """Check the values, save them with the document, start the run; False on an error (shown)."""
        from ..study.command import open_folder

        if self.job is not None:
            return False
        try:
            study = self.study()
            folder = open_folder(self.out.text(), overwrite=True)
        except Exception as exc:
            show_error(translate("MBD", "Parameter study"), exc)
            return False
        self._save()
        self.job = StudyJob(study, folder, self.workers.value(), scheduler_preference() or None)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status.setText(translate("MBD", "Starting the workers ..."))
        self.job.start()
        self.timer.start(200)
        return True

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancelled = True
            self.status.setText(translate("MBD", "Cancelling: the finished variants are kept ..."))

    def running(self) -> bool:
        return self.job is not None

    def _poll(self) -> None:
        job = self.job
        if job is None:
            return
        done, total, failed, elapsed = job.progress
        if total:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
            eta = elapsed / done * (total - done) if done else 0.0
            self.status.setText(
                translate("MBD", "%d of %d variants, %d failed, %.1f s, about %.0f s left")
                % (done, total, failed, elapsed, eta)
            )
        if job.is_alive():
            return
        self.timer.stop()
        self.job = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self._finished(job)

    def _finished(self, job: StudyJob) -> None:
        if job.error is not None:
            self.status.setText(translate("MBD", "The study stopped: %s") % job.error)
            show_error(translate("MBD", "Parameter study"), job.error)
            return
        self.last_run = job.result
        counts = {}
        for r in job.result.rows:
            counts[r.status] = counts.get(r.status, 0) + 1
        text = ", ".join("%d %s" % (n, s) for s, n in counts.items())
        self.status.setText(
            translate("MBD", "%s%s; written to %s") % ("Cancelled: " if job.result.cancelled else "", text, job.target)
        )
        if job.plots:
            show_plot(os.path.join(job.target, "plots", job.plots[0]))

    def getStandardButtons(self) -> int:
        return dialog_buttons("Close")

    def reject(self) -> bool:
        if self.job is not None:
            self.cancel()
            return False  # the run must end first: Cancel study, then Close
        self._close()
        return True

    def accept(self) -> bool:
        return self.reject()

    def _close(self) -> None:
        import FreeCADGui

        _open[:] = []
        self.timer.stop()
        FreeCADGui.Control.closeDialog()


class StudyJob(threading.Thread):
    """A study run on a background thread: ``progress`` (done, total, failed, elapsed [s]),
    ``cancelled`` set by the panel, then ``result`` (a StudyRun) or ``error``; the study folder
    is written and committed here."""

    def __init__(self, study, folder, workers: int, scheduler: str | None) -> None:
        super().__init__(daemon=True, name="MBD parameter study")
        self.study, self.folder, self.workers, self.scheduler = study, folder, workers, scheduler
        self.progress = (0, 0, 0, 0.0)
        self.cancelled = False
        self.result = None
        self.error: BaseException | None = None
        self.plots: list[str] = []
        self.target = folder.target

    def _progress(self, done: int, total: int, failed: int, elapsed: float) -> None:
        self.progress = (done, total, failed, elapsed)

    def run(self) -> None:
        from ..study.command import fill_folder
        from ..study.engine import run_study

        try:
            result = run_study(
                self.study,
                workers=None if self.scheduler else self.workers,
                scheduler=self.scheduler,
                progress=self._progress,
                cancel=lambda: self.cancelled,
            )
            self.plots = fill_folder(result, self.folder.temp)
            self.folder.commit()
            self.result = result
        except BaseException as exc:  # noqa: BLE001 - shown by the panel
            self.error = exc
        finally:
            self.folder.abort()


def default_folder(doc: App.Document) -> str:
    """``<document folder>/<document name>_study``, or in the working directory for an unsaved document."""
    folder = os.path.dirname(doc.FileName) if doc.FileName else os.getcwd()
    return os.path.join(folder, "%s_study" % doc.Name)


PLOT_DOCK_SHARE = 0.4  # of the main window's width: the study plot dock's width on first show


def show_plot(path: str) -> object:
    """Show the PNG ``path`` in the dock "MBD study plot" (created on first use, in the right dock
    area beside the 3D view, tabbed with the MBD plots dock when that is open, PLOT_DOCK_SHARE of
    the window wide); the plot is scaled to the dock's width. Returns the dock."""
    from .plot_dock import DOCK_NAME

    QtCore, QtGui, QtWidgets = qt_modules()
    window = main_window()
    dock = window.findChild(QtWidgets.QDockWidget, PLOT_DOCK)
    created = dock is None
    if dock is None:
        dock = QtWidgets.QDockWidget("MBD study plot", window)
        dock.setObjectName(PLOT_DOCK)
        label = QtWidgets.QLabel()
        label.setObjectName("MBD_StudyPlotImage")
        label.setAlignment(QtCore.Qt.AlignCenter)
        scroll = QtWidgets.QScrollArea()
        scroll.setWidget(label)
        scroll.setWidgetResizable(True)
        dock.setWidget(scroll)
        window.addDockWidget(QtCore.Qt.RightDockWidgetArea, dock)
        plots = window.findChild(QtWidgets.QDockWidget, DOCK_NAME)
        if plots is not None and plots.isVisible() and window.dockWidgetArea(plots) == QtCore.Qt.RightDockWidgetArea:
            window.tabifyDockWidget(plots, dock)
    dock.show()
    dock.raise_()
    if created:
        window.resizeDocks([dock], [int(PLOT_DOCK_SHARE * window.width())], QtCore.Qt.Horizontal)
    QtWidgets.QApplication.processEvents()
    label = dock.findChild(QtWidgets.QLabel, "MBD_StudyPlotImage")
    pixmap = QtGui.QPixmap(path)
    room = max(dock.width() - 30, 100)  # the scroll area's frame and scroll bar
    if pixmap.width() > room:
        pixmap = pixmap.scaledToWidth(room, QtCore.Qt.SmoothTransformation)
    label.setPixmap(pixmap)
    label.setToolTip(path)
    return dock
