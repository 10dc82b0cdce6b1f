"""Simulation panel: settings, gravity, Solve (the worker solve), status, the run's warnings and log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cad.time_steps import END_TIME, OUTPUT_STEP, PER_SECOND, STEP, whole_units
from ...cad.tolerance_texts import ABSOLUTE, DEFAULT_WORDS, RELATIVE, TIKHONOV, TOOLTIPS, tolerance_text
from ..common import QT_TRANSLATE_NOOP, qt_modules, record_set, transaction, translate
from .base import (
    NumberField,
    TaskPanel,
    read_value,
    write_value,
)

if TYPE_CHECKING:
    import FreeCAD as App


SIMULATION_FIELDS = (
    (END_TIME, QT_TRANSLATE_NOOP("MBD", "End time"), "ms"),  # whole ms and µs, as the properties
    (OUTPUT_STEP, QT_TRANSLATE_NOOP("MBD", "Output step"), "µs"),
    (STEP, QT_TRANSLATE_NOOP("MBD", "Step (0: default)"), "µs"),
    ("RelativeTolerance", QT_TRANSLATE_NOOP("MBD", "Rel. tolerance (0: default)"), ""),
    ("AbsoluteTolerance", QT_TRANSLATE_NOOP("MBD", "Absolute tolerance"), ""),
    ("BaumgarteAlpha", QT_TRANSLATE_NOOP("MBD", "Baumgarte alpha"), "1/s"),
    ("BaumgarteBeta", QT_TRANSLATE_NOOP("MBD", "Baumgarte beta"), "1/s"),
    ("TikhonovEps", QT_TRANSLATE_NOOP("MBD", "Tikhonov epsilon"), ""),
)
GRAVITY_FIELDS = (
    ("GravityX", QT_TRANSLATE_NOOP("MBD", "Gravity x"), "mm/s^2"),
    ("GravityY", QT_TRANSLATE_NOOP("MBD", "Gravity y"), "mm/s^2"),
    ("GravityZ", QT_TRANSLATE_NOOP("MBD", "Gravity z"), "mm/s^2"),
)


def _tolerance_shown(sim: App.DocumentObject, prop: str) -> str:
    """The text of a tolerance property as the panel shows it: "0" for "default"."""
    text = str(getattr(sim, prop)).strip()
    return "0" if text.lower() in DEFAULT_WORDS else text


class SimulationPanel(TaskPanel):
    """Settings, gravity, a Solve button (applies the settings, then runs), the run's status,
    warnings (a list below the status) and log."""

    KIND = "Simulation"

    def __init__(self, doc: App.Document, sim: App.DocumentObject) -> None:
        from ...solver import integrators

        super().__init__(doc, sim, "Simulation: %s" % sim.Label)
        _, _, QtWidgets = qt_modules()
        self.numbers = {}
        for prop, text, unit in SIMULATION_FIELDS:
            if prop in TOOLTIPS:  # text, "1e-8", in the property: shown as it is
                self.numbers[prop] = NumberField(prop, 0.0, unit)
                self.numbers[prop].set(_tolerance_shown(sim, prop))
            else:
                self.numbers[prop] = NumberField(prop, read_value(sim, prop, unit), unit)
            self.fields.addRow(translate("MBD", text), self.numbers[prop].widget)
        self.integrator = self.combo("integrator", [(n, n) for n in integrators.names()], sim.Integrator)
        self.integrator.setSizeAdjustPolicy(QtWidgets.QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.integrator.setMinimumContentsLength(8)  # its longest name would widen the panel past the dock
        self.fields.addRow(translate("MBD", "Integrator"), self.integrator)
        self.gravity = {prop: NumberField(prop, read_value(sim, prop, unit), unit) for prop, _, unit in GRAVITY_FIELDS}
        for prop, text, _ in GRAVITY_FIELDS:
            self.fields.addRow(translate("MBD", text), self.gravity[prop].widget)
        self.assemble = QtWidgets.QCheckBox(translate("MBD", "Assemble first"))
        self.assemble.setToolTip(
            translate("MBD", "Close the joints before the run (assembly from the drawn positions)")
        )
        self.assemble.setObjectName("assemble")
        self.assemble.setChecked(bool(sim.Assemble))
        self.free = QtWidgets.QCheckBox(translate("MBD", "Allow nothing grounded"))
        self.free.setObjectName("free_flight")
        self.free.setChecked(bool(sim.AllowFreeFlight))
        self.estimate = QtWidgets.QCheckBox(translate("MBD", "Estimate the accuracy"))
        self.estimate.setToolTip(
            translate("MBD", "A second run, in a second process, estimates the error (docs/solver.md)")
        )
        self.estimate.setObjectName("accuracy")
        self.estimate.setChecked(bool(getattr(sim, "EstimateAccuracy", True)))
        self.determinate = QtWidgets.QCheckBox(translate("MBD", "Make statically determinate"))
        self.determinate.setObjectName("make_determinate")
        self.determinate.setToolTip(
            translate(
                "MBD",
                "Relax the joints the mobility analysis proposes (e.g. revolute -> cylindrical) before each run, "
                "so that every reaction is unique; the summary and the report list them",
            )
        )
        self.determinate.setChecked(bool(getattr(sim, "MakeDeterminate", False)))
        self.fields.addRow(self.assemble)  # spanning both columns: the panel fits the default task dock
        self.fields.addRow(self.free)
        self.fields.addRow(self.determinate)
        self.fields.addRow(self.estimate)
        self.layout.addWidget(self.error)
        self.solve_button = QtWidgets.QPushButton(translate("MBD", "Solve (applies the settings)"))
        self.solve_button.setObjectName("solve")
        self.solve_button.clicked.connect(self.solve)
        self.layout.addWidget(self.solve_button)
        self.status = self.label(_status_text(sim))
        self.status.setObjectName("status")
        self.layout.addWidget(self.status)
        self.accuracy = self.label("")
        self.accuracy.setObjectName("accuracy_line")
        self.accuracy.setWordWrap(True)
        self.layout.addWidget(self.accuracy)
        self.show_accuracy()
        self.warnings = warnings_list(qt_modules()[0], QtWidgets)
        self.layout.addWidget(self.warnings)
        show_warnings(self.warnings, _stored_warnings(sim))
        self.log = QtWidgets.QPlainTextEdit()
        self.log.setObjectName("log")
        self.log.setReadOnly(True)
        self.log.setMinimumHeight(120)
        self.log.setPlainText("\n".join(sim.ResultsSummary))
        self.layout.addWidget(self.log)

    def apply(self) -> App.DocumentObject:
        from ...cad.errors import CadError

        sim = self.obj
        values = {prop: field.value() for prop, field in self.numbers.items()}
        units = {prop: unit for prop, _, unit in SIMULATION_FIELDS}
        for prop in (END_TIME, OUTPUT_STEP):
            if values[prop] <= 0:
                raise CadError(
                    "simulation '%s': %s must be > 0 %s, got %g" % (sim.Label, prop, units[prop], values[prop])
                )
        for prop in (STEP, RELATIVE):  # 0: the integrator's own default
            if values[prop] < 0:
                raise CadError(
                    "simulation '%s': %s must be >= 0 (0: the integrator's default), got %g"
                    % (sim.Label, prop, values[prop])
                )
        for prop in (ABSOLUTE, TIKHONOV):
            if values[prop] <= 0:
                raise CadError("simulation '%s': %s must be > 0, got %g" % (sim.Label, prop, values[prop]))
        for prop in PER_SECOND:
            values[prop] = whole_units(values[prop], "simulation '%s': %s" % (sim.Label, prop), PER_SECOND[prop])
        values.update({prop: field.value() for prop, field in self.gravity.items()})
        for prop, _, unit in SIMULATION_FIELDS + GRAVITY_FIELDS:
            if prop in PER_SECOND:
                record_set(sim, prop, values[prop])  # an int: integer properties
            elif prop in TOOLTIPS:
                record_set(sim, prop, tolerance_text(values[prop]))  # text: "1e-8", "default" for 0
            else:
                write_value(sim, prop, values[prop], unit)
        sim.Integrator = self.integrator.currentData()
        sim.Assemble, sim.AllowFreeFlight = self.assemble.isChecked(), self.free.isChecked()
        if hasattr(sim, "EstimateAccuracy"):
            sim.EstimateAccuracy = self.estimate.isChecked()
        sim.MakeDeterminate = self.determinate.isChecked()
        return sim

    def solve(self) -> None:
        """Apply the settings (one undoable step), run the Solve worker, show log and status."""
        from ...cad.errors import CadError
        from ..solve_commands import solve_document

        try:
            with transaction(self.doc, "Edit simulation"):
                self.apply()
                self.doc.recompute()
        except (CadError, ValueError) as exc:
            self.show_error(str(exc))
            return
        self.show_error("")
        self.status.setText(translate("MBD", "Status: solving..."))
        self.solve_button.setEnabled(False)
        try:
            stored, text, error = solve_document(self.doc)
        except Exception as exc:
            stored, text, error = None, str(exc), exc
        finally:
            self.solve_button.setEnabled(True)
        self.show_run(stored, text, error)

    def show_run(self, stored, text: str, error: Exception | None) -> None:
        """Show a run's status, warnings (the list below the status) and log."""
        from ..solve_commands import run_status, run_text

        status, warnings = run_status(stored, error)
        self.log.setPlainText(run_text(stored, text, error, warnings))
        self.status.setText(translate("MBD", "Status: %s") % (status or "failed"))
        self.show_accuracy(stored.summary if stored is not None else None)
        show_warnings(self.warnings, warnings)

    def show_accuracy(self, summary: dict | None = None) -> None:
        """The accuracy line of the last run (short; the whole sentence as its tooltip)."""
        from ...solver import accuracy

        if summary is None:
            self.accuracy.setText(_summary_line(self.obj, "accuracy"))
            self.accuracy.setToolTip("")
            return
        why = accuracy.why_no_estimate(summary)
        rec = summary.get("accuracy")
        self.accuracy.setText(_accuracy_lines(rec) if rec is not None else "Accuracy: " + why)
        self.accuracy.setToolTip(accuracy.describe(rec, why).replace("+-", "\u00b1"))


def _accuracy_lines(rec: dict) -> str:
    """Short lines of an accuracy record (the panel is narrow): method, positions, angles, loads."""
    from ...solver import accuracy

    force, torque = accuracy.largest_load_errors(rec)
    loads = "joint loads \u00b1%.3g N" % force + (", \u00b1%.3g N m" % torque if torque > 0 else "")
    position, angle = rec["position_error_m"] * 1e3, rec["angle_error_rad"]
    return "Accuracy (%s):\npositions \u00b1%.3g mm\nangles \u00b1%.3g rad\n%s" % (
        rec["method"],
        position,
        angle,
        loads,
    )


def _summary_line(sim: App.DocumentObject, key: str) -> str:
    """'Key: value' of the last run's summary line ``key`` (cad.results_store.summary_lines), else ''."""
    for line in sim.ResultsSummary:
        if line.strip().startswith(key + ":"):
            return "%s: %s" % (key.capitalize(), line.split(":", 1)[-1].strip())
    return ""


def warnings_list(QtCore, QtWidgets):
    """The list of a run's warnings (objectName ``warnings``): one wrapped item each, readable
    at the task dock's default width; hidden while there is none."""
    widget = QtWidgets.QListWidget()
    widget.setObjectName("warnings")
    widget.setWordWrap(True)
    widget.setResizeMode(QtWidgets.QListView.Adjust)  # re-wrap the items when the dock is resized
    widget.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarAlwaysOff)
    widget.setMinimumHeight(140)
    return widget


def show_warnings(widget, warnings: list) -> None:
    """Fill the warnings list with one item per RunWarning ('kind at t = ...: message')."""
    from ...solver.results.status import describe

    widget.clear()
    for w in warnings:
        widget.addItem(describe(w))
        widget.item(widget.count() - 1).setToolTip(w.message)
    widget.setVisible(bool(warnings))


def _stored_warnings(sim: App.DocumentObject) -> list:
    """The RunWarnings of the results stored with ``sim`` ([] without results); reads only the
    archive's summary.json (the tables of a long run would stall the GUI thread)."""
    from ...cad.results_store import load_summary
    from ...solver.results.status import RunWarning

    try:
        summary = load_summary(sim)
    except Exception:  # an unreadable archive: the panel still opens (the log says what is stored)
        return []
    return [RunWarning.from_dict(w) for w in (summary or {}).get("warnings", [])]


def _status_text(sim: App.DocumentObject) -> str:
    for line in sim.ResultsSummary:
        if line.strip().startswith("status"):
            return "Status of the last run: %s" % line.split(":", 1)[-1].strip()
    return "Status: not solved yet"
