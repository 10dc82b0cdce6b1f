"""Check model and Solve.

Solve runs the solver in the GUI thread with a modal progress dialog: the progress callback
(called at every output time) updates the bar and processes Qt events, so the window stays
responsive and Cancel stops the run (the cancel callback returns True). Results (also the
partial results of a cancelled or failed run) are stored with the document.

The summary box is an information box only for a run whose status is ``completed``; any
other status (completed with warnings, failed, cancelled) gives a warning box listing the
run's warnings, and an over-driven model refused before solving gives a warning box naming
the drivers in conflict (docs/solver.md, "Run status and quality gate").
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .common import Command, active_document, main_window, message, qt_modules, show_error

if TYPE_CHECKING:
    import FreeCAD as App

    from ..cad.results_store import StoredResults
    from ..solver.errors import SimulationError
    from ..solver.model import Model
    from ..solver.results import Results

SUMMARY_BOX = "MBD_SolveSummary"
REFUSED_BOX = "MBD_SolveRefused"
CHECK_BOX = "MBD_CheckReport"


def _model(doc):
    from ..cad.document_model import document_model

    doc.recompute()
    return document_model(doc)


class CheckCommand(Command):
    MENU, TIP, ICON = "Check model", "Degrees of freedom and redundant constraints of the mechanism", "check"

    def Activated(self) -> None:
        from ..cad.check import check_report

        doc = active_document()
        try:
            model, _ = _model(doc)
            text, _ = check_report(model)
        except Exception as exc:
            show_error("Check model", exc)
            return
        message("Check model", text, name=CHECK_BOX)


class SolveRun:
    """One solver run with a progress dialog; ``run()`` returns (results, error or None)."""

    def __init__(self, model: Model, title: str = "Solving") -> None:
        _, _, QtWidgets = qt_modules()
        from .common import main_window

        self.model = model
        self.dialog = QtWidgets.QProgressDialog("Simulating %s ..." % model.name, "Cancel", 0, 1000, main_window())
        self.dialog.setObjectName("MBD_SolveProgress")
        self.dialog.setWindowTitle(title)
        self.dialog.setMinimumDuration(0)
        self.dialog.setAutoClose(False)
        self.dialog.setAutoReset(False)
        try:
            from PySide import QtCore

            self.dialog.setWindowModality(QtCore.Qt.WindowModal)
        except Exception:
            pass
        self.cancel_requested = False
        self._last = 0.0

    def progress(self, t: float, t_end: float) -> None:
        now = time.perf_counter()
        if now - self._last < 0.05 and t < t_end:
            return
        self._last = now
        _, _, QtWidgets = qt_modules()
        self.dialog.setValue(int(1000 * min(1.0, t / t_end)))
        self.dialog.setLabelText("Simulating %s: t = %.4g of %.4g s" % (self.model.name, t, t_end))
        QtWidgets.QApplication.processEvents()

    def cancel(self) -> bool:
        return self.cancel_requested or self.dialog.wasCanceled()

    def run(self) -> tuple[Results | None, SimulationError | None]:
        from ..solver.errors import SimulationError
        from ..solver.simulate import simulate

        self.dialog.show()
        qt_modules()[2].QApplication.processEvents()
        try:
            return simulate(self.model, progress=self.progress, cancel=self.cancel), None
        except SimulationError as exc:
            return exc.results, exc
        finally:
            self.dialog.close()


def solve_document(doc: App.Document) -> tuple[StoredResults | None, str, Exception | None]:
    """Build, run, store; returns (StoredResults or None, summary text, error or None)."""
    from ..cad.makers import make_simulation
    from ..cad.objects import find_simulation
    from ..cad.results_store import store_results, summary_lines

    model, mapping = _model(doc)
    res, error = SolveRun(model).run()
    if res is None or not len(res):
        return None, str(error), error
    sim = find_simulation(doc) or make_simulation(doc)
    doc.openTransaction("Store results")
    stored = store_results(sim, res, mapping)
    doc.commitTransaction()
    text = "\n".join(summary_lines(res.summary()))
    return stored, text, error


def warning_box(title: str, text: str, name: str, details: str | None = None) -> None:
    """A modal QMessageBox with the Warning icon (objectName ``name``); also printed to
    FreeCAD's console as a warning."""
    import FreeCAD

    _, _, QtWidgets = qt_modules()
    FreeCAD.Console.PrintWarning("%s: %s\n" % (title, text))
    box = QtWidgets.QMessageBox(main_window())
    box.setObjectName(name)
    box.setWindowTitle(title)
    box.setIcon(QtWidgets.QMessageBox.Warning)
    box.setText(text)
    if details:
        box.setDetailedText(details)
    box.setStandardButtons(QtWidgets.QMessageBox.Ok)
    run = getattr(box, "exec", None) or box.exec_
    run()


def warning_lines(warnings: list) -> list[str]:
    """One line per run warning (status.RunWarning): kind, time, elements, message."""
    from ..solver.status import describe

    return ["- %s" % describe(w) for w in warnings]


def run_status(stored: StoredResults | None, error: Exception | None) -> tuple[str | None, list]:
    """(status, [RunWarning]) of the last run: from the stored summary, else from the error's results."""
    from ..solver.status import RunWarning

    if stored is not None:
        summary = stored.summary
        return summary.get("status"), [RunWarning.from_dict(w) for w in summary.get("warnings", [])]
    res = getattr(error, "results", None)
    return getattr(res, "status", None), list(getattr(res, "warnings", None) or [])


def run_text(stored: StoredResults | None, text: str, error: Exception | None, warnings: list) -> str:
    """The summary box text: what happened, the stored summary and the warnings."""
    from ..solver.errors import Cancelled

    parts = []
    if error is not None:
        parts.append(
            "Run cancelled; the results computed so far are kept."
            if isinstance(error, Cancelled)
            else "The run stopped: %s" % error
        )
    if stored is not None:
        parts.append(text)
    if warnings:
        parts.append("Warnings (check before using the results):\n" + "\n".join(warning_lines(warnings)))
    return "\n\n".join(parts)


class SolveCommand(Command):
    MENU, ICON = "Solve", "solve"
    TIP = "Run the dynamic simulation (progress bar with Cancel); results are kept in the document"
    last = None  # (StoredResults, summary text, error) of the last run, for scripts and tests

    def Activated(self) -> None:
        from ..solver.status import COMPLETED, OverdrivenError

        doc = active_document()
        try:
            SolveCommand.last = solve_document(doc)
        except OverdrivenError as exc:
            SolveCommand.last = (None, str(exc), exc)
            drivers = "\n".join("- '%s'" % d for d in exc.drivers)
            warning_box(
                "Solve",
                "The model is over-driven; the run was refused.\n\nDrivers in conflict:\n%s\n\n%s"
                % (drivers, exc.message),
                REFUSED_BOX,
            )
            return
        except Exception as exc:
            SolveCommand.last = (None, str(exc), exc)
            show_error("Solve", exc)
            return
        stored, text, error = SolveCommand.last
        status, warnings = run_status(stored, error)
        body = run_text(stored, text, error, warnings)
        if error is None and status == COMPLETED:
            message("Solve", body, name=SUMMARY_BOX)
        else:
            warning_box("Solve", body, SUMMARY_BOX)
