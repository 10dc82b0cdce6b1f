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

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from .common import Command, active_document, main_window, message, qt_modules, show_error, translate

if TYPE_CHECKING:
    import FreeCAD as App

    from ..cad.results_store import StoredResults
    from ..solver.errors import SimulationError
    from ..solver.model import Model
    from ..solver.results.results import Results

SUMMARY_BOX = "MBD_SolveSummary"
REFUSED_BOX = "MBD_SolveRefused"
CHECK_BOX = "MBD_CheckReport"


def _model(doc):
    import FreeCAD as App

    from ..cad.document_model import synced_document_model

    # a document with an Assembly: its joints imported or updated first, omissions to the Report view
    return synced_document_model(doc, show=lambda text: App.Console.PrintWarning(text + "\n"))


class CheckCommand(Command):
    MENU, TIP, ICON = "Check model", "Degrees of freedom and redundant constraints of the mechanism", "check"

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
    relax = box.addButton("Make statically determinate", QtWidgets.QMessageBox.AcceptRole)
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
    """One solver run in a worker thread with a (non-modal) progress dialog showing the
    simulated time, the ETA and a Cancel button.

    ``run()`` starts the thread and waits in a local Qt event loop, so the 3D view, the plots
    and every window keep repainting and answering while the solver works; the worker only
    computes (it never touches FreeCAD's document) and the dialog is updated by a GUI-thread
    timer from the progress the worker records. ``finish(results)``, if given, also runs in the
    worker (on results with samples); what it returns is ``finished``. ``run()`` returns
    (results, error or None)."""

    POLL_MS = 50
    YIELD_S = 0.02  # the worker lets the GUI thread run at least this often [s] ...
    YIELD_SLEEP_S = 0.001  # ... for this long [s] (5 % of the solve at most)

    def __init__(self, model: Model, title: str = "Solving", finish: Callable[[Results], object] | None = None) -> None:
        QtCore, _, QtWidgets = qt_modules()
        self.model = model
        self.finish = finish  # called in the worker thread on the run's results (with samples)
        self.finished: object = None  # what it returned
        self.dialog = QtWidgets.QProgressDialog("Simulating %s ..." % model.name, "Cancel", 0, 1000, main_window())
        self.dialog.setObjectName("MBD_SolveProgress")
        self.dialog.setWindowTitle(title)
        self.dialog.setMinimumDuration(0)
        self.dialog.setAutoClose(False)
        self.dialog.setAutoReset(False)
        self.dialog.setWindowModality(QtCore.Qt.NonModal)
        self.dialog.canceled.connect(self.request_cancel)
        self.cancel_requested = False
        self.state = {"t": 0.0, "t_end": float(model.settings.t_end), "done": False}
        self.outcome: tuple[Results | None, SimulationError | None] = (None, None)
        self.started = 0.0
        self._yielded = 0.0

    # ------------------------------------------------------------------ worker thread
    def progress(self, t: float, t_end: float) -> None:
        """Solver callback (worker thread): record the simulated time, and every YIELD_S of
        solving hand Python's lock (the GIL) to the GUI thread for a moment, so the event loop
        gets a turn however the worker's time splits between compiled kernels (which keep the
        lock for a whole call) and Python."""
        self.state["t"], self.state["t_end"] = float(t), float(t_end)
        now = time.perf_counter()
        if now - self._yielded >= self.YIELD_S:
            time.sleep(self.YIELD_SLEEP_S)
            self._yielded = time.perf_counter()

    def cancel(self) -> bool:
        """Solver callback (worker thread)."""
        return self.cancel_requested

    def request_cancel(self) -> None:
        self.cancel_requested = True

    def _work(self) -> None:
        from ..solver.errors import SimulationError
        from ..solver.simulate import simulate

        lower_thread_priority(WORKER_NICE)
        try:
            self.outcome = (
                simulate(self.model, progress=self.progress, cancel=self.cancel, interpret_while_compiling=True),
                None,
            )
        except SimulationError as exc:
            self.outcome = (exc.results, exc)
        except BaseException as exc:  # re-raised in the GUI thread
            self.outcome = (None, exc)
        try:
            res = self.outcome[0]
            if self.finish is not None and res is not None and len(res):
                self.finished = self.finish(res)
        except BaseException as exc:  # re-raised in the GUI thread
            self.outcome = (None, exc)
        finally:
            self.state["done"] = True

    # ------------------------------------------------------------------ GUI thread
    def label(self) -> str:
        t, t_end = self.state["t"], self.state["t_end"]
        fraction = min(1.0, t / t_end) if t_end > 0 else 0.0
        elapsed = time.perf_counter() - self.started
        eta = "ETA %.0f s" % (elapsed * (1.0 - fraction) / fraction) if fraction > 0.01 else "ETA --"
        state = "cancelling..." if self.cancel_requested else eta
        return "Simulating %s: t = %.4g of %.4g s (%s)" % (self.model.name, t, t_end, state)

    def _update(self, loop) -> None:
        if self.dialog.wasCanceled():  # also a scripted QProgressDialog.cancel(), which emits no signal
            self.cancel_requested = True
        t_end = self.state["t_end"]
        self.dialog.setValue(int(1000 * min(1.0, self.state["t"] / t_end)) if t_end > 0 else 0)
        self.dialog.setLabelText(self.label())
        if self.state["done"]:
            loop.quit()

    def run(self) -> tuple[Results | None, SimulationError | None]:
        import threading

        QtCore, _, _ = qt_modules()
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
        from ..solver.errors import SimulationError

        results, error = self.outcome
        if error is not None and not isinstance(error, SimulationError):
            raise error
        return results, error


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


def warm_model() -> Model:
    """The model the kernels are compiled with: the slider-crank example when it is installed
    (it has a motor, so the driver kernels compile too), else a pendulum; a short run."""
    import os

    from ..solver.model import from_dict, load

    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.path.join(here, "examples", "slider_crank.json")
    if os.path.isfile(path):
        return load(path)
    frame = {"origin": [0, 0, 0], "z_axis": [0, 1, 0], "x_axis": [1, 0, 0]}
    return from_dict(
        {
            "name": "warm-up",
            "bodies": [{"name": "bob", "mass": 1.0, "inertia": [1e-4] * 3, "position": [1.0, 0, 0]}],
            "joints": [{"name": "pivot", "type": "revolute", "body_i": "ground", "body_j": "bob", "frame": frame}],
        }
    )


def _warm_kernels() -> None:
    """Worker thread: a background process compiles the Numba kernels a first Solve needs into
    the on-disk cache (solver/numerics/cold_start.py; nothing compiles in FreeCAD's process, so the GUI
    does not stall); this thread waits for it. A Solve started meanwhile runs interpreted. Then the
    compiled kernels are loaded from the cache into this process (a two-step run): loading them
    took the first Solve 0.3-0.5 s in which the event loop stalled."""
    from ..solver.integrators import METHODS
    from ..solver.numerics import cold_start

    started = time.perf_counter()
    try:
        import_solve_modules()
        model = warm_model()
        integrator = model.settings.integrator
        kernel = METHODS[integrator].entry_kernel
        if kernel is not None and not cold_start.is_cached(kernel):
            job = cold_start.fill_in_background(model, integrator)
            if job is None:
                raise OSError("the background compile could not start")
            if job.wait() != 0:
                raise RuntimeError("the background compile ended with code %d" % job.returncode)
        if kernel is not None and cold_start.is_cached(kernel):  # never compiles here
            from ..solver.simulate import simulate

            lower_thread_priority(WORKER_NICE)  # after starting the compile, which would inherit it
            simulate(model, t_end=2 * model.settings.step, output_step=model.settings.step)
    except Exception as exc:  # a warm-up failure must not disturb the user; Solve reports errors
        _warm_state["error"] = repr(exc)
    finally:
        _warm_state["seconds"] = time.perf_counter() - started
        _warm_state["done"] = True


def import_solve_modules() -> None:
    """Import (in the warm-up thread) the modules a Solve needs besides the GUI's: the model
    built from the document, the results store, and every module of the solver, so the first
    Solve imports none of them in the GUI thread or its worker (0.1-0.8 s on a loaded machine;
    compiling a module's source holds Python's lock throughout)."""
    import importlib
    import pkgutil

    root = __package__.rpartition(".")[0]
    for name in ("cad.document_model", "cad.results_store"):
        importlib.import_module("." + name, root)
    solver = importlib.import_module(".solver", root)
    for info in pkgutil.walk_packages(solver.__path__, solver.__name__ + "."):
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
    from ..cad.results_store import PreparedResults, summary_lines
    from .animate import active_panel, document_alive

    panel = active_panel()
    if panel is not None and panel.doc_name == doc.Name:
        panel.reject()  # the animation shows the run being replaced
    model, mapping = _model(doc)
    sim = find_simulation(doc)
    if sim is not None and getattr(sim, "MakeDeterminate", False):
        model = determinate(model)
    name = "%s_results.zip" % getattr(sim, "Name", "Simulation")
    run = SolveRun(model, finish=lambda res: PreparedResults(res, mapping, name))
    res, error = run.run()
    if res is None or not len(res):
        return None, str(error), error
    prepared = run.finished  # the archive written and read back in the worker thread
    if not document_alive(doc):
        prepared.discard()
        raise ValueError("the document was closed during the run; its results are discarded")
    sim = sim or make_simulation(doc)
    doc.openTransaction("Store results")
    stored = prepared.store(sim)
    doc.commitTransaction()
    from .plot_dock import results_changed

    results_changed(doc)
    text = "\n".join(summary_lines(res.summary()))
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
                "Solve",
                "The model is over-driven; the run was refused.\n\nDrivers in conflict:\n%s\n\n%s"
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
            notice_box(translate("MBD", "Solve"), body + PANEL_NOTE, SUMMARY_BOX)
        else:
            warning_box("Solve", body, SUMMARY_BOX)


PANEL_NOTE = "\n\nThe warnings stay listed in the Simulation panel (double-click the Simulation)."
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
