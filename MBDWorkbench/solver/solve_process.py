"""Solves in a separate process, so that the caller's Python lock is never held by the solver.

FreeCAD's GUI runs Solve through :class:`SolverProcess`: one long-lived child process (started
at the workbench's warm-up) that imports the solver, compiles or loads the Numba kernels, and
then runs one job at a time. Interpreted code, kernel compilation and the results archive all
run in the child and hold the child's GIL only, so the GUI's event loop keeps its turns
(issue 36: a thread in FreeCAD's process stalled it for up to 0.2 s on an empty kernel cache).

The protocol is lines of text. To the child (stdin): ``job <folder>`` (the folder holds
``model.pickle``: the Model; ``job.json``: the archive's name and its extra files), ``cancel``
(the running job stops as a Cancel would; its samples so far are kept); end of input (the
caller died or closed it) cancels and ends the child. From the child (stdout): ``ready``
(kernels loaded), ``progress <t> <t_end>`` (at most every PROGRESS_S), ``done`` (the job's
``outcome.pickle`` is written: the archive's path or None, the run's status and warnings, and
the error if any, rebuilt in the caller with its class and attributes).

Run: python -m MBDWorkbench.solver.solve_process (the caller starts it)."""

from __future__ import annotations

import importlib
import json
import os
import pickle
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

PROGRESS_S = 0.05  # smallest interval between two progress lines [s]
POLL_S = 0.05  # how often a waiting caller checks for a cancel [s]
MODEL, JOB, OUTCOME = "model.pickle", "job.json", "outcome.pickle"


@dataclass
class Outcome:
    """What a job produced: ``archive`` (the zip of its results, None without samples), the
    run's ``status`` and ``warnings`` (RunWarning list), and ``error`` (an exception or None)."""

    archive: str | None
    status: str | None = None
    warnings: list = field(default_factory=list)
    error: BaseException | None = None


# ----------------------------------------------------------------------------- the caller's side
class SolverProcess:
    """The child process and its job protocol; :meth:`solve` is called from one thread at a time."""

    def __init__(self) -> None:
        from .numerics.cold_start import python_executable

        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
        self.process = subprocess.Popen(
            [python_executable(), "-m", "MBDWorkbench.solver.solve_process"],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            start_new_session=True,  # a Ctrl+C in FreeCAD's terminal is FreeCAD's
        )
        self.ready = threading.Event()
        self.progress: tuple[float, float] | None = None
        self._done = threading.Event()
        threading.Thread(target=self._read, name="MBD solver process reader", daemon=True).start()

    def _read(self) -> None:
        """Reader thread: the child's lines into ``ready``, ``progress`` and the job's end."""
        for line in self.process.stdout:
            word, _, rest = line.strip().partition(" ")
            if word == "progress":
                t, t_end = rest.split()
                self.progress = (float(t), float(t_end))
            elif word == "ready":
                self.ready.set()
            elif word == "done":
                self._done.set()
        self.ready.set()  # the child ended: nobody waits for it
        self._done.set()

    def alive(self) -> bool:
        return self.process.poll() is None

    def solve(
        self, model, archive_name: str, extras: dict[str, str], cancel: Callable[[], bool] | None = None
    ) -> Outcome:
        """Run ``model`` in the child; the results zip is ``archive_name`` in a new temporary folder
        (the caller removes the folder) with the ``extras`` files. ``cancel()`` returning True stops
        the run. An error's ``results`` is a :class:`RunStatus` (the samples are in the archive)."""
        folder = tempfile.mkdtemp(prefix="mbd_solve_")
        with open(os.path.join(folder, MODEL), "wb") as f:
            pickle.dump(model, f)
        with open(os.path.join(folder, JOB), "w") as f:
            json.dump({"archive": archive_name, "extras": extras}, f)
        self.progress, cancelled = None, False
        self._done.clear()
        self._send("job " + folder)
        while not self._done.wait(POLL_S):
            if not cancelled and cancel is not None and cancel():
                self._send("cancel")
                cancelled = True
        path = os.path.join(folder, OUTCOME)
        if not os.path.isfile(path):
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError("the solver process ended unexpectedly (exit code %s)" % self._end())
        with open(path, "rb") as f:
            data = pickle.load(f)
        if data["archive"] is None:
            shutil.rmtree(folder, ignore_errors=True)
        error = rebuilt_error(data["error"])
        if error is not None:
            error.results = RunStatus(data["status"], data["warnings"])
        return Outcome(data["archive"], data["status"], data["warnings"], error)

    def _end(self) -> int:
        """The exit code of a child that closed its output (killed if it has not ended in 10 s)."""
        try:
            return self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()

    def _send(self, line: str) -> None:
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError):  # the child ended; solve() reports it
            self._done.set()

    def close(self) -> None:
        """End the child (its input closes: a running job is cancelled)."""
        try:
            self.process.stdin.close()
        except OSError:
            pass


@dataclass
class RunStatus:
    """The status and warnings of a run whose samples are not in this process (no samples: len 0)."""

    status: str | None
    warnings: list

    def __len__(self) -> int:
        return 0


def rebuilt_error(data: tuple | None) -> BaseException | None:
    """The child's exception from (module, class name, text, attributes): its own class when it
    can be imported here, else a RuntimeError with its text."""
    if data is None:
        return None
    module, name, text, attributes = data
    try:
        cls = getattr(importlib.import_module(module), name)
        error = cls.__new__(cls)
        BaseException.__init__(error, text)
        error.__dict__.update(attributes)
        error.results = None
        return error
    except Exception:
        return RuntimeError("%s: %s" % (name, text))


# ----------------------------------------------------------------------------- the child
def _portable_error(exc: BaseException) -> tuple:
    """(module, class name, text, picklable attributes) of an exception (its results left out)."""
    attributes = {}
    for key, value in vars(exc).items():
        if key == "results":
            continue
        try:
            pickle.dumps(value)
        except Exception:
            continue
        attributes[key] = value
    return type(exc).__module__, type(exc).__qualname__, str(exc), attributes


class _Child:
    """The child's loop: jobs from stdin, one at a time, progress and ends to stdout."""

    def __init__(self) -> None:
        self.jobs: queue.Queue = queue.Queue()
        self.cancelled = threading.Event()
        self._last = 0.0
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        for line in sys.stdin:
            word, _, rest = line.strip().partition(" ")
            if word == "job":
                self.jobs.put(rest)
            elif word == "cancel":
                self.cancelled.set()
        self.cancelled.set()  # the caller is gone
        self.jobs.put(None)

    def say(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def progress(self, t: float, t_end: float) -> None:
        now = time.perf_counter()
        if now - self._last >= PROGRESS_S:
            self._last = now
            self.say("progress %.17g %.17g" % (t, t_end))

    def run(self) -> None:
        self.start_warm_up()
        while True:
            if not self.ready:
                self.finish_warm_up()
            try:
                folder = self.jobs.get(timeout=None if self.ready else 0.2)
            except queue.Empty:
                continue
            if folder is None:
                return
            self.cancelled.clear()
            self.job(folder)
            self.say("done")

    def start_warm_up(self) -> None:
        """Start compiling the kernels the first Solve needs into the cache (a background process,
        solver/numerics/cold_start.py) when they are not there; a job arriving meanwhile runs
        interpreted while they compile."""
        from .integrators import METHODS
        from .numerics import cold_start

        self.ready, self.compiling, self.warm, self.kernel = False, None, None, None
        try:
            self.warm = _warm_model()
            self.kernel = METHODS[self.warm.settings.integrator].entry_kernel
            if self.kernel is not None and not cold_start.is_cached(self.kernel):
                self.compiling = cold_start.fill_in_background(self.warm, self.warm.settings.integrator)
        except Exception:  # a warm-up failure must not end the child; a job reports its own errors
            self.warm = None

    def finish_warm_up(self) -> None:
        """Once the background compile has ended and no job waits: load the compiled kernels
        (a two-step run) and say ``ready``."""
        from .numerics import cold_start

        if (self.compiling is not None and self.compiling.poll() is None) or not self.jobs.empty():
            return
        try:
            if self.warm is not None and self.kernel is not None and cold_start.is_cached(self.kernel):
                from .simulate import simulate

                step = self.warm.settings.step
                simulate(self.warm, t_end=2 * step, output_step=step, accuracy=False)
        except Exception:  # as above
            pass
        self.ready = True
        self.say("ready")

    def job(self, folder: str) -> None:
        from .errors import SimulationError
        from .results import files
        from .simulate import simulate

        outcome = {"archive": None, "status": None, "warnings": [], "error": None}
        try:
            with open(os.path.join(folder, MODEL), "rb") as f:
                model = pickle.load(f)
            with open(os.path.join(folder, JOB)) as f:
                job = json.load(f)
            try:
                res = simulate(
                    model, progress=self.progress, cancel=self.cancelled.is_set, interpret_while_compiling=True
                )
            except SimulationError as exc:
                res = exc.results
                outcome["error"] = _portable_error(exc)
            if res is not None:
                outcome["status"], outcome["warnings"] = res.status, list(getattr(res, "warnings", None) or [])
            if res is not None and len(res):
                outcome["archive"] = files.write_zip(res, os.path.join(folder, job["archive"]), job["extras"])
        except BaseException as exc:  # re-raised in the caller
            outcome["error"] = _portable_error(exc)
        with open(os.path.join(folder, OUTCOME), "wb") as f:
            pickle.dump(outcome, f)


def _warm_model():
    """The slider-crank example when it is there (a motor: the driver kernels compile too), else a pendulum."""
    from .model import from_dict, load

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.path.join(root, "examples", "slider_crank.json")
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


if __name__ == "__main__":
    _Child().run()
