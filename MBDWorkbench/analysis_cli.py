"""CLI subcommands of the mechanism analyses (registered by cli.build_parser):

    analyze MODEL            mobility, redundancy and relaxation report (--json)
    kinematics MODEL         kinematic analysis (+ inverse dynamics) -> results directory
    inverse-dynamics MODEL   the same, printing the driver efforts
    statics MODEL            static equilibrium with the drivers held -> results directory
    ankle-export [MODEL]     actuator-to-foot maps of the parallel ankle for controllers

Exit codes as cli.py: 0 completed, 2 bad input (also a results folder that may not be
written: checked and locked before anything is computed), 3 completed with warnings, 4 failed
(an analysis stopped, e.g. at a singular configuration; its samples so far are written),
5 cancelled (SIGINT/SIGTERM: the samples so far are written), 70 internal error.
"""

from __future__ import annotations

import argparse
import json
import os

from .cli_common import (
    NO_LIMITS_HELP,
    RELAX_HELP,
    Progress,
    cancel_on_signals,
    exit_code,
    load_model,
    out_dir,
    relaxed,
    report_stopped_run,
    status_lines,
)
from .solver.errors import ModelError, SimulationError
from .solver.model.catalog import DRIVERS
from .solver.tolerances import RANK_TOL, SINGULAR_TOL

OVERWRITE_HELP = "replace an existing results folder as a whole (refused otherwise)"


def fraction(text: str) -> float:
    """argparse type of a relative tolerance: a number in (0, 1)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must lie in (0, 1), got {text}")
    return value


def bounded(convert: type, low: float, high: float, low_open: bool = False, unit: str = ""):
    """argparse type: a finite number of type ``convert`` in [low, high] (``low_open``: (low, high])."""
    above = "above" if low_open else "at least"

    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"not {'an integer' if convert is int else 'a number'}: {text!r}"
            ) from None
        if not (low < value <= high if low_open else low <= value <= high):
            raise argparse.ArgumentTypeError(f"must be {above} {low:g} and at most {high:g}{unit}, got {text}")
        return value

    return parse


ANKLE_GRID = (2, 101)  # grid points per axis: 101^2 points (IK, Jacobians, fits) take ~5 s (201: 84 s at load 10)
ANKLE_DEGREE = (1, 8)  # polynomial degree of the fits: 45 terms at 8, beyond which the fits only chase rounding
ANKLE_RANGE = 1.5  # largest roll/pitch range [rad] (86 deg): the foot's mechanism folds long before


def cmd_analyze(args: argparse.Namespace) -> int:
    """Print the mobility/redundancy report of a model at its assembled start."""
    from .solver.analyses.mobility import mobility
    from .solver.model import validate_run

    model = load_model(args.model)
    validate_run(model, "analyze", args.t)
    rep = mobility(model, t=args.t, tol=args.tol)
    if args.json:
        print(json.dumps(rep.to_dict(), indent=2))
    else:
        print(rep.text())
    return 0


def _run_kinematics(args: argparse.Namespace, label: str):
    from .solver.analyses.kinematics import kinematic_analysis

    overrides = dict(t_end=args.t_end, output_step=args.output_step, check_limits=False if args.no_limits else None)
    model = relaxed(load_model(args.model, "kinematics", overrides), getattr(args, "relax", False))
    model.settings.check_limits = model.settings.check_limits and not args.no_limits
    out = out_dir(args.out, args.model, "_" + label)
    try:
        with cancel_on_signals() as cancelled:
            res = kinematic_analysis(
                model,
                t_end=args.t_end,
                output_step=args.output_step,
                out_dir=out,
                overwrite=args.overwrite,
                singular_tol=args.singular_tol,
                progress=None if args.quiet else Progress(),
                cancel=cancelled,
            )
    except SimulationError as e:
        return report_stopped_run(e, out)
    vpos, vang = res.max_violation()
    for line in status_lines(res.status, getattr(res, "warnings", [])):
        print(line)
    print(
        f"{model.name}: {label}, {len(res)} samples to t = {res.t[-1]:.6g} s, {res.steps} Newton "
        f"iterations; max violation {vpos:.3e} m, {vang:.3e} rad"
    )
    return res, out


def cmd_kinematics(args: argparse.Namespace) -> int:
    """Kinematic analysis of a fully driven mechanism."""
    out = _run_kinematics(args, "kinematics")
    if isinstance(out, int):
        return out
    print(f"results written to {out[1]}")
    return exit_code(out[0].status)


def cmd_inverse_dynamics(args: argparse.Namespace) -> int:
    """Kinematic analysis with inverse dynamics; prints peak driver efforts."""
    out = _run_kinematics(args, "inverse_dynamics")
    if isinstance(out, int):
        return out
    res, path = out
    for d, drv in zip(res.driver_names, res.model.drivers):
        e, p = res.driver_effort(d), res.driver_power(d)
        unit = DRIVERS[drv.type].effort_unit
        k = int(abs(e).argmax())
        print(
            f"driver '{d}': peak effort {e[k]:.6g} {unit} at t = {res.t[k]:.4g} s, "
            f"RMS {float((e**2).mean()) ** 0.5:.6g} {unit}, peak power {float(abs(p).max()):.6g} W"
        )
    print(f"results written to {path}")
    return exit_code(res.status)


def cmd_statics(args: argparse.Namespace) -> int:
    """Static equilibrium with the drivers held at their value at --t."""
    from .solver.analyses.kinematics import static_equilibrium

    model = relaxed(
        load_model(args.model, "statics", dict(check_limits=False if args.no_limits else None)),
        getattr(args, "relax", False),
    )
    model.settings.check_limits = model.settings.check_limits and not args.no_limits
    out = out_dir(args.out, args.model, "_statics")
    try:
        res = static_equilibrium(model, t=args.t, out_dir=out, overwrite=args.overwrite)
    except SimulationError as e:  # results that could not be written (disk full)
        return report_stopped_run(e, out)
    eq = res.equilibrium
    print(
        f"{model.name}: static equilibrium at t = {args.t:g} s after {eq['iterations']} Newton iterations, "
        f"force residual {eq['force_residual']:.3e}, {'stable' if eq['stable'] else 'UNSTABLE'}"
    )
    for a in res.assembly:
        if a["moved_m"] > 1e-9 or a["rotated_rad"] > 1e-9:
            print(f"  body '{a['body']}' moved {a['moved_m']:.4g} m and turned {a['rotated_rad']:.4g} rad")
    for d, drv in zip(res.driver_names, model.drivers):
        unit = DRIVERS[drv.type].effort_unit
        print(f"  driver '{d}' holds with {res.driver_effort(d)[0]:.6g} {unit}")
    print(f"results written to {out}")
    return 0


def cmd_ankle_export(args: argparse.Namespace) -> int:
    """Actuator-to-foot maps (tables, fits, Jacobians) of the parallel ankle."""
    from .showcase.ankle_model import export_actuator_maps, refuse_non_ankle

    out = args.out or "ankle_maps"
    if os.path.exists(out) and not os.path.isdir(out):
        raise ModelError("--out", f"'{out}' is a file, not a folder: choose a folder for the maps")
    terms = (args.degree + 1) * (args.degree + 2) // 2
    if args.n * args.n < 2 * terms:
        raise ModelError(
            "--n",
            f"a degree-{args.degree} fit has {terms} terms: it needs at least {2 * terms} grid points, "
            f"--n {args.n} gives {args.n * args.n} (raise --n or lower --degree)",
        )
    written = [n for n in ANKLE_FILES if os.path.exists(os.path.join(out, n))]
    if written and not args.overwrite:
        raise ModelError("--out", f"'{out}' already holds {', '.join(written)} (give --overwrite to replace them)")
    model = load_model(args.model, precheck=refuse_non_ankle) if args.model else None
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:  # a file on the way, no permission
        raise ModelError("--out", f"cannot make the folder '{out}': {exc.strerror or exc}") from None
    info = export_actuator_maps(
        out, model=model, roll_max=args.roll_max, pitch_max=args.pitch_max, n=args.n, degree=args.degree
    )
    print(
        f"{info['grid']['valid_points']} valid grid points; IK fit (degree {args.degree}) max error "
        f"{max(info['ik_fit']['max_error_rad']):.3g} rad, FK fit {max(info['fk_fit']['max_error_rad']):.3g} rad; "
        f"max cond(J) {info['max_condition_number']:.3g}"
    )
    if "solver_check" in info:
        c = info["solver_check"]
        print(
            f"solver check: closed-form IK vs solver assembly at {c['points']} points, "
            f"max difference {c['max_error_rad']:.3g} rad"
        )
    print(f"maps written to {out} ({', '.join(ANKLE_FILES)})")
    return 0


ANKLE_FILES = ("ankle_maps.json", "ankle_table.csv")  # what ankle-export writes into --out


def _kin_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="model .json or .FCStd")
    p.add_argument("--t-end", type=float, help="end time [s] (default: model settings)")
    p.add_argument("--output-step", type=float, help="output interval [s]")
    p.add_argument("--out", help="results directory")
    p.add_argument(
        "--singular-tol",
        type=fraction,
        default=SINGULAR_TOL,
        help="stop when sigma_min/sigma_max of the Jacobian falls below this (1/condition number)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--no-limits", action="store_true", help=NO_LIMITS_HELP)
    p.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    p.add_argument("--relax", action="store_true", help=RELAX_HELP)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the analysis subcommands to an argparse subparsers object."""
    p = sub.add_parser("analyze", help="mobility, redundant constraints and relaxations of a model")
    p.add_argument("model", help="model .json or .FCStd")
    p.add_argument("--t", type=float, default=0.0, help="time [s] at which the drivers are assembled")
    p.add_argument("--tol", type=fraction, default=RANK_TOL, help="relative rank tolerance, in (0, 1)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_analyze)
    p = sub.add_parser("kinematics", help="kinematic analysis of a fully driven mechanism")
    _kin_args(p)
    p.set_defaults(func=cmd_kinematics)
    p = sub.add_parser("inverse-dynamics", help="driver efforts and joint reactions along the kinematic analysis")
    _kin_args(p)
    p.set_defaults(func=cmd_inverse_dynamics)
    p = sub.add_parser("statics", help="static equilibrium under gravity, springs and loads, drivers held")
    p.add_argument("model", help="model .json or .FCStd")
    p.add_argument("--t", type=float, default=0.0, help="time [s] giving the held driver values and loads")
    p.add_argument("--out", help="results directory")
    p.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    p.add_argument("--no-limits", action="store_true", help=NO_LIMITS_HELP)
    p.set_defaults(func=cmd_statics)
    p = sub.add_parser("ankle-export", help="parallel-ankle actuator maps (IK/FK tables, fits, Jacobians)")
    p.add_argument("model", nargs="?", help="ankle model (examples/ankle.json layout); default geometry if omitted")
    p.add_argument("--out", help="output directory (default: ankle_maps)")
    p.add_argument("--overwrite", action="store_true", help="replace the maps already in --out")
    angle = bounded(float, 0.0, ANKLE_RANGE, low_open=True, unit=" rad")
    p.add_argument("--roll-max", type=angle, default=0.35, help=f"roll range +/- [rad], in (0, {ANKLE_RANGE}]")
    p.add_argument("--pitch-max", type=angle, default=0.35, help=f"pitch range +/- [rad], in (0, {ANKLE_RANGE}]")
    p.add_argument(
        "--n", type=bounded(int, *ANKLE_GRID), default=15, help="grid points per axis, %d to %d" % ANKLE_GRID
    )
    p.add_argument(
        "--degree",
        type=bounded(int, *ANKLE_DEGREE),
        default=3,
        help="polynomial degree of the fits, %d to %d" % ANKLE_DEGREE,
    )
    p.set_defaults(func=cmd_ankle_export)
