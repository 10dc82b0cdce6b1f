"""Check model and Solve.

Solve runs the solver in a worker thread (SolveRun) with a progress dialog (simulated time,
ETA, Cancel); the GUI thread waits in a local event loop, so the 3D view and the plots stay
responsive. The worker only computes, and writes the results archive (also of the partial
results of a cancelled or failed run) and reads it back; the GUI thread only hands that file
to the document at the end, and the plot dock shows the new run. So the event loop never
waits on the run, whose largest gap is measured by tests/gui/test_solve_gaps_gui.py.

A run whose status is ``completed`` gets a non-modal information notice; a run completed with
warnings or cancelled a non-modal warning notice (neither blocks anything), and the Simulation
panel lists its warnings below its status; a failed run gives a modal warning box,
and so does an over-driven model refused before solving, naming the drivers in conflict
(docs/solver.md, "Run status and quality gate").
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from .common import QT_TRANSLATE_NOOP, Command, active_document, main_window, message, qt_modules, show_error, translate

if TYPE_CHECKING:
    import FreeCAD as App

    from ..cad.results_store import StoredResults
    from ..solver.model import Model

SUMMARY_BOX = "MBD_SolveSummary"
REFUSED_BOX = "MBD_SolveRefused"
CHECK_BOX = "MBD_CheckReport"


def _model(doc):
    import FreeCAD as App

    from ..cad.document_model import synced_document_model

    # a document with an Assembly: its joints imported or updated first, omissions to the Report view
    return synced_document_model(doc, show=lambda text: App.Console.PrintWarning(text + "\n"))


class CheckCommand(Command):
    MENU = QT_TRANSLATE_NOOP("MBD_Check", "Check model")
    TIP = QT_TRANSLATE_NOOP("MBD_Check", "Degrees of freedom and redundant constraints of the mechanism")
    ICON = "check"

    def Activated(self) -> None:
        from ..cad.check import check_report

        doc = active_document()
        try:
            model, _ = _model(doc)
            text, _ = check_report(model)
        except Exception as exc:
            show_error(translate("MBD", "Check model"), exc)
            return
        if "relax:" not in text:
            message(translate("MBD", "Check model"), text, name=CHECK_BOX)
            return
        if check_box_with_relax(text):
            make_determinate(doc)


def check_box_with_relax(text: str) -> bool:
    """The Check result (modal, asked for) with a 'Make statically determinate' button; True when
    the user pressed it."""
    import FreeCAD

    _, _, QtWidgets = qt_modules()
    FreeCAD.Console.PrintMessage("Check model: %s\n" % text)
    box = QtWidgets.QMessageBox(main_window())
    box.setObjectName(CHECK_BOX)
    box.setWindowTitle(translate("MBD", "Check model"))
    box.setIcon(QtWidgets.QMessageBox.Information)
    box.setText(text)
    relax = box.addButton(translate("MBD", "Make statically determinate"), QtWidgets.QMessageBox.AcceptRole)
    relax.setObjectName("make_determinate")
    box.addButton(QtWidgets.QMessageBox.Close)
    run = getattr(box, "exec", None) or box.exec_
    run()
    return box.clickedButton() is relax


def make_determinate(doc: App.Document) -> None:
    """Set the Simulation's MakeDeterminate (one undoable step): every Solve relaxes the joints."""
    import FreeCAD

    from ..cad.makers import make_simulation
    from ..cad.objects import find_simulation

    doc.openTransaction("Make statically determinate")
    sim = find_simulation(doc) or make_simulation(doc)
    sim.MakeDeterminate = True
    doc.commitTransaction()
    FreeCAD.Console.PrintMessage(
        "Simulation '%s': MakeDeterminate set; each Solve relaxes the joints the Check proposed\n" % sim.Label
    )


class SolveRun:
    """One solver run in the solver process (:mod:`MBDWorkbench.solver.solve_process`) with a
    (non-modal) progress dialog showing the simulated time, the ETA and a Cancel button.

    ``run()`` hands the job to a worker thread and waits in a local Qt event loop, so the 3D
    view, the plots and every window keep repainting and answering while the solver works. The
    solver, the kernel compilation and the results archive run in the other process and never
    hold this process's Python lock; the worker thread only waits for them, then reads the
    archive back (off the GUI thread). The dialog is updated by a GUI-thread timer. ``run()``
    returns (PreparedResults or None, the run's Outcome); an error other than a run's
    SimulationError (a bad model, a refusal, a crash) is raised."""

    POLL_MS = 50

    def __init__(self, model: Model, archive_name: str, extras: dict[str, str], title: str = "Solving") -> None:
        QtCore, _, QtWidgets = qt_modules()
        self.model, self.archive_name, self.extras = model, archive_name, extras
        self.dialog = QtWidgets.QProgressDialog(
            translate("MBD", "Simulating %s ...") % model.name, translate("MBD", "Cancel"), 0, 1000, main_window()
        )
        self.dialog.setObjectName("MBD_SolveProgress")
        self.dialog.setWindowTitle(title)
        self.dialog.setMinimumDuration(0)
        self.dialog.setAutoClose(False)
        self.dialog.setAutoReset(False)
        self.dialog.setWindowModality(QtCore.Qt.NonModal)
        self.dialog.canceled.connect(self.request_cancel)
        self.cancel_requested = False
        self.state = {"t": 0.0, "t_end": float(model.settings.t_end), "done": False}
        self.outcome: tuple | BaseException = (None, None)
        self.started = 0.0
        self.process = None

    # ------------------------------------------------------------------ worker thread
    def cancel(self) -> bool:
        """Polled by the solver process's caller (worker thread)."""
        return self.cancel_requested

    def request_cancel(self) -> None:
        self.cancel_requested = True

    def _work(self) -> None:
        from ..cad.results_store import PreparedResults

        lower_thread_priority(WORKER_NICE)
        try:
            outcome = self.process.solve(self.model, self.archive_name, self.extras, cancel=self.cancel)
            prepared = PreparedResults.from_archive(outcome.archive) if outcome.archive else None
            self.outcome = (prepared, outcome)
        except BaseException as exc:  # re-raised in the GUI thread
            self.outcome = exc
        finally:
            self.state["done"] = True

    # ------------------------------------------------------------------ GUI thread
    def label(self) -> str:
        t, t_end = self.state["t"], self.state["t_end"]
        fraction = min(1.0, t / t_end) if t_end > 0 else 0.0
        elapsed = time.perf_counter() - self.started
        eta = "ETA %.0f s" % (elapsed * (1.0 - fraction) / fraction) if fraction > 0.01 else "ETA --"
        state = translate("MBD", "cancelling...") if self.cancel_requested else eta
        return translate("MBD", "Simulating %s: t = %.4g of %.4g s (%s)") % (self.model.name, t, t_end, state)

    def _update(self, loop) -> None:
        if self.dialog.wasCanceled():  # also a scripted QProgressDialog.cancel(), which emits no signal
            self.cancel_requested = True
        if self.process is not None and self.process.progress is not None:
            self.state["t"], self.state["t_end"] = self.process.progress
        t_end = self.state["t_end"]
        self.dialog.setValue(int(1000 * min(1.0, self.state["t"] / t_end)) if t_end > 0 else 0)
        self.dialog.setLabelText(self.label())
        if self.state["done"]:
            loop.quit()

    def run(self) -> tuple:
        import threading

        from ..solver.errors import SimulationError

        QtCore, _, _ = qt_modules()
        self.process = solver_process()
        loop = QtCore.QEventLoop()
        timer = QtCore.QTimer()
        timer.setInterval(self.POLL_MS)
        timer.timeout.connect(lambda: self._update(loop))
        self.started = time.perf_counter()
        self.dialog.show()
        worker = threading.Thread(target=self._work, name="MBD solve", daemon=True)
        _running.append(self)
        try:
            worker.start()
            timer.start()
            if not self.state["done"]:
                (getattr(loop, "exec", None) or loop.exec_)()
            worker.join()
        finally:
            timer.stop()
            _running.remove(self)
            self.dialog.close()
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        prepared, outcome = self.outcome
        if outcome.error is not None and not isinstance(outcome.error, SimulationError):
            if prepared is not None:
                prepared.discard()
            raise outcome.error
        return prepared, outcome


_process: list = []  # the solver process (solve_process.SolverProcess), started once per session


def solver_process():
    """The session's solver process, started (again) when there is none alive."""
    from ..solver.solve_process import SolverProcess

    if not _process or not _process[0].alive():
        _process[:] = [SolverProcess()]
    return _process[0]


_running: list[SolveRun] = []
WORKER_NICE = 5  # the solve thread's nice value above the GUI thread's: the GUI wins the CPU on a loaded machine


def lower_thread_priority(steps: int) -> None:
    """Raise the calling thread's nice value by ``steps`` (Linux: the nice value is per thread),
    so on a machine busier than its cores the scheduler runs FreeCAD's GUI thread first when
    the worker hands it Python's lock; nothing where that is not supported."""
    import os
    import threading

    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + steps)
    except (AttributeError, OSError):
        pass


def solve_running() -> SolveRun | None:
    """The SolveRun under way, or None."""
    return _running[0] if _running else None


WARM_MESSAGE = "Compiling the solver kernels (first use)..."
_warm_state: dict = {}


def _warm_kernels() -> None:
    """Worker thread: start the solver process (:mod:`MBDWorkbench.solver.solve_process`), which
    loads the Numba kernels a first Solve needs (compiling them first, in a background process,
    on an empty cache; a Solve started meanwhile runs interpreted there), and wait until it is
    ready. Nothing compiles or runs the solver in FreeCAD's process. The modules a Solve needs
    in FreeCAD (the model built from the document, the results store) are imported meanwhile."""
    started = time.perf_counter()
    try:
        process = solver_process()
        import_solve_modules()
        process.ready.wait()
        if not process.alive():
            raise RuntimeError("the solver process ended (exit code %s)" % process.process.poll())
        load_model_kernels()
    except Exception as exc:  # a warm-up failure must not disturb the user; Solve reports errors
        _warm_state["error"] = repr(exc)
    finally:
        _warm_state["seconds"] = time.perf_counter() - started
        _warm_state["done"] = True


def load_model_kernels() -> None:
    """Load into FreeCAD's process, in the warm-up thread, the kernels that building a model calls
    there (validating the drivers' profiles: solver/model/expressions.py), once they are in the
    cache: loaded by the first Solve's GUI thread instead, they stalled it for 0.2-0.9 s."""
    import os

    from ..solver.model import load, validate

    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.path.join(here, "examples", "slider_crank.json")  # a motor with a profile
    if os.path.isfile(path):
        validate(load(path))


def import_solve_modules() -> None:
    """Import (in the warm-up thread) the modules a Solve needs in FreeCAD's process: the model
    built from the document (solver/model), the results store and format (solver/results) and
    the solver process's caller, so the first Solve imports none of them in the GUI thread
    (0.1-0.8 s on a loaded machine; compiling a module's source holds Python's lock throughout).
    The integrators and kernels run in the solver process only and are not imported here."""
    import importlib
    import pkgutil

    root = __package__.rpartition(".")[0]
    for name in ("cad.document_model", "cad.results_store", "solver.solve_process"):
        importlib.import_module("." + name, root)
    for name in ("solver.model", "solver.results"):
        package = importlib.import_module("." + name, root)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)


def warm_up_solver() -> None:
    """Start compiling the solver kernels in the background (once per session), with a
    status-bar message until done; the first Solve then does not wait for Numba."""
    import threading

    if _warm_state:
        return
    _warm_state.update(done=False)
    QtCore, _, _ = qt_modules()
    bar = main_window().statusBar()
    bar.showMessage(WARM_MESSAGE)
    timer = QtCore.QTimer(main_window())
    timer.setInterval(250)

    def poll() -> None:
        if _warm_state.get("done"):
            timer.stop()
            if bar.currentMessage() == WARM_MESSAGE:
                bar.showMessage("Solver kernels ready (%.0f s)" % _warm_state["seconds"], 5000)
        elif bar.currentMessage() != WARM_MESSAGE:
            bar.showMessage(WARM_MESSAGE)

    timer.timeout.connect(poll)
    timer.start()
    _warm_state["timer"] = timer
    threading.Thread(target=_warm_kernels, name="MBD kernel warm-up", daemon=True).start()


def warm_up_state() -> dict:
    """{"done": bool, "seconds": wall time of the warm-up run [s], "error": text} (empty if not started)."""
    return {k: v for k, v in _warm_state.items() if k != "timer"}


def solve_document(doc: App.Document) -> tuple[StoredResults | None, str, Exception | None]:
    """Build, run, store; returns (StoredResults or None, summary text, error or None)."""
    from ..cad.makers import make_simulation
    from ..cad.objects import find_simulation
    from ..cad.results_store import PLACEMENTS, summary_lines
    from .animate import active_panel, document_alive

    panel = active_panel()
    if panel is not None and panel.doc_name == doc.Name:
        panel.reject()  # the animation shows the run being replaced
    model, mapping = _model(doc)
    sim = find_simulation(doc)
    if sim is not None and getattr(sim, "MakeDeterminate", False):
        model = determinate(model)
    name = "%s_results.zip" % getattr(sim, "Name", "Simulation")
    prepared, outcome = SolveRun(model, name, {PLACEMENTS: json.dumps(mapping, indent=1)}).run()
    error = outcome.error
    if prepared is None:  # no samples
        return None, str(error), error
    if not document_alive(doc):
        prepared.discard()
        raise ValueError("the document was closed during the run; its results are discarded")
    sim = sim or make_simulation(doc)
    doc.openTransaction("Store results")
    stored = prepared.store(sim)
    doc.commitTransaction()
    from .plot_dock import results_changed

    results_changed(doc)
    text = "\n".join(summary_lines(prepared.summary))
    return stored, text, error


def determinate(model: Model) -> Model:
    """The model made statically determinate (analyses.mobility.relax), each relaxation printed
    to the Report view; the run's summary and report list them."""
    import FreeCAD

    from ..solver.analyses.mobility import relax

    model, _ = relax(model)
    for line in model.relaxations:
        FreeCAD.Console.PrintMessage("Make statically determinate: relaxed %s\n" % line)
    return model


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
    from ..solver.results.status import describe

    return ["- %s" % describe(w) for w in warnings]


def run_status(stored: StoredResults | None, error: Exception | None) -> tuple[str | None, list]:
    """(status, [RunWarning]) of the last run: from the stored summary, else from the error's results."""
    from ..solver.results.status import RunWarning

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
            translate("MBD", "Run cancelled; the results computed so far are kept.")
            if isinstance(error, Cancelled)
            else translate("MBD", "The run stopped: %s") % error
        )
    if stored is not None:
        parts.append(text)
    if warnings:
        parts.append(
            translate("MBD", "Warnings (check before using the results):") + "\n" + "\n".join(warning_lines(warnings))
        )
    return "\n\n".join(parts)


class SolveCommand(Command):
    MENU, ICON = QT_TRANSLATE_NOOP("MBD_Solve", "Solve"), "solve"
    TIP = QT_TRANSLATE_NOOP(
        "MBD_Solve", "Run the dynamic simulation (progress bar with Cancel); results are kept in the document"
    )
    last = None  # (StoredResults, summary text, error) of the last run, for scripts and tests

    def IsActive(self) -> bool:
        return active_document() is not None and solve_running() is None

    def Activated(self) -> None:
        from ..solver.results.status import CANCELLED, COMPLETED, COMPLETED_WITH_WARNINGS, OverdrivenError

        doc = active_document()
        try:
            SolveCommand.last = solve_document(doc)
        except OverdrivenError as exc:
            SolveCommand.last = (None, str(exc), exc)
            drivers = "\n".join("- '%s'" % d for d in exc.drivers)
            warning_box(
                translate("MBD", "Solve"),
                translate("MBD", "The model is over-driven; the run was refused.\n\nDrivers in conflict:\n%s\n\n%s")
                % (drivers, exc.message),
                REFUSED_BOX,
            )
            return
        except Exception as exc:
            SolveCommand.last = (None, str(exc), exc)
            show_error(translate("MBD", "Solve"), exc)
            return
        stored, text, error = SolveCommand.last
        status, warnings = run_status(stored, error)
        body = run_text(stored, text, error, warnings)
        if error is None and status == COMPLETED:
            notice_box(translate("MBD", "Solve"), body, SUMMARY_BOX, warning=False)
        elif status in (COMPLETED_WITH_WARNINGS, CANCELLED):
            notice_box(translate("MBD", "Solve"), body + "\n\n" + translate("MBD", PANEL_NOTE), SUMMARY_BOX)
        else:
            warning_box(translate("MBD", "Solve"), body, SUMMARY_BOX)


PANEL_NOTE = QT_TRANSLATE_NOOP("MBD", "The warnings stay listed in the Simulation panel (double-click the Simulation).")
_notices: list = []  # the open non-modal notices (kept from the garbage collector)


def notice_box(title: str, text: str, name: str, warning: bool = True) -> None:
    """A NON-modal QMessageBox (objectName ``name``) with the Warning icon, or the Information
    icon when ``warning`` is False: it blocks nothing and closes with OK; also printed to
    FreeCAD's console (as a warning, or a message)."""
    import FreeCAD

    QtCore, _, QtWidgets = qt_modules()
    (FreeCAD.Console.PrintWarning if warning else FreeCAD.Console.PrintMessage)("%s: %s\n" % (title, text))
    box = QtWidgets.QMessageBox(main_window())
    box.setObjectName(name)
    box.setWindowTitle(title)
    box.setIcon(QtWidgets.QMessageBox.Warning if warning else QtWidgets.QMessageBox.Information)
    box.setText(text)
    box.setStandardButtons(QtWidgets.QMessageBox.Ok)
    box.setWindowModality(QtCore.Qt.NonModal)
    box.finished.connect(lambda *_: _notices.remove(box) if box in _notices else None)
    _notices.append(box)
    box.show()
