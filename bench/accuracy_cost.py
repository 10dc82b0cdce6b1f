"""The cost of the accuracy estimate (issue 31; docs/solver.md, "Accuracy estimate"): each example
with each integrator at the example's own settings, run without the estimate and with it (the
companion in a second process). Per run: wall time and CPU time (this process plus its waited-for
children, the companion) [s], their ratios, the estimate's method and figures, the load average
of the machine, and the wall ratio expected on a quiet 2-core machine from the CPU profile: (max(CPU
of the run without the estimate, CPU of the background companion) + CPU this process spent after
the run: an in-process companion, a fallback at h/2) / CPU of the run without it. A warm-up run
per (example, integrator) compiles first. Writes bench/results/accuracy_cost.{md,json}.

Run: /usr/bin/python3 bench/accuracy_cost.py [--examples pendulum two_link] [--integrators rk4 bdf]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from MBDWorkbench.solver import accuracy, load, simulate  # noqa: E402
from MBDWorkbench.solver.errors import SimulationError  # noqa: E402

EXAMPLES = ["pendulum", "two_link", "slider_crank", "spinning_top", "four_bar_spatial"]
INTEGRATORS = ["rk4", "euler", "symplectic_euler", "cros", "galpha", "bdf", "radau", "lsoda"]


def cpu_seconds() -> tuple[float, float]:
    """CPU time [s] (user + system) of this process and of its finished children (the companion)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def timed(model, integrator: str, estimate: bool, t_end: float | None = None) -> dict:
    """One run (``t_end`` [s]: None for the model's): wall and CPU time [s], status, the accuracy record."""
    wall, (own, kids) = time.perf_counter(), cpu_seconds()
    try:
        res = simulate(model, integrator=integrator, accuracy=estimate, t_end=t_end)
    except SimulationError as e:
        res = e.results
    wall, (own_after, kids_after) = time.perf_counter() - wall, cpu_seconds()
    return dict(
        wall_s=wall,
        cpu_s=own_after - own + kids_after - kids,
        cpu_self_s=own_after - own,
        cpu_companion_s=kids_after - kids,
        status=getattr(res, "status", "failed"),
        accuracy=getattr(res, "accuracy", None),
    )


def measure(name: str, integrator: str, t_end: float | None = None) -> dict:
    model = load(os.path.join(ROOT, "examples", name + ".json"))
    timed(model, integrator, False, model.settings.output_step)  # warm-up: compiles, loads the cache
    off, on = timed(model, integrator, False, t_end), timed(model, integrator, True, t_end)
    rec = on["accuracy"] or {}
    # on a quiet 2-core machine: the run and its background companion side by side, then what this process did
    # after the run (an in-process companion, a fallback at h/2, the comparison)
    quiet = max(off["cpu_s"], on["cpu_companion_s"]) + max(0.0, on["cpu_self_s"] - off["cpu_s"])
    return dict(
        example=name,
        integrator=integrator,
        t_end=t_end or model.settings.t_end,
        load_before=os.getloadavg()[0],
        wall_off_s=off["wall_s"],
        wall_on_s=on["wall_s"],
        cpu_off_s=off["cpu_s"],
        cpu_on_s=on["cpu_s"],
        wall_ratio=on["wall_s"] / max(off["wall_s"], 1e-9),
        cpu_ratio=on["cpu_s"] / max(off["cpu_s"], 1e-9),
        cpu_companion_s=on["cpu_companion_s"],
        quiet_wall_ratio=quiet / max(off["cpu_s"], 1e-9),
        status_off=off["status"],
        status_on=on["status"],
        method=rec.get("method"),
        position_error_m=rec.get("position_error_m"),
        companion_wall_s=(rec.get("companion") or {}).get("wall_s"),
    )


def table(rows: list[dict]) -> str:
    def f(x, fmt=".3g"):
        return "-" if x is None else format(x, fmt)

    lines = [
        "| example | integrator | t_end [s] | wall off [s] | wall on [s] | wall ratio | CPU off [s] | CPU on [s] | "
        "CPU ratio | CPU companion [s] | quiet wall ratio | method | est. position error [m] | status on | load avg |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['example']} | {r['integrator']} | {f(r['t_end'])} | {f(r['wall_off_s'])} | {f(r['wall_on_s'])} | "
            f"{f(r['wall_ratio'], '.2f')} | {f(r['cpu_off_s'])} | {f(r['cpu_on_s'])} | {f(r['cpu_ratio'], '.2f')} | "
            f"{f(r['cpu_companion_s'])} | {f(r['quiet_wall_ratio'], '.2f')} | "
            f"{r['method'] or '-'} | {f(r['position_error_m'])} | {r['status_on']} | {r['load_before']:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--examples", nargs="*", default=EXAMPLES)
    p.add_argument("--integrators", nargs="*", default=INTEGRATORS)
    p.add_argument("--t-end", type=float, help="end time [s] of every run (default: the example's)")
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "accuracy_cost"))
    p.add_argument("--render", action="store_true", help="only rewrite the .md from the .json")
    args = p.parse_args()
    if args.render:
        with open(args.out + ".json") as f:
            saved = json.load(f)
        write_markdown(args.out, saved["meta"], saved["rows"])
        return
    os.environ.pop(accuracy.ENV, None)
    rows = []
    for name in args.examples:
        for integrator in args.integrators:
            rows.append(measure(name, integrator, args.t_end))
            print(table(rows[-1:]).splitlines()[-1], flush=True)
    meta = dict(
        cpus=accuracy.cpus(),
        python=platform.python_version(),
        machine=platform.machine(),
        load_after=os.getloadavg(),
        date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    )
    with open(args.out + ".json", "w") as f:
        json.dump(dict(meta=meta, rows=rows), f, indent=1)
    write_markdown(args.out, meta, rows)


def write_markdown(out: str, meta: dict, rows: list[dict]) -> None:
    with open(out + ".md", "w") as f:
        f.write(
            "# Cost of the accuracy estimate\n\n"
            f"`bench/accuracy_cost.py`, {meta['date']}, {meta['cpus']} CPUs, load average after "
            f"{meta['load_after'][0]:.1f}. Each example at its own settings (t_end: see the table), "
            "without (`off`) and with (`on`) the estimate, after a warm-up run; CPU = this process + the "
            "companion (a forked child). **Measured on a loaded machine** (other jobs on the 2 cores: the "
            "`load avg` column), so the measured wall ratios are pessimistic; `quiet wall ratio` is the one "
            "expected on a quiet 2-core machine from the CPU profile: (max(CPU off, CPU companion) + CPU "
            "this process spent after the run) / CPU off.\n\n"
        )
        f.write(table(rows) + "\n")


if __name__ == "__main__":
    main()
