"""Every integrator at its default settings on the IFToMM benchmark problems and a fast heavy top
(issue 31): the true error, the run's own estimate, the status, wall and CPU time.

Problems (examples/*.json at their own t_end and output_step, every other setting the default):
A01 simple pendulum (10 s; the statement runs 2000 s), A02 N four-bar with N = 2 (10 s), A03
Andrews' squeezer (0.03 s), A04 Bricard (10 s), A05 stiff flyball governor (10 s), the heavy top
(2 s). True error, by the definition of the estimate (``Results.accuracy``): the largest over the
output times and the moving bodies of |r - r_ref| of the body's CoG [m], and the largest rotation
angle between the body's orientation and the reference's [rad]. References, independent of the
solver where we have one:

- A01: the 1-DoF pendulum ODE (tests/oracles/pendulum.py, DOP853 rtol 1e-12);
- A02: the exact one-DoF reduction (tests/oracles/n_four_bar.py, DOP853 rtol 1e-12);
- A03: [HW]'s seven-angle equations (tests/oracles/andrews.py, DOP853 rtol 1e-12, checked against
  [HW]'s values at 0.03 s);
- heavy top: the Euler-angle equations (tests/oracles/heavy_top.py, DOP853 rtol 1e-12);
- A04, A05: a reference run of another integrator at tight tolerance: radau at rtol 1e-11,
  atol 1e-13 (REFERENCE below).

The estimate column reads ``res.accuracy["position_error_m"]`` where runs carry one, else "-".
A run that fails is reported with the time it reached and its message; its errors are over the
samples it reached.

Run: /usr/bin/python3 bench/accuracy.py [--problems a01 a03] [--integrators galpha cros] [--render]
Writes bench/results/accuracy.{md,json}.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "examples"))

from make_iftomm import TOP  # noqa: E402
from oracles import andrews, heavy_top, n_four_bar  # noqa: E402
from oracles.pendulum import pendulum_ode_solution  # noqa: E402

from bench.results_page import commit  # noqa: E402
from MBDWorkbench.solver import load, simulate  # noqa: E402
from MBDWorkbench.solver.errors import ModelError, SimulationError  # noqa: E402
from MBDWorkbench.solver.integrators import names  # noqa: E402

RESULTS = os.path.join(ROOT, "bench", "results")
PROBLEMS = {
    "a01": "iftomm_a01_pendulum",
    "a02": "iftomm_a02_four_bar",
    "a03": "iftomm_a03_andrews",
    "a04": "bricard",
    "a05": "iftomm_a05_flyball",
    "top": "heavy_top",
}
T_END = {"a04": 10.0}  # bricard.json's own t_end is 10 s as well; the others: the file's
REFERENCE = dict(integrator="radau", rtol=1e-11, atol=1e-13)
TOLERANCE_M = 1e-3  # IFToMM's "high precision" position error


def model(problem: str):
    m = load(os.path.join(ROOT, "examples", PROBLEMS[problem] + ".json"))
    m.settings.step = m.settings.rtol = None  # each integrator's own defaults (bricard.json gives h = 1 ms)
    return m


def defaults(problem: str) -> dict:
    """The settings a run takes from the file: t_end and output_step; the rest are the defaults."""
    from MBDWorkbench.solver.model.schema import Settings

    s, d = model(problem).settings, Settings()
    keep = {"t_end": T_END.get(problem, s.t_end), "output_step": s.output_step}
    return {k: getattr(d, k) for k in ("step", "rtol", "atol", "rho_inf")} | keep


def rotation_angle(Ra: np.ndarray, Rb: np.ndarray) -> np.ndarray:
    """Angle [rad] of Ra^T Rb, shape (K,)."""
    tr = np.einsum("kij,kij->k", Ra, Rb)
    return np.arccos(np.clip((tr - 1) / 2, -1.0, 1.0))


def rot_z(angle: np.ndarray) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    R = np.zeros((len(angle), 3, 3))
    R[:, 0, 0], R[:, 0, 1], R[:, 1, 0], R[:, 1, 1], R[:, 2, 2] = c, -s, s, c, 1.0
    return R


class Oracle:
    """Reference CoG positions [m] (K, B, 3) and rotations (K, B, 3, 3) or None, per body, at the
    output times of a run; by closed form / minimal coordinates or a reference run."""

    def __init__(self, problem: str, t: np.ndarray) -> None:
        self.problem, self.wall, self.t = problem, 0.0, np.asarray(t, float)
        getattr(self, "_" + problem)(np.asarray(t, float))

    def _a01(self, t):
        sol = pendulum_ode_solution(math.pi / 2, t, m=1.0, L=1.0, g=9.81, Jc=0.0)
        self.r = np.stack([np.sin(sol.theta), -np.cos(sol.theta), 0 * t], axis=1)[:, None]
        self.R = None  # a point mass has no orientation

    def _a02(self, t):
        theta, _ = n_four_bar.crank_angle(t, n=2)
        c, s, z = np.cos(theta), np.sin(theta), 0 * t
        cranks = [np.stack([i + 0.5 * c, 0.5 * s, z], axis=1) for i in range(3)]
        couplers = [np.stack([i + c + 0.5, s, z], axis=1) for i in range(2)]
        self.r = np.stack(cranks + couplers, axis=1)
        turn = rot_z(theta)
        self.R = np.stack([turn] * 3 + [rot_z(0 * t)] * 2, axis=1)

    def _a03(self, t):
        xy = andrews.cog_positions(t)
        self.r = np.concatenate([xy, np.zeros(xy.shape[:2] + (1,))], axis=2)
        self.R = np.stack([rot_z(a) for a in andrews.body_angles(t).T], axis=1)

    def _top(self, t):
        r, R = heavy_top.solution(t, TOP["m"], TOP["radius"], TOP["stem"], TOP["tilt"], TOP["spin"])
        self.r, self.R = r[:, None], R[:, None]

    def _reference_run(self, t):
        started = time.perf_counter()
        res = simulate(model(self.problem), accuracy=False, **(defaults(self.problem) | REFERENCE))
        self.wall = time.perf_counter() - started
        assert np.allclose(res.t, t), "the reference run's output times differ"
        self.r = np.stack([res.position(b) for b in res.body_names], axis=1)
        self.R = np.stack([res.rotation(b) for b in res.body_names], axis=1)

    _a04 = _a05 = _reference_run

    def errors(self, res) -> tuple[float, float | None]:
        """(largest CoG position error [m], largest angle error [rad] or None) over the samples
        the run reached."""
        n = len(res.t)
        assert np.allclose(res.t, self.t[:n]), "the run's output times differ from the reference's"
        r = np.stack([res.position(b) for b in res.body_names], axis=1)
        pos = float(np.linalg.norm(r - self.r[:n], axis=2).max())
        if self.R is None:
            return pos, None
        R = np.stack([res.rotation(b) for b in res.body_names], axis=1)
        ang = max(float(rotation_angle(R[:, b], self.R[:n, b]).max()) for b in range(R.shape[1]))
        return pos, ang


def measure(problem: str, integrator: str, oracle: Oracle) -> dict:
    row = dict(problem=problem, integrator=integrator)
    settings = defaults(problem) | {"integrator": integrator}
    try:
        simulate(model(problem), **(settings | {"t_end": min(settings["t_end"], 0.01)}))  # compile first
    except ModelError as e:
        return dict(row, refused=str(e)[:160])
    except SimulationError:
        pass
    started, cpu = time.perf_counter(), time.process_time()
    message = None
    try:
        res = simulate(model(problem), **settings)
    except SimulationError as e:
        res, message = e.results, str(e)[:200]
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    pos, ang = oracle.errors(res)
    accuracy = getattr(res, "accuracy", None)
    estimate = accuracy.get("position_error_m") if isinstance(accuracy, dict) else None
    return dict(
        row,
        status=res.status,
        warnings=sorted({w.kind for w in res.warnings}),
        message=message,
        t_reached=float(res.t[-1]),
        t_end=settings["t_end"],
        wall_s=wall,
        cpu_s=cpu,
        steps=int(res.steps),
        position_error_m=pos,
        angle_error_rad=ang,
        estimate_m=estimate,
    )


def fmt(x, spec: str = ".1e") -> str:
    return "-" if x is None else format(x, spec)


def table_lines(rows: list) -> list:
    lines = [
        "| problem | integrator | true error [m] | angle error [rad] | estimate [m] | status | wall [s] | CPU [s] "
        "| steps |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "refused" in r:
            lines.append(
                f"| {r['problem']} | {r['integrator']} | - | - | - | refused: {r['refused'][:70]} | - | - | - |"
            )
            continue
        status = r["status"] + (f" ({', '.join(r['warnings'])})" if r["warnings"] else "")
        status += " (former-defaults run: same settings)" if r.get("former") else ""
        if r["t_reached"] < r["t_end"] - 1e-9:
            status += f", stopped at t = {r['t_reached']:g} s: {(r['message'] or '')[:90]}"
        if r["status"] == "failed":  # errors of a blown-up state say nothing
            r = dict(r, position_error_m=None, angle_error_rad=None)
        over = " **>1e-3**" if (r["position_error_m"] or 0.0) > TOLERANCE_M else ""
        lines.append(
            f"| {r['problem']} | {r['integrator']} | {fmt(r['position_error_m'])}{over} | "
            f"{fmt(r['angle_error_rad'])} | {fmt(r['estimate_m'])} | {status} | {r['wall_s']:.2f} | "
            f"{r['cpu_s']:.2f} | {r['steps']} |"
        )
    return lines


FORMER = os.path.join(RESULTS, "accuracy_former_defaults.json")  # the same bench before issue 31's defaults


def former_lines(rows: list) -> list:
    """The rows whose step or rtol changed with issue 31 (cros h 1e-3 -> 1e-4 s, galpha rtol 1e-6 -> 1e-8,
    every fixed-step integrator on A03: h = t_end / 1000), against the same rows at the former defaults."""
    if not os.path.exists(FORMER):
        return []
    with open(FORMER) as f:
        before = {(r["problem"], r["integrator"]): r for r in json.load(f)["rows"] if "refused" not in r}
    out = [
        "## Cost against the former defaults (cros h = 1e-3 s, galpha rtol 1e-6, every step at most 1e-3 s)",
        "",
        f"{os.path.basename(FORMER)}: the same bench on the solver before the change (same machine, same load).",
        "",
        "| problem | integrator | true error before -> now [m] | CPU before -> now [s] | CPU ratio "
        "| steps before -> now |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        b = before.get((r["problem"], r["integrator"]))
        if b is None or "refused" in r or b["steps"] == r["steps"]:
            continue
        out.append(
            f"| {r['problem']} | {r['integrator']} | {fmt(b['position_error_m'])} -> {fmt(r['position_error_m'])} | "
            f"{b['cpu_s']:.2f} -> {r['cpu_s']:.2f} | {r['cpu_s'] / max(b['cpu_s'], 1e-9):.1f} | "
            f"{b['steps']} -> {r['steps']} |"
        )
    return out + [""]


def write_markdown(data: dict) -> None:
    lines = [
        "# Accuracy at default settings: IFToMM problems and a heavy top (bench/accuracy.py)",
        "",
        __doc__.split("\n\n")[1].replace("\n", " "),
        "",
        __doc__.split("\n\n")[2],
        "",
        "True error: largest |r - r_ref| of a moving body's CoG over the output times (bold: above the IFToMM "
        "high-precision 1e-3 m); angle error: largest rotation angle from the reference orientation. Wall "
        "times on a shared machine (CPU time is the measure); the first short run of each pair compiles.",
        "",
    ]
    for meta in data["runs"]:
        lines.append(
            f"- {', '.join(meta['problems'])} x {', '.join(meta['integrators'])}: {meta['date']}, commit "
            f"{meta['commit']}, Python {meta['python']}, load average {meta['load_start']:.1f} -> "
            f"{meta['load_end']:.1f}."
        )
    done = {(r["problem"], r["integrator"]) for r in data["rows"]}
    missing = [f"{p} x {i}" for p in PROBLEMS for i in names() if (p, i) not in done]
    if missing:
        lines.append(f"- Not measured yet: {', '.join(missing)}.")
    refs = ", ".join(f"{p}: {w:.1f} s" for p, w in data.get("reference_wall_s", {}).items())
    lines += ["", f"Reference runs (wall): {refs or '-'}.", ""] + table_lines(data["rows"]) + [""]
    lines += former_lines(data["rows"])
    with open(os.path.join(RESULTS, "accuracy.md"), "w") as f:
        f.write("\n".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--problems", nargs="+", default=list(PROBLEMS), choices=list(PROBLEMS))
    ap.add_argument("--integrators", nargs="+", default=list(names()))
    ap.add_argument("--render", action="store_true", help="only rewrite the .md from the .json")
    ap.add_argument("--pairs", nargs="+", help="PROBLEM:INTEGRATOR,... instead of problems x integrators")
    args = ap.parse_args()
    pairs = {p: args.integrators for p in args.problems}
    if args.pairs:
        pairs = {p: (list(names()) if i == "all" else i.split(",")) for p, i in (a.split(":") for a in args.pairs)}
    path = os.path.join(RESULTS, "accuracy.json")
    saved = dict(runs=[], rows=[], reference_wall_s={})
    if os.path.exists(path):
        with open(path) as f:
            saved = json.load(f)
    if not args.render:
        meta = dict(
            problems=list(pairs),
            integrators=sorted({i for v in pairs.values() for i in v}),
            date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            commit=commit(),
            python=platform.python_version(),
            load_start=os.getloadavg()[0],
        )
        for problem in pairs:
            s = defaults(problem)
            oracle = Oracle(problem, np.arange(0.0, s["t_end"] + 0.5 * s["output_step"], s["output_step"]))
            if oracle.wall:
                saved["reference_wall_s"][problem] = oracle.wall
            for integrator in pairs[problem]:
                row = measure(problem, integrator, oracle)
                print(json.dumps(row), flush=True)
                key = (problem, integrator)
                saved["rows"] = [r for r in saved["rows"] if (r["problem"], r["integrator"]) != key] + [row]
            save(path, saved, meta)  # after each problem: a long run keeps what it measured
    write_markdown(saved)


def save(path: str, saved: dict, meta: dict) -> None:
    meta["load_end"] = os.getloadavg()[0]
    if meta not in saved["runs"]:
        saved["runs"].append(meta)
    order = {p: i for i, p in enumerate(PROBLEMS)}
    saved["rows"].sort(key=lambda r: (order[r["problem"]], list(names()).index(r["integrator"])))
    with open(path, "w") as f:
        json.dump(saved, f, indent=1)


if __name__ == "__main__":
    main()
