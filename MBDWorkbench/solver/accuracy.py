"""The accuracy estimate of a run (issue 31; docs/solver.md, "Accuracy estimate").

*Companion* runs of the same model solve it again: started with the main run in the background,
a forked child of the run's process (:class:`Forked`) or, where forking is unsafe (FreeCAD, other
threads), a new process (:mod:`.companion`); or in the run's process after it (one CPU, a cold
Numba cache, a short run where a new process would cost more: :class:`Companion`). They are
compared with the run at the output times:

- fixed-step integrators (euler, symplectic_euler, rk4, rk4_tree, cros, of order p): a companion
  takes steps r = 2 times longer and Richardson's formula gives the main run's error
  err(h) ~ |y_h - y_rh| / (r^p - 1) (``richardson_2h``), checked by a second one at 4h
  (:func:`outside_asymptotic_range`); when the check fails, a companion fails, or an output
  interval holds a single step, a companion at half steps gives
  err(h) ~ |y_h - y_h/r| r^p / (r^p - 1) (``richardson_half``); with contact pairs a companion at h/2
  from the start, err(h) ~ |y_h - y_h/r| / sqrt(1 - 1/r^2) (``contact_half``, :mod:`.contact_accuracy`:
  impacts are not in the asymptotic range at 2h);
- adaptive ones (bdf, radau, lsoda, galpha): the companion runs with rtol and atol divided by TIGHTEN
  (:data:`TIGHTER` for some; bdf's and radau's with half the step cap) and est = |y - y_tight|
  (``tight_companion``; scaled by :data:`REDUCTION` for galpha).

The estimate (:func:`compare`) is the largest difference over the output times of: each moving
body's CoG [m], its orientation (rotation angle between the two [rad]), each joint's reaction
force [N] and torque [N m] and each driver's effort; with the difference of each contact pair's
peak normal force [N] and of the contact onsets' times [s] (when both runs touched alike);
:func:`gate` turns the estimates above the run's tolerances into ``accuracy`` warnings. Pure
numerics: no FreeCAD.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace

import numpy as np

from . import contact_accuracy as contacts
from .errors import ModelError, SimulationError
from .model.catalog import DRIVERS
from .numerics import cold_start
from .results.status import RunWarning

ENV = "MBD_ACCURACY"  # "off": no companion run whatever the settings (test suites, batch scripts)
ORDERS = {"euler": 1, "symplectic_euler": 1, "rk4": 4, "rk4_tree": 4, "cros": 2}  # fixed-step: order p
TIGHTEN = 100.0  # adaptive integrators: the companion's rtol and atol are the run's / TIGHTEN (TIGHTER for some)
# lsoda's error need not fall with its tolerance (IFToMM A05: 5.4e-6 m at rtol 1e-6, 1.7e-5 m at 1e-8, 3.6e-6 m at
# 1e-9, 1.1e-7 m at 1e-10) while its cost hardly grows (1.6, 1.8, 2.0, 1.7 s CPU): its companion is 1e4 x tighter
TIGHTER = {"lsoda": 1e4, "galpha": 10.0, "bdf": 1e4, "radau": 1e4}
CAP_HALVED = ("bdf", "radau")  # also half the step cap (max_step): docs/solver.md, "Why bdf's and radau's companion"
# galpha's error falls about this many times per tenfold tighter rtol (IFToMM A01 2.5, A02 2.2 from 1e-7 to 1e-8): its
# 10 x tighter companion's difference is divided by 1 - 1 / REDUCTION (a 100 x one cost 1.4-2.2 x the run's CPU)
REDUCTION = {"galpha": 2.3}
POLL_S = 0.05  # wall time [s] between two looks at the companion while waiting for it
# a companion expected to take less wall time [s] runs in the run's process after it, not in a process of its own
IN_PROCESS_S = 1.0  # (starting one and importing the solver take about 1 s of CPU, 2-4 s of wall time under load)
# the 2h estimate is trusted when it is within these factors of the estimate by the observed order (below: an
# underestimate, fall back to h/2; above: on the safe side, cros's positions on the pendulum converge at order 3: 2.3)
ASYMPTOTIC = (0.5, 3.0)
# the 4h check records about this many output times (a multiple of output_step apart): it needs positions only
CHECK_OUTPUTS = 50  # and the work at each output time weighs as much as the steps in short runs
ROUND_OFF_M = 1e-12  # position differences [m] below this are round-off: no asymptotic range to check


def enabled(settings) -> bool:
    """Whether a run with ``settings`` makes an estimate: settings.accuracy, unless the
    environment variable MBD_ACCURACY is ``off``."""
    return bool(settings.accuracy) and os.environ.get(ENV, "").strip().lower() not in ("off", "0", "false", "no")


@dataclass(frozen=True)
class Plan:
    """How a run's error is estimated: the companion's setting ``overrides``, the ``factor``
    turning |main - companion| into the main run's error, the ``method`` name and a sentence.
    Fixed-step plans at 2h also carry a ``check`` companion (4h) whose difference to the 2h one
    should be ``expected_ratio`` times the 2h one's to the run (the asymptotic range), and the
    ``fallback`` plan (h/2) used when it is not or when a companion fails."""

    method: str
    description: str
    overrides: dict
    factor: float
    hint: str
    cost: float = 1.0  # the companion's work relative to the run's (about)
    check: dict | None = None
    expected_ratio: float = 0.0
    fallback: Plan | None = None

    def legs(self) -> list[dict]:
        """The setting overrides of each companion run: the companion, then the check if any."""
        return [self.overrides] + ([self.check] if self.check else [])


def output_count(settings) -> int:
    """Output intervals [-] of a run: t_end divided evenly, about output_step apart (simulate._output_times)."""
    return max(1, int(round(settings.t_end / settings.output_step)))


def steps_per_output(settings, step: float) -> int:
    """Steps [-] a fixed-step integrator takes per output interval (t_end / :func:`output_count`)
    with ``step`` [s] (the step is shortened so that output times are hit: simulate._Pace)."""
    return max(1, math.ceil(settings.t_end / output_count(settings) / step - 1e-9))


def check_output_step(settings) -> float:
    """Output step [s] of the 4h check: every k-th output time of the run, k the smallest divisor of
    the run's output count leaving at most :data:`CHECK_OUTPUTS` (all of them when that leaves
    fewer than 10)."""
    n = output_count(settings)
    k = next(k for k in range(max(1, math.ceil(n / CHECK_OUTPUTS)), n + 1) if n % k == 0)
    return settings.t_end / (n // k if n // k >= 10 else n)


def plan(settings) -> Plan:
    """The companion run and the error formula for ``settings``' integrator."""
    settings = settings.resolved()  # the integrator's own step and rtol where they are None
    name, h = settings.integrator, float(settings.step)
    order = ORDERS.get(name)
    if order is None:
        return tight_plan(settings)
    n = steps_per_output(settings, h)
    hint = f"halve --step (the error of {name}, order {order}, falls about {2**order:g} times)"
    half = half_plan(settings, h, order, hint)
    if n < 2:
        return half
    n_long = steps_per_output(settings, 2.0 * h)
    r = n / n_long
    check, expected = None, 0.0
    interval, check_output = settings.t_end / output_count(settings), check_output_step(settings)
    n_check = max(1, math.ceil(check_output / (4.0 * h) - 1e-9))
    h1, h2, h4 = interval / n, interval / n_long, check_output / n_check  # effective steps [s]
    if h4 > h2 * (1.0 + 1e-9):  # errors C h^p in the asymptotic range
        check, expected = (
            dict(step=4.0 * h, output_step=check_output),
            (h4**order - h2**order) / (h2**order - h1**order),
        )
    return Plan(
        "richardson_2h",
        f"Richardson estimate from a companion run at twice the step ({interval / n_long:g} s), order {order}",
        dict(step=2.0 * h),
        1.0 / (r**order - 1.0),
        hint,
        1.0 / r + (h1 / h4 if check else 0.0),
        check,
        expected,
        half,
    )


def plan_for(model) -> Plan:
    """:func:`plan` for ``model``'s settings; a fixed-step run of a model with contact pairs is
    compared with a companion at h/2 (:mod:`.contact_accuracy`: impacts)."""
    settings = model.settings.resolved()
    if not getattr(model, "contacts", None) or settings.integrator not in ORDERS:
        return plan(model.settings)
    hint = "halve --step (with contact pairs the error falls at least 2 times per halving)"
    p = half_plan(settings, float(settings.step), 1, hint)
    return replace(
        p,
        method="contact_half",
        factor=contacts.half_step_factor(p.cost),
        description=contacts.describe_plan(p.overrides["step"]),
    )


def half_plan(settings, h: float, order: int, hint: str) -> Plan:
    """Richardson from the finer side: a companion at h/2 (twice the run's cost), err(h) ~
    |y_h - y_h/r| r^p / (r^p - 1); in the asymptotic range or not, it stays within a factor 2 of
    the error as long as the companion's error is well below the run's."""
    h = min(h, settings.t_end / output_count(settings))  # a step beyond the output interval is shortened to it
    r = steps_per_output(settings, 0.5 * h) / steps_per_output(settings, h)
    return Plan(
        "richardson_half",
        f"Richardson estimate from a companion run at half the step ({0.5 * h:g} s), order {order}",
        dict(step=0.5 * h),
        r**order / (r**order - 1.0),
        hint,
        r,
    )


def tight_plan(settings) -> Plan:
    """Adaptive integrators: the difference to a companion with rtol and atol TIGHTEN times tighter
    (:data:`TIGHTER` for some, whose difference is scaled by :data:`REDUCTION`), bdf's and radau's
    also with half the largest step (:data:`CAP_HALVED`)."""
    factor = TIGHTER.get(settings.integrator, TIGHTEN)
    rtol, atol = settings.rtol / factor, settings.atol / factor
    overrides, halved = dict(rtol=rtol, atol=atol), settings.integrator in CAP_HALVED
    what = f"difference to a companion run with {factor:g} times tighter rtol and atol ({rtol:g}, {atol:g})"
    hint = f"tighten --rtol and --atol (e.g. --rtol {settings.rtol / TIGHTEN:g} --atol {settings.atol / TIGHTEN:g})"
    if halved:
        overrides["step"] = 0.5 * float(settings.step)
        what += f" and half the largest step ({overrides['step']:g} s)"
        hint += f" and lower --step, {settings.integrator}'s largest step (now {float(settings.step):g} s)"
    reduction = REDUCTION.get(settings.integrator)
    if reduction:
        what += f", divided by 1 - 1/{reduction:g} (the error falls about {reduction:g} times per tenfold rtol)"
    return Plan(
        "tight_companion",
        what,
        overrides,
        1.0 / (1.0 - 1.0 / reduction) if reduction else 1.0,
        hint,
        3.0,
    )


def outside_asymptotic_range(plan_: Plan, main: dict, first: dict, check: dict) -> str:
    """Why the Richardson estimate of ``plan_`` (2h) is not to be trusted, from the samples of the
    run (``main``), its 2h companion (``first``) and 4h check: '' when the ratio rho of their
    largest position differences |y_2h - y_4h| / |y_h - y_2h| gives an estimate by the observed
    order, |y_h - y_2h| / (rho - 1), and the formula's (expected ratio E) are close enough:
    (rho - 1) / (E - 1) within :data:`ASYMPTOTIC`, or when the differences are at round-off level
    (below :data:`ROUND_OFF_M`)."""
    main, first = at_times(main, check["t"]), at_times(first, check["t"])
    d1, d2 = largest_distance(main, first), largest_distance(first, check)
    if d2 < ROUND_OFF_M:
        return ""
    rho = d2 / d1 if d1 > 0.0 else math.inf
    agreement = (rho - 1.0) / (plan_.expected_ratio - 1.0)
    if ASYMPTOTIC[0] <= agreement <= ASYMPTOTIC[1]:
        return ""
    return (
        f"the companions at twice and four times the step were outside the asymptotic range "
        f"(|y_2h - y_4h| / |y_h - y_2h| = {rho:.3g}, {plan_.expected_ratio:.3g} expected)"
    )


def at_times(samples: dict, t: np.ndarray) -> dict:
    """The positions and times of ``samples`` at the times ``t`` [s] (a subset of its own)."""
    k = np.clip(np.searchsorted(samples["t"], t - 1e-9), 0, len(samples["t"]) - 1)
    if not np.allclose(samples["t"][k], t, atol=1e-9):
        raise ValueError("the check's output times are not among the run's")
    return dict(t=samples["t"][k], position=samples["position"][k])


def largest_distance(a: dict, b: dict) -> float:
    """Largest distance [m] between the CoG positions of two samples (:func:`samples_of`)."""
    return float(np.linalg.norm(a["position"] - b["position"], axis=-1).max(initial=0.0))


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
    return dict(
        t=np.array(res.t), position=position, rotation=rotation, force=force, torque=torque, effort=effort,
        **contacts.contact_samples(res),
    )  # fmt: skip


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
        contact_peak=contacts.peak_force_errors(main, companion, factor),
        onset_time=contacts.onset_time_error(main, companion, factor),
    )


def record(res, errors: dict, plan_: Plan, companion: dict, length_scale: float, main: dict | None = None) -> dict:
    """The ``accuracy`` record of summary.json (docs/results-format.md) of the Results ``res``
    (``main``: its :func:`samples_of`, for the contact pairs' peaks)."""
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
        "contacts": contacts.contacts_record(list(res.contact_names), main or {}, errors["contact_peak"]),
        "onset_time_error_s": None if errors["onset_time"] is None else float(errors["onset_time"]),
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
    load fraction times :func:`load_scale`, times the length scale for a torque), each contact
    pair's peak normal force (the load fraction times the larger of that and the largest contact
    peak). None when every estimate is within its tolerance."""
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
    pairs = rec.get("contacts", {})
    contact_tol = max([force_tol] + [tol["load_fraction"] * c["peak_normal_force_N"] for c in pairs.values()])
    for name, c in pairs.items():
        if c["peak_force_error_N"] is not None and c["peak_force_error_N"] > contact_tol:
            found.append(
                _warning(f"contact '{name}' peak normal force", c["peak_force_error_N"], contact_tol, "N", hint, ())
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


class Forked:
    """A companion in a forked child of this process (multiprocessing's fork context): it starts
    with the kernels and the model this process has loaded, no interpreter start, no import, no
    JSON; the Popen-like face of :class:`Companion`'s job."""

    def __init__(self, target) -> None:
        self.process = multiprocessing.get_context("fork").Process(target=quiet, args=(target,), daemon=True)
        self.process.start()

    @property
    def returncode(self) -> int | None:
        return self.process.exitcode

    def poll(self) -> int | None:
        return self.process.exitcode  # None while it runs

    def kill(self) -> None:
        self.process.kill()

    def wait(self) -> None:
        self.process.join()


def quiet(target) -> None:
    """Run ``target()`` in a forked child with its output sent to /dev/null (the run's console
    and log are the parent's)."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    target()


def can_fork() -> bool:
    """Whether the companion may be forked from this process: a platform with fork, a single
    thread (a fork copies no other thread, and their locks may be held: Dask workers run tasks in
    threads), not a daemonic multiprocessing worker (it may have no children), and no FreeCAD or
    Qt loaded (their event loops and GL contexts are not fork-safe: the GUI spawns a process)."""
    if "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() != 1:
        return False
    if multiprocessing.current_process().daemon:
        return False
    return not any(name in sys.modules for name in ("FreeCAD", "FreeCADGui", "PySide", "PySide2", "PySide6"))


def solve_legs(folder: str, runs: list) -> list[dict]:
    """Run each of ``runs`` (callables returning Results) and write its samples to
    ``folder``/samples<i>.npz; outcome.json gets and this returns their [{status, message}]."""
    outcomes = []
    for i, run in enumerate(runs):
        try:
            res = run()
        except (ModelError, SimulationError) as e:
            outcomes.append({"status": getattr(getattr(e, "results", None), "status", "failed"), "message": str(e)})
            continue
        except Exception as e:  # noqa: BLE001 - reported to the main run as the reason of no estimate
            outcomes.append({"status": "failed", "message": f"{type(e).__name__}: {e}"})
            continue
        np.savez(os.path.join(folder, f"samples{i}.npz"), **samples_of(res))
        outcomes.append({"status": res.status, "message": res.message})
    with open(os.path.join(folder, "outcome.json"), "w") as f:
        json.dump(outcomes, f)
    return outcomes


class Companion:
    """The companion runs of ``model`` (settings already applied): :meth:`Plan.legs`. With
    ``in_process`` False they start now in the background: in a forked child (:class:`Forked`)
    when ``solve(model, overrides)`` is given and :func:`can_fork`, else in a new process
    (``python -m MBDWorkbench.solver.companion``, like the cold start's cache filler: works from
    FreeCAD, whose executable is not a Python); :meth:`result` runs them in this process after
    the run instead when ``in_process`` (one CPU, or a cold cache: an interpreted start goes on
    interpreted, an in-process compile is not repeated) or when the run was so short that a new
    process would cost more (:data:`IN_PROCESS_S`)."""

    def __init__(self, model, in_process: bool = False, solve=None) -> None:
        self.plan = plan_for(model)
        self.integrator = model.settings.integrator
        self.base = dict(vars(model.settings), accuracy=False)
        self.job: subprocess.Popen | Forked | None = None
        self.folder = ""
        self.started = 0.0
        if not in_process:
            try:
                self.start(model, solve)
            except (OSError, TypeError, ValueError):  # not JSON (a profile given as a Python object), no process
                self.stop()
                self.job = None

    def start(self, model, solve=None) -> None:
        """Start the background process."""
        self.folder = tempfile.mkdtemp(prefix="mbd_accuracy_")
        legs = self.plan.legs()
        self.started = time.perf_counter()
        if solve is not None and can_fork():
            runs = [lambda o=o: solve(model, o) for o in legs]
            self.job = Forked(lambda: solve_legs(self.folder, runs))
            return
        data = model.to_dict()
        data["settings"] = self.base
        with open(os.path.join(self.folder, "model.json"), "w") as f:
            json.dump(data, f, allow_nan=False)
        with open(os.path.join(self.folder, "legs.json"), "w") as f:
            json.dump(legs, f)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
        env[cold_start.MODE_ENV], env[ENV] = "compile", "off"
        self.job = subprocess.Popen(
            [cold_start.python_executable(), "-m", "MBDWorkbench.solver.companion", self.folder],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def result(self, run_wall: float, run_here, cancel=None) -> list[tuple[dict | None, dict]]:
        """Per companion run (:meth:`Plan.legs`): (samples or None, {integrator, step, rtol,
        wall_s, status, message}): from the background, or from ``run_here(overrides)`` (a
        simulate call returning Results) in this process when there is none or when the run
        took ``run_wall`` [s] short enough that a new process costs more than the companion
        here (the process is then stopped). ``cancel()`` returning True stops it (status
        ``cancelled``)."""
        legs = self.plan.legs()
        spawned = not isinstance(self.job, Forked)
        if self.job is None or (spawned and self.job.poll() is None and run_wall * self.plan.cost < IN_PROCESS_S):
            self.stop()
            return self.here(run_here, legs)
        while self.job.poll() is None:
            if cancel is not None and cancel():
                self.stop()
                return [(None, self._info("cancelled", "the run was cancelled while the estimate was made", legs[0]))]
            time.sleep(POLL_S)
        try:
            with open(os.path.join(self.folder, "outcome.json")) as f:
                outcomes = json.load(f)
        except (OSError, ValueError):
            failed = {"status": "failed", "message": f"the companion process ended with code {self.job.returncode}"}
            outcomes = [failed] * len(legs)
        found = []
        for i, (outcome, overrides) in enumerate(zip(outcomes, legs)):
            samples = None
            if outcome["status"] in ("completed", "completed_with_warnings"):
                with np.load(os.path.join(self.folder, f"samples{i}.npz")) as z:
                    samples = {k: z[k] for k in z.files}
            found.append((samples, self._info(outcome["status"], outcome.get("message", ""), overrides)))
        self.stop()
        return found

    def here(self, run_here, legs: list[dict]) -> list[tuple[dict | None, dict]]:
        """:meth:`result` of the companion runs ``legs`` (setting overrides) made in this process."""
        found = []
        for overrides in legs:
            self.started = time.perf_counter()
            try:
                res = run_here(dict(overrides))
            except (ModelError, SimulationError) as e:
                status = getattr(getattr(e, "results", None), "status", "failed")
                found.append((None, self._info(status, str(e), overrides)))
                continue
            found.append((samples_of(res), self._info(res.status, res.message, overrides)))
        return found

    def _info(self, status: str, message: str, overrides: dict) -> dict:
        settings = dict(self.base, **overrides)
        adaptive = settings["integrator"] not in ORDERS
        return {
            "integrator": settings["integrator"],
            "step": None if adaptive else float(settings["step"]),
            "rtol": float(settings["rtol"]) if adaptive else None,
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
    """Wait for ``companion`` (or run it here: :meth:`Companion.result`), fall back to its plan's
    finer companion (h/2) when the 2h one failed or was outside the asymptotic range
    (:func:`outside_asymptotic_range`), set ``res.accuracy`` (the record, or None when the
    estimate could not be made) and return the run's ``accuracy`` warnings."""
    found = companion.result(res.wall_time, run_here, cancel)
    plan_, main = companion.plan, samples_of(res)
    why = "" if found[0][1]["status"] == "cancelled" else fallback_reason(plan_, main, found)
    if why:
        plan_ = replace(plan_.fallback, description=f"{plan_.fallback.description}, as {why}")
        found = companion.here(run_here, plan_.legs())
    samples, info = found[0]
    if samples is None:
        res.accuracy = None
        what = f"the companion run ({info['integrator']}, {plan_.description}) ended {info['status']}"
        return [not_made(f"{what}: {info['message']}" if info["message"] else what)]
    kind, why = contacts.sequence_difference(main, samples, list(res.contact_names))
    if kind == "grazing":
        res.accuracy = None
        return [not_made(why)]
    try:
        errors = compare(main, samples, plan_.factor)
    except ValueError as e:
        res.accuracy = None
        return [not_made(str(e))]
    if kind:
        errors["onset_time"] = None
        plan_ = replace(plan_, description=f"{plan_.description}; onset times not compared: {why}")
    rec = record(res, errors, plan_, info, length_scale, main)
    res.accuracy = rec
    return gate(rec, errors, res, plan_.hint, length_scale)


def fallback_reason(plan_: Plan, main: dict, found: list) -> str:
    """Why ``plan_``'s fallback is to be taken, given the companion runs ``found`` (:meth:`Companion.result`):
    '' when it has none or the estimate of ``plan_`` stands."""
    if plan_.fallback is None:
        return ""
    (first, info), *rest = found
    if first is None:
        return f"the one at twice the step ended {info['status']}"
    if not rest:
        return ""
    check, check_info = rest[0]
    if check is None:
        return f"the check at four times the step ended {check_info['status']}"
    try:
        return outside_asymptotic_range(plan_, main, first, check)
    except ValueError as e:
        return str(e)


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
    peaks, unresolved = contacts.peak_errors(rec)
    if peaks or unresolved:
        loads += f", contact peak forces +-{max(peaks, default=0.0):.3g} N"
        loads += " (impacts between output samples: not estimated)" if unresolved else ""
        if rec["onset_time_error_s"] is not None:
            loads += f", contact onset times +-{rec['onset_time_error_s']:.3g} s"
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
