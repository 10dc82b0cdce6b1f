"""The accuracy estimate of a run (issue 31; docs/solver.md, "Accuracy estimate").

A *companion* run of the same model solves it a second time: in another process
(:mod:`.companion`) started with the main run, or in the run's process after it (one CPU, a cold
Numba cache, a short run: :class:`Companion`); the two are compared at the output times:

- fixed-step integrators (euler, symplectic_euler, rk4, rk4_tree, cros, of order p): the
  companion takes steps r = 2 times longer and Richardson's formula gives the main run's error
  err(h) ~ |y_h - y_rh| / (r^p - 1) (``richardson_2h``); when an output interval holds a single
  step the companion takes half steps instead, err(h) ~ |y_h - y_h/r| r^p / (r^p - 1)
  (``richardson_half``);
- adaptive ones (bdf, radau, lsoda, galpha): the companion runs with rtol and atol divided by
  TIGHTEN and est = |y - y_tight| (``tight_companion``).

The estimate (:func:`compare`) is the largest difference over the output times of: each moving
body's CoG [m], its orientation (rotation angle between the two [rad]), each joint's reaction
force [N] and torque [N m] and each driver's effort; :func:`gate` turns the estimates above the
run's tolerances into ``accuracy`` warnings. Pure numerics: no FreeCAD.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass

import numpy as np

from .errors import ModelError, SimulationError
from .model.catalog import DRIVERS
from .numerics import cold_start
from .results.status import RunWarning

ENV = "MBD_ACCURACY"  # "off": no companion run whatever the settings (test suites, batch scripts)
ORDERS = {"euler": 1, "symplectic_euler": 1, "rk4": 4, "rk4_tree": 4, "cros": 2}  # fixed-step: order p
TIGHTEN = 100.0  # adaptive integrators: the companion's rtol and atol are the run's / TIGHTEN (10 was too
# little for SciPy's BDF: its error fell only 1.4 times, the estimate was 0.3 x the true error)
POLL_S = 0.05  # wall time [s] between two looks at the companion while waiting for it
# a companion expected to take less than this wall time [s] runs in the run's process after it rather than in a
# process of its own (starting one and importing the solver take about 1 s of CPU, 2-4 s of wall time under load)
IN_PROCESS_S = 1.0


def enabled(settings) -> bool:
    """Whether a run with ``settings`` makes an estimate: settings.accuracy, unless the
    environment variable MBD_ACCURACY is ``off``."""
    return bool(settings.accuracy) and os.environ.get(ENV, "").strip().lower() not in ("off", "0", "false", "no")


@dataclass(frozen=True)
class Plan:
    """How a run's error is estimated: the companion's setting ``overrides``, the ``factor``
    turning |main - companion| into the main run's error, the ``method`` name and a sentence."""

    method: str
    description: str
    overrides: dict
    factor: float
    hint: str
    cost: float = 1.0  # the companion's work relative to the run's (about)


def steps_per_output(settings, step: float) -> int:
    """Steps [-] a fixed-step integrator takes per output interval with ``step`` [s] (the step is
    shortened so that output times are hit: simulate._Pace)."""
    return max(1, math.ceil(settings.output_step / step - 1e-9))


def plan(settings) -> Plan:
    """The companion run and the error formula for ``settings``' integrator."""
    settings = settings.resolved()  # the integrator's own step and rtol where they are None
    name, h = settings.integrator, float(settings.step)
    order = ORDERS.get(name)
    if order is None:
        rtol, atol = settings.rtol / TIGHTEN, settings.atol / TIGHTEN
        return Plan(
            "tight_companion",
            f"difference to a companion run with {TIGHTEN:g} times tighter rtol and atol ({rtol:g}, {atol:g})",
            dict(rtol=rtol, atol=atol),
            1.0,
            f"tighten --rtol and --atol (e.g. --rtol {rtol:g} --atol {atol:g})",
            3.0,
        )
    n = steps_per_output(settings, h)
    hint = f"halve --step (the error of {name}, order {order}, falls about {2**order:g} times)"
    if n >= 2:
        n_long = steps_per_output(settings, 2.0 * h)
        r = n / n_long
        return Plan(
            "richardson_2h",
            f"Richardson estimate from a companion run at twice the step ({settings.output_step / n_long:g} s), "
            f"order {order}",
            dict(step=2.0 * h),
            1.0 / (r**order - 1.0),
            hint,
            1.0 / r,
        )
    r = steps_per_output(settings, 0.5 * h) / n
    return Plan(
        "richardson_half",
        f"Richardson estimate from a companion run at half the step ({0.5 * h:g} s), order {order}",
        dict(step=0.5 * h),
        r**order / (r**order - 1.0),
        hint,
        r,
    )


# ----------------------------------------------------------------------------- samples and comparison
def samples_of(res) -> dict[str, np.ndarray]:
    """What the estimate compares, from a Results: times t [s] (K,), CoG positions [m]
    (K, nb, 3), rotation matrices (K, nb, 3, 3), joint forces [N] and torques [N m] in global
    axes (K, nj, 3), driver efforts [N or N m] (K, nd)."""
    k, nb, nj, nd = len(res), len(res.body_names), len(res.joint_names), len(res.driver_names)
    position, rotation = np.zeros((k, nb, 3)), np.zeros((k, nb, 3, 3))
    for b, name in enumerate(res.body_names):
        position[:, b], rotation[:, b] = res.position(name), res.rotation(name)
    force, torque = np.zeros((k, nj, 3)), np.zeros((k, nj, 3))
    for j, name in enumerate(res.joint_names):
        force[:, j], torque[:, j] = res.reaction(name, "global")
    effort = np.zeros((k, nd))
    for d, name in enumerate(res.driver_names):
        effort[:, d] = res.driver_effort(name)
    return dict(t=np.array(res.t), position=position, rotation=rotation, force=force, torque=torque, effort=effort)


def rotation_angle(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Angle [rad] of the rotation between the rotation matrices A and B (..., 3, 3):
    |A - B|_F = 2 sqrt(2) sin(angle / 2), accurate for small angles."""
    d = np.linalg.norm((A - B).reshape(*A.shape[:-2], 9), axis=-1)
    return 2.0 * np.arcsin(np.clip(d / (2.0 * math.sqrt(2.0)), 0.0, 1.0))


def largest(diff: np.ndarray) -> tuple[float, int]:
    """(largest value, index of its column) of a (K, n) array; (0, -1) when empty."""
    if diff.size == 0:
        return 0.0, -1
    per_column = diff.max(axis=0)
    k = int(np.argmax(per_column))
    return float(per_column[k]), k


def compare(main: dict, companion: dict, factor: float) -> dict:
    """Errors [m, rad, N, N m] of ``main`` estimated as ``factor`` x its largest difference to
    ``companion`` over the output times (both :func:`samples_of`). ValueError if their output
    times differ. Returns {position, angle: (error, body index), force, torque: (K, nj) errors,
    effort: (K, nd), peaks of main}."""
    if main["t"].shape != companion["t"].shape or not np.allclose(main["t"], companion["t"], atol=1e-9):
        raise ValueError("the companion's output times differ from the run's")
    d_pos = np.linalg.norm(main["position"] - companion["position"], axis=-1)
    d_ang = rotation_angle(main["rotation"], companion["rotation"])
    return dict(
        position=largest(factor * d_pos),
        angle=largest(factor * d_ang),
        force=factor * np.linalg.norm(main["force"] - companion["force"], axis=-1).max(axis=0, initial=0.0),
        torque=factor * np.linalg.norm(main["torque"] - companion["torque"], axis=-1).max(axis=0, initial=0.0),
        effort=factor * np.abs(main["effort"] - companion["effort"]).max(axis=0, initial=0.0),
        peak_force=np.linalg.norm(main["force"], axis=-1).max(axis=0, initial=0.0),
        peak_torque=np.linalg.norm(main["torque"], axis=-1).max(axis=0, initial=0.0),
        peak_effort=np.abs(main["effort"]).max(axis=0, initial=0.0),
    )


def record(res, errors: dict, plan_: Plan, companion: dict, length_scale: float) -> dict:
    """The ``accuracy`` record of summary.json (docs/results-format.md) of the Results ``res``."""
    s = res.settings
    units = {d.name: DRIVERS[d.type].effort_unit for d in res.model.drivers}
    return {
        "method": plan_.method,
        "description": plan_.description,
        "position_error_m": errors["position"][0],
        "angle_error_rad": errors["angle"][0],
        "joints": {
            name: {
                "peak_force_N": float(errors["peak_force"][j]),
                "force_error_N": float(errors["force"][j]),
                "peak_torque_Nm": float(errors["peak_torque"][j]),
                "torque_error_Nm": float(errors["torque"][j]),
            }
            for j, name in enumerate(res.joint_names)
        },
        "drivers": {
            name: {
                "peak_effort": float(errors["peak_effort"][d]),
                "effort_error": float(errors["effort"][d]),
                "unit": units[name],
            }
            for d, name in enumerate(res.driver_names)
        },
        "companion": companion,
        "tolerances": {
            "position_m": float(s.accuracy_position_tol * length_scale),
            "angle_rad": float(s.accuracy_angle_tol),
            "load_fraction": float(s.accuracy_load_tol),
        },
    }


# ----------------------------------------------------------------------------- quality gate
def load_scale(rec: dict, length_scale: float) -> float:
    """The run's load scale [N]: the largest peak force of the joints and drivers, or peak torque
    divided by the model's length scale [m] if larger; the load tolerances are a fraction of it
    (a torque's times the length scale), so round-off in an unloaded joint raises no warning."""
    peaks = [0.0]
    for j in rec["joints"].values():
        peaks += [j["peak_force_N"], j["peak_torque_Nm"] / length_scale]
    for d in rec["drivers"].values():
        peaks.append(d["peak_effort"] / (length_scale if d["unit"] == "N m" else 1.0))
    return max(peaks)


def gate(rec: dict, errors: dict, res, hint: str, length_scale: float) -> list[RunWarning]:
    """``accuracy`` warnings for each estimate of ``rec`` above its tolerance: positions (naming
    the body), angles, each joint's force and torque and each driver's effort (tolerance: the
    load fraction times :func:`load_scale`, times the length scale for a torque). None when
    every estimate is within its tolerance."""
    tol = rec["tolerances"]
    found = []
    for key, unit, tol_key in (("position", "m", "position_m"), ("angle", "rad", "angle_rad")):
        err, b = errors[key]
        if err > tol[tol_key]:
            body = res.body_names[b]
            found.append(_warning(f"{key} of body '{body}'", err, tol[tol_key], unit, hint, (body,)))
    force_tol = tol["load_fraction"] * load_scale(rec, length_scale)
    limits = {"N": force_tol, "N m": force_tol * length_scale}
    for name, j in rec["joints"].items():
        for kind, key, unit in (("force", "force_error_N", "N"), ("torque", "torque_error_Nm", "N m")):
            if j[key] > limits[unit]:
                found.append(_warning(f"joint '{name}' {kind}", j[key], limits[unit], unit, hint, (name,)))
    for name, d in rec["drivers"].items():
        if d["effort_error"] > limits[d["unit"]]:
            found.append(
                _warning(f"driver '{name}' effort", d["effort_error"], limits[d["unit"]], d["unit"], hint, (name,))
            )
    return found


def _warning(what: str, err: float, tol: float, unit: str, hint: str, elements: tuple) -> RunWarning:
    return RunWarning(
        "accuracy",
        f"estimated error of the {what}: {err:.3g} {unit}, above the accuracy tolerance {tol:.3g} {unit}; {hint}",
        None,
        elements,
    )


def not_made(reason: str) -> RunWarning:
    """The warning of a run whose estimate could not be made (the companion failed, ...)."""
    return RunWarning("accuracy", f"the accuracy estimate could not be made: {reason}")


# ----------------------------------------------------------------------------- the companion process
def cpus() -> int:
    """CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Companion:
    """The companion run of ``model`` (settings already applied). With ``in_process`` False it
    starts now in a background process (``python -m MBDWorkbench.solver.companion``, like the cold
    start's cache filler: works from FreeCAD, whose executable is not a Python); :meth:`result`
    runs it in this process after the run instead when ``in_process`` (one CPU, or a cold cache:
    an interpreted start goes on interpreted, an in-process compile is not repeated) or when the
    run was so short that starting a process would cost more (:data:`IN_PROCESS_S`)."""

    def __init__(self, model, in_process: bool = False) -> None:
        self.plan = plan(model.settings)
        self.integrator = model.settings.integrator
        self.settings = dict(vars(model.settings), **self.plan.overrides, accuracy=False)
        self.job: subprocess.Popen | None = None
        self.folder = ""
        self.started = 0.0
        if not in_process:
            try:
                self.start(model)
            except (OSError, TypeError, ValueError):  # not JSON (a profile given as a Python object), no process
                self.stop()
                self.job = None

    def start(self, model) -> None:
        """Start the background process."""
        self.folder = tempfile.mkdtemp(prefix="mbd_accuracy_")
        data = model.to_dict()
        data["settings"] = self.settings
        with open(os.path.join(self.folder, "model.json"), "w") as f:
            json.dump(data, f, allow_nan=False)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
        env[cold_start.MODE_ENV], env[ENV] = "compile", "off"
        self.started = time.perf_counter()
        self.job = subprocess.Popen(
            [cold_start.python_executable(), "-m", "MBDWorkbench.solver.companion", self.folder],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def result(self, run_wall: float, run_here, cancel=None) -> tuple[dict | None, dict]:
        """The companion's (samples or None, {integrator, step, rtol, wall_s, status, message}):
        from its process, or from ``run_here(overrides)`` (a simulate call returning Results) in
        this process when it has none or when the run took ``run_wall`` [s] short enough that
        the companion costs less here (its process is then stopped). ``cancel()`` returning True
        stops it (status ``cancelled``)."""
        if self.job is None or (self.job.poll() is None and run_wall * self.plan.cost < IN_PROCESS_S):
            self.stop()
            return self._here(run_here)
        while self.job.poll() is None:
            if cancel is not None and cancel():
                self.stop()
                return None, self._info("cancelled", "the run was cancelled while the estimate was made")
            time.sleep(POLL_S)
        try:
            with open(os.path.join(self.folder, "outcome.json")) as f:
                outcome = json.load(f)
        except (OSError, ValueError):
            outcome = {"status": "failed", "message": f"the companion process ended with code {self.job.returncode}"}
        info = self._info(outcome["status"], outcome.get("message", ""))
        samples = None
        if outcome["status"] in ("completed", "completed_with_warnings"):
            with np.load(os.path.join(self.folder, "samples.npz")) as z:
                samples = {k: z[k] for k in z.files}
        self.stop()
        return samples, info

    def _here(self, run_here) -> tuple[dict | None, dict]:
        self.started = time.perf_counter()
        try:
            res = run_here(dict(self.plan.overrides))
        except (ModelError, SimulationError) as e:
            return None, self._info(getattr(getattr(e, "results", None), "status", "failed"), str(e))
        return samples_of(res), self._info(res.status, res.message)

    def _info(self, status: str, message: str) -> dict:
        adaptive = self.integrator not in ORDERS
        return {
            "integrator": self.integrator,
            "step": None if adaptive else float(self.settings["step"]),
            "rtol": float(self.settings["rtol"]) if adaptive else None,
            "wall_s": time.perf_counter() - self.started if self.started else 0.0,
            "status": status,
            "message": message,
        }

    def stop(self) -> None:
        """End the process if it runs and delete its folder."""
        if self.job is not None and self.job.poll() is None:
            self.job.kill()
            self.job.wait()
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)


def estimate(res, companion: Companion, length_scale: float, run_here, cancel=None) -> list[RunWarning]:
    """Wait for ``companion`` (or run it here: :meth:`Companion.result`), set ``res.accuracy``
    (the record, or None when the estimate could not be made) and return the run's ``accuracy``
    warnings."""
    samples, info = companion.result(res.wall_time, run_here, cancel)
    if samples is None:
        res.accuracy = None
        what = f"the companion run ({info['integrator']}, {companion.plan.description}) ended {info['status']}"
        return [not_made(f"{what}: {info['message']}" if info["message"] else what)]
    try:
        errors = compare(samples_of(res), samples, companion.plan.factor)
    except ValueError as e:
        res.accuracy = None
        return [not_made(str(e))]
    rec = record(res, errors, companion.plan, info, length_scale)
    res.accuracy = rec
    return gate(rec, errors, res, companion.plan.hint, length_scale)


# ----------------------------------------------------------------------------- display
def largest_load_errors(rec: dict) -> tuple[float, float]:
    """(largest force error [N], largest torque error [N m]) over the joints and drivers of
    ``rec``; the torque error is 0 where no joint or driver carries a torque (round-off only:
    peak torques below 1e-9 x the largest peak force x 1 m)."""
    forces = [j["force_error_N"] for j in rec["joints"].values()]
    torques = [j["torque_error_Nm"] for j in rec["joints"].values()]
    peaks = {"N": [j["peak_force_N"] for j in rec["joints"].values()], "N m": []}
    peaks["N m"] = [j["peak_torque_Nm"] for j in rec["joints"].values()]
    for d in rec["drivers"].values():
        (torques if d["unit"] == "N m" else forces).append(d["effort_error"])
        peaks[d["unit"]].append(d["peak_effort"])
    carries_torque = max(peaks["N m"], default=0.0) > 1e-9 * max(peaks["N"], default=0.0)
    return max(forces, default=0.0), max(torques, default=0.0) if carries_torque else 0.0


def describe(rec: dict | None, why_none: str = "") -> str:
    """One sentence for the CLI, the report and the GUI: the estimated errors and how they were
    estimated, or ``why_none`` there is no estimate
    (:func:`why_no_estimate`)."""
    if rec is None:
        return why_none or "not estimated"
    force, torque = largest_load_errors(rec)
    loads = f"joint loads +-{force:.3g} N" + (f", +-{torque:.3g} N m" if torque > 0.0 else "")
    how = f", estimated by {rec['description']}"
    return (
        f"positions +-{rec['position_error_m'] * 1e3:.3g} mm, angles +-{rec['angle_error_rad']:.3g} rad, {loads}{how}"
    )


def why_no_estimate(summary: dict) -> str:
    """Why a run (its summary.json as a dict) has no accuracy record."""
    if summary.get("status") in ("failed", "cancelled"):
        return f"not estimated (the run {summary['status']})"
    if any(w.get("kind") == "accuracy" for w in summary.get("warnings", ())):
        return "no estimate could be made (see the accuracy warning)"
    return "not estimated (switched off: --no-accuracy, settings.accuracy false or MBD_ACCURACY=off)"


def run_line(res) -> str:
    """:func:`describe` of a Results."""
    summary = {"status": res.status, "warnings": [w.to_dict() for w in res.warnings]}
    return describe(res.accuracy, why_no_estimate(summary))
