"""Simulation panel: settings, gravity, Solve (the worker solve), log and status."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..common import qt_modules, transaction
from .base import (
    NumberField,
    TaskPanel,
    read_value,
    write_value,
)

if TYPE_CHECKING:
    import FreeCAD as App


SIMULATION_FIELDS = (
    ("EndTime", "End time", "s"),
    ("OutputStep", "Output step", "s"),
    ("Step", "Step (0: the integrator's own)", "s"),
    ("RelativeTolerance", "Relative tolerance (0: the integrator's own)", ""),
    ("AbsoluteTolerance", "Absolute tolerance", ""),
    ("BaumgarteAlpha", "Baumgarte alpha", "1/s"),
    ("BaumgarteBeta", "Baumgarte beta", "1/s"),
    ("TikhonovEps", "Tikhonov epsilon", ""),
)
GRAVITY_FIELDS = tuple(("Gravity" + c, "Gravity " + c.lower(), "mm/s^2") for c in "XYZ")


class SimulationPanel(TaskPanel):
    """Settings, gravity, a Solve button (applies the settings, then runs), the run's log and status."""

    KIND = "Simulation"

    def __init__(self, doc: App.Document, sim: App.DocumentObject) -> None:
        from ...solver import integrators

        super().__init__(doc, sim, "Simulation: %s" % sim.Label)
        _, _, QtWidgets = qt_modules()
        self.numbers = {}
        for prop, text, unit in SIMULATION_FIELDS:
            self.numbers[prop] = NumberField(prop, read_value(sim, prop, unit), unit)
            self.fields.addRow(text, self.numbers[prop].widget)
        self.integrator = self.combo("integrator", [(n, n) for n in integrators.names()], sim.Integrator)
        self.fields.addRow("Integrator", self.integrator)
        self.gravity = {prop: NumberField(prop, read_value(sim, prop, unit), unit) for prop, _, unit in GRAVITY_FIELDS}
        for prop, text, _ in GRAVITY_FIELDS:
            self.fields.addRow(text, self.gravity[prop].widget)
        self.assemble = QtWidgets.QCheckBox("Close the joints first (assembly)")
        self.assemble.setObjectName("assemble")
        self.assemble.setChecked(bool(sim.Assemble))
        self.free = QtWidgets.QCheckBox("Allow nothing grounded")
        self.free.setObjectName("free_flight")
        self.free.setChecked(bool(sim.AllowFreeFlight))
        self.fields.addRow("", self.assemble)
        self.fields.addRow("", self.free)
        self.layout.addWidget(self.error)
        self.solve_button = QtWidgets.QPushButton("Solve (applies the settings)")
        self.solve_button.setObjectName("solve")
        self.solve_button.clicked.connect(self.solve)
        self.layout.addWidget(self.solve_button)
        self.status = self.label(_status_text(sim))
        self.status.setObjectName("status")
        self.layout.addWidget(self.status)
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
        for prop in ("EndTime", "OutputStep"):
            if values[prop] <= 0:
                raise CadError("simulation '%s': %s must be > 0 s, got %g" % (sim.Label, prop, values[prop]))
        for prop in ("Step", "RelativeTolerance"):  # 0: the integrator's own default
            if values[prop] < 0:
                raise CadError(
                    "simulation '%s': %s must be >= 0 (0: the integrator's default), got %g"
                    % (sim.Label, prop, values[prop])
                )
        values.update({prop: field.value() for prop, field in self.gravity.items()})
        for prop, _, unit in SIMULATION_FIELDS + GRAVITY_FIELDS:
            write_value(sim, prop, values[prop], unit)
        sim.Integrator = self.integrator.currentData()
        sim.Assemble, sim.AllowFreeFlight = self.assemble.isChecked(), self.free.isChecked()
        return sim

    def solve(self) -> None:
        """Apply the settings (one undoable step), run the Solve worker, show log and status."""
        from ...cad.errors import CadError
        from ..solve_commands import run_status, run_text, solve_document

        try:
            with transaction(self.doc, "Edit simulation"):
                self.apply()
                self.doc.recompute()
        except (CadError, ValueError) as exc:
            self.show_error(str(exc))
            return
        self.show_error("")
        self.status.setText("Status: solving...")
        self.solve_button.setEnabled(False)
        try:
            stored, text, error = solve_document(self.doc)
        except Exception as exc:
            stored, text, error = None, str(exc), exc
        finally:
            self.solve_button.setEnabled(True)
        status, warnings = run_status(stored, error)
        self.log.setPlainText(run_text(stored, text, error, warnings))
        self.status.setText("Status: %s" % (status or "failed"))


def _status_text(sim: App.DocumentObject) -> str:
    for line in sim.ResultsSummary:
        if line.strip().startswith("status"):
            return "Status of the last run: %s" % line.split(":", 1)[-1].strip()
    return "Status: not solved yet"
