"""The measurements behind the quality gate's default tolerances (docs/solver.md, "Run status
and quality gate"): every shipped example (examples/*.json) with every integrator at the
example's own settings. Per run: status and warning kinds, max position violation relative
to the model length scale L, max angular violation, energy error of conservative models,
mass-matrix ratio, smallest sampled singular-value ratio, wall time. Writes
bench/results/quality_gate.{md,json}.

Run: /usr/bin/python3 bench/quality_gate.py [--examples pendulum two_link] [--integrators rk4 bdf]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import platform
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from MBDWorkbench.solver import from_dict, load, quality, simulate  # noqa: E402
from MBDWorkbench.solver.errors import SimulationError  # noqa: E402
from MBDWorkbench.solver.integrators import names  # noqa: E402
from MBDWorkbench.solver.model import Settings  # noqa: E402
from MBDWorkbench.solver.system.assembly import length_scale  # noqa: E402


def singular_ratio(res) -> float:
    """Smallest sigma_min / sigma_max of the start's independent rows over the scanned samples."""
    start = quality.StartReport(length_scale=length_scale(res.system, res.Y[0]))
    start.independent = quality.constraint_rank(res.system, res.Y[0], float(res.t[0])).independent
    system = res.system
    if not system.m or not start.independent:
        return float("nan")
    from MBDWorkbench.solver.system.assembly import scaling

    rs, cs = scaling(system, start.length_scale)
    out = []
    for k in quality.scan_samples(len(res)):
        J = system.constraint_jacobian(float(res.t[k]), res.Y[k])[1] * rs[:, None] * cs[None, :]
        s = np.linalg.svd(J[start.independent], compute_uv=False)
        out.append(s[-1] / s[0])
    return float(min(out))


def measure(path: str, integrator: str) -> dict:
    model = load(path)
    started = time.perf_counter()
    try:
        res, error = simulate(model, integrator=integrator), ""
    except SimulationError as e:
        res, error = e.results, str(e)
    wall = time.perf_counter() - started
    L = length_scale(res.system, res.Y[0])
    vpos, vang = res.max_violation()
    if res.integrated_violation is not None:  # cros: the state behind its samples (they are closed onto the joints)
        vpos, vang = max(vpos, res.integrated_violation[0]), max(vang, res.integrated_violation[1])
    conservative = quality.is_conservative(model)
    return dict(
        model=os.path.basename(path),
        integrator=integrator,
        status=res.status,
        warnings=sorted({w.kind for w in res.warnings}),
        t_end=float(res.t[-1]),
        L=L,
        violation_rel=vpos / L,
        violation_angle=vang,
        conservative=conservative,
        energy_error=quality.energy_error(res)[0] if conservative else None,
        mass_ratio=quality.mass_matrix_ratio(res.system, L)[0],
        singular_ratio=singular_ratio(res),
        wall_s=wall,
        error=error[:160],
    )


def hanging_bob(rod_mass: float) -> dict:
    """A 1 kg bob (CoG 1 m from the pivot) fixed to a light rod pinned to the ground: the light
    rod carries the bob's load, the worst case for a mass ratio (its acceleration is the small
    difference of two joint loads of the bob's size divided by its own mass)."""
    m = rod_mass
    frame = {"z_axis": [0, 1, 0], "x_axis": [1, 0, 0]}
    return {
        "name": "hanging_bob",
        "gravity": [0, 0, -9.81],
        "bodies": [
            {"name": "rod", "mass": m, "inertia": [m * 1e-4, m / 12, m / 12], "position": [0.5, 0, 0]},
            {"name": "bob", "mass": 1.0, "inertia": [4e-5] * 3, "position": [1.0, 0, 0]},
        ],
        "joints": [
            {
                "name": "pivot",
                "type": "revolute",
                "body_i": "ground",
                "body_j": "rod",
                "frame": {"origin": [0, 0, 0], **frame},
            },
            {
                "name": "glue",
                "type": "fixed",
                "body_i": "rod",
                "body_j": "bob",
                "frame": {"origin": [1, 0, 0], **frame},
            },
        ],
        "settings": {"t_end": 2.0, "step": 1e-3, "output_step": 0.01},
    }


def compound_pendulum(rod_mass: float, t: np.ndarray) -> np.ndarray:
    """Bob CoG height z [m] of the rigid rod + bob about the pivot (scipy, rtol 1e-12)."""
    from scipy.integrate import solve_ivp

    inertia = 1.0 + 4e-5 + rod_mass / 3
    moment = 9.81 * (1.0 + 0.5 * rod_mass)
    sol = solve_ivp(
        lambda _t, y: [y[1], moment / inertia * np.cos(y[0])],
        (0, float(t[-1])),
        [0, 0],
        rtol=1e-12,
        atol=1e-12,
        dense_output=True,
    )
    return -np.sin(sol.sol(t)[0])


def ill_scaled_rows(integrators=("rk4", "galpha")) -> list[dict]:
    """The hanging bob with rod masses 1e-2 .. 1e-12 kg (the model's lower limit, limits.RANGES): mass
    ratio, status, warnings and the error of the bob's height against the compound pendulum."""
    rows = []
    for integrator in integrators:
        for rod_mass in (1e-2, 1e-6, 1e-8, 1e-10, 1e-12):
            model = from_dict(hanging_bob(rod_mass))
            try:
                res = simulate(model, integrator=integrator)
            except SimulationError as e:
                res = e.results
            L = length_scale(res.system, res.Y[0])
            z = res.position("bob")[:, 2]
            rows.append(
                dict(
                    integrator=integrator,
                    rod_mass=rod_mass,
                    mass_ratio=quality.mass_matrix_ratio(res.system, L)[0],
                    status=res.status,
                    warnings=sorted({w.kind for w in res.warnings}),
                    t_end=float(res.t[-1]),
                    z_error=float(np.abs(z - compound_pendulum(rod_mass, res.t)).max()),
                )
            )
            r = rows[-1]
            print(
                f"hanging bob {integrator} {rod_mass:g} {r['mass_ratio']:.1e} {r['status']} {r['z_error']:.2e}",
                flush=True,
            )
    return rows


def _g(x) -> str:
    return "-" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:.2e}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", nargs="*", help="example names (default: all examples/*.json)")
    ap.add_argument("--integrators", nargs="*", default=list(names()))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    args = ap.parse_args()
    paths = sorted(glob.glob(os.path.join(ROOT, "examples", "*.json")))
    if args.examples:
        paths = [p for p in paths if os.path.splitext(os.path.basename(p))[0] in args.examples]
    rows = []
    for path in paths:
        for integrator in args.integrators:
            rows.append(measure(path, integrator))
            r = rows[-1]
            print(
                f"{r['model']:22s} {integrator:16s} {r['status']:24s} {r['warnings']} {r['wall_s']:.1f} s", flush=True
            )
    hanging = ill_scaled_rows() if not args.examples else []
    s = Settings()
    meta = dict(
        violation_tol=s.violation_tol,
        violation_angle_tol=s.violation_angle_tol,
        energy_tol=s.energy_tol,
        python=platform.python_version(),
        cpus=os.cpu_count(),
        date=time.strftime("%Y-%m-%d"),
    )
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "quality_gate.json"), "w") as f:
        json.dump(dict(meta=meta, rows=rows, hanging_bob=hanging), f, indent=2)
    with open(os.path.join(args.out, "quality_gate.md"), "w") as f:
        f.write("# Quality gate: every example with every integrator at the example's settings\n\n")
        f.write(f"{meta}\n\n")
        f.write(
            "Violations: of the integrated state (for cros the state behind its samples, which are closed "
            "onto the joints).\n\n"
        )
        f.write(
            "| example | integrator | status | warnings | t reached [s] | violation / L | angle [rad] | "
            "energy error | mass ratio | min sigma ratio | wall [s] |\n"
        )
        f.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            f.write(
                f"| {r['model']} | {r['integrator']} | {r['status']} | {', '.join(r['warnings']) or '-'} | "
                f"{r['t_end']:g} | {_g(r['violation_rel'])} | {_g(r['violation_angle'])} | {_g(r['energy_error'])} | "
                f"{_g(r['mass_ratio'])} | {_g(r['singular_ratio'])} | {r['wall_s']:.1f} |\n"
            )
        if hanging:
            f.write(
                "\n## Ill-scaled masses: a 1 kg bob fixed to a light rod pinned to the ground (2 s)\n\n"
                "| integrator | rod mass [kg] | mass ratio | status | warnings | t reached [s] | bob height error [m] |"
                "\n|---|---|---|---|---|---|---|\n"
            )
            for r in hanging:
                f.write(
                    f"| {r['integrator']} | {r['rod_mass']:g} | {r['mass_ratio']:.1e} | {r['status']} | "
                    f"{', '.join(r['warnings']) or '-'} | {r['t_end']:g} | {r['z_error']:.2e} |\n"
                )
        failed = [r for r in rows if r["error"]]
        if failed:
            f.write("\nStopped runs:\n\n")
            for r in failed:
                f.write(f"- {r['model']} {r['integrator']}: {r['error']}\n")


if __name__ == "__main__":
    main()
