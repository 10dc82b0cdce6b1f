"""Command-line interface. Each subcommand is a function ``cmd_NAME(args)`` registered in
``build_parser`` (the analyses in :mod:`.analysis_cli`). Exit codes (``solver.results.status``,
docs/solver.md): 0 completed, 2 bad input (invalid model or settings, no assembly, an
over-driven model refused), 3 completed with warnings, 4 failed, 5 cancelled (Ctrl-C), 70 an
unexpected internal error (its traceback is written to a log file in the temporary folder).
Shared helpers: :mod:`.cli_common`."""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import sys
import tempfile
import traceback

from .analysis_cli import register as register_analyses
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
    signals_handled,
    status_lines,
)
from .fem_cli import register as register_fem
from .solver import accuracy, integrators
from .solver.errors import AssemblyError, Cancelled, ModelError, SimulationError
from .solver.results.files import ResultsWriteError, ResultsWriter
from .solver.results.output_folder import OutputFolder, OutputTargetError
from .solver.results.results import Results
from .solver.results.status import CANCELLED, EXIT_BAD_INPUT, EXIT_CODES, EXIT_INTERNAL, FAILED
from .study.command import register as register_study


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run a dynamic simulation and write the results directory (and the report). Both folders
    are checked and locked before solving; SIGINT and SIGTERM cancel the run, whose samples so
    far are written (docs/results-format.md, "Writing results")."""
    from .solver.simulate import simulate

    no_limits = getattr(args, "no_limits", False)
    sizes = dict(
        t_end=args.t_end, step=args.step, output_step=args.output_step, check_limits=False if no_limits else None
    )
    model = relaxed(load_model(args.model, "simulate", sizes), getattr(args, "relax", False))
    refuse_unused_rho_inf(args.rho_inf, args.integrator or model.settings.integrator)
    out = out_dir(args.out, args.model, "_results")
    overrides = dict(
        t_end=args.t_end,
        step=args.step,
        output_step=args.output_step,
        integrator=args.integrator,
        rtol=args.rtol,
        atol=args.atol,
        baumgarte_alpha=args.alpha,
        baumgarte_beta=args.beta,
        tikhonov_eps=args.eps,
        rho_inf=args.rho_inf,
        violation_tol=args.violation_tol,
        violation_angle_tol=args.angle_tol,
        energy_tol=args.energy_tol,
    )
    if args.force:
        overrides["allow_overdriven"] = True
    if args.no_assemble:
        overrides["assemble"] = False
    if getattr(args, "projection", False):
        overrides["projection"] = True
    if getattr(args, "no_limits", False):
        overrides["check_limits"] = False
    if getattr(args, "no_accuracy", False):
        overrides["accuracy"] = False
    writer, report = open_targets(out, getattr(args, "report", None), args.overwrite)
    try:
        with cancel_on_signals() as cancelled:
            try:
                progress = None if args.quiet else Progress()
                res = simulate(
                    model,
                    progress=progress,
                    cancel=cancelled,
                    writer=writer,
                    interpret_while_compiling=True,
                    **overrides,
                )
            except SimulationError as e:
                code = report_stopped_run(e, out)
                if not isinstance(e, ResultsWriteError):  # the results folder holds this run's samples
                    write_run_report(e.results, report)
                return code
            except KeyboardInterrupt:  # a second signal: the samples so far are written all the same
                return report_stopped_run(Cancelled("interrupted"), out)
        print_summary(res, out)
        write_run_report(res, report)
        return exit_code(res.status)
    finally:  # nothing to do after a commit
        writer.abort()
        if report is not None:
            report.abort()


def write_run_report(res: Results | None, report: OutputFolder | None) -> None:
    """Write the report of ``res`` into the report folder (checked and locked before the run)
    and rename it into place. A failed or cancelled run gets its report too, saying so on its
    first page (docs/report.md); a run without any sample gets none."""
    if report is None or res is None or not len(res):
        return
    from .report import write_report

    written = write_report(res, report.temp)  # into the new folder, renamed into place below
    paths = [os.path.join(report.target, os.path.relpath(p, report.temp)) for p in written]
    report.commit()
    print(f"report: {', '.join(paths)}", file=sys.stderr if res.status in (FAILED, CANCELLED) else sys.stdout)


def open_targets(out: str, report: str | None, overwrite: bool) -> tuple[ResultsWriter, OutputFolder | None]:
    """The results writer of ``out`` and the report folder (None without ``--report``), both
    checked and locked before solving (OutputTargetError, exit code 2, if one may not be written)."""
    if report is not None:
        a, b = os.path.realpath(out), os.path.realpath(report)
        if a == b or a.startswith(b + os.sep) or b.startswith(a + os.sep):
            raise OutputTargetError(report, f"must be a folder apart from --out ({out}), neither inside the other")
    writer = ResultsWriter(out, overwrite)
    if report is None:
        return writer, None
    try:
        return writer, OutputFolder(report, overwrite, report_names(), "report")
    except BaseException:
        writer.abort()
        raise


def report_names() -> set[str]:
    """The names a report folder may hold to be replaced with --overwrite: what write_report writes."""
    from .report import report_files
    from .report.animation import have_pillow

    names = set(report_files(points=True, animation="png"))
    return names | set(report_files(points=True, animation="gif")) if have_pillow() else names


def rho_inf(text: str) -> float:
    """argparse type of --rho-inf: a number in [0, 1) (argparse names the option in its error)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"must lie in [0, 1), got {text} ({RHO_INF_ONE})")
    return value


RHO_INF_ONE = "1 leaves the index-3 multipliers' (-1)^n mode undamped and the step control then stalls"


def refuse_unused_rho_inf(value: float | None, integrator: str) -> None:
    """--rho-inf is the generalized-alpha integrator's parameter: given with another integrator it would be
    silently ignored, so it is refused (ModelError, exit 2)."""
    if value is not None and integrator != "galpha":
        raise ModelError(
            "settings.rho_inf",
            f"--rho-inf is the parameter of the galpha integrator; this run uses '{integrator}' "
            "(add --integrator galpha, or leave --rho-inf out)",
        )


def positive(text: str) -> float:
    """argparse type of the tolerances: a positive finite number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (value > 0.0 and value < float("inf")):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def print_summary(res: Results, out: str) -> None:
    """The run summary printed after a simulation: status, warnings, figures."""
    vpos, vang = res.max_violation()
    for line in status_lines(res.status, res.warnings):
        print(line)
    print(
        f"{res.model.name}: {res.settings.integrator}, {res.steps} steps, wall time {res.wall_time:.3f} s, "
        f"{len(res)} samples to t = {res.t[-1]:.6g} s"
    )
    print(f"max violation: {vpos:.3e} m, {vang:.3e} rad; energy drift (relative): {res.energy_drift():.3e}")
    print(f"accuracy: {accuracy.run_line(res)}")
    if res.integrated_violation is not None:  # cros: the samples are its state closed onto the constraints
        ipos, iang = res.integrated_violation
        print(f"integrated state before closing the samples: {ipos:.3e} m, {iang:.3e} rad")
    moved = [a for a in res.assembly if a["moved_m"] > 1e-9 or a["rotated_rad"] > 1e-9]
    for a in moved:
        print(f"assembly moved body '{a['body']}' by {a['moved_m']:.3e} m and {a['rotated_rad']:.3e} rad")
    print(f"results written to {out}")


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser with every subcommand."""
    p = argparse.ArgumentParser(
        prog="python3 -m MBDWorkbench", description="Multibody dynamics solver of the MBD Workbench for FreeCAD"
    )
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("simulate", help="dynamic simulation of a JSON model or FreeCAD document")
    s.add_argument("model", help="model .json or .FCStd")
    s.add_argument("--t-end", type=float, help="end time [s] (default: model settings)")
    s.add_argument(
        "--step",
        type=float,
        help="integration step [s] (max step for adaptive integrators; default: the model's, else the "
        "integrator's own, docs/solver.md)",
    )
    s.add_argument("--output-step", type=float, help="output interval [s]")
    s.add_argument("--integrator", help=", ".join(integrators.names()))
    s.add_argument("--rtol", type=float, help="relative tolerance (default: the model's, else the integrator's own)")
    s.add_argument("--atol", type=float)
    s.add_argument("--alpha", type=float, help="Baumgarte alpha [1/s]")
    s.add_argument("--beta", type=float, help="Baumgarte beta [1/s]")
    s.add_argument("--eps", type=float, help="Tikhonov regularisation (dimensionless)")
    s.add_argument(
        "--rho-inf",
        type=rho_inf,
        help="spectral radius at infinity of the generalized-alpha integrator (galpha only), in [0, 1) "
        "(default: model settings)",
    )
    s.add_argument("--projection", action="store_true", help="project positions/velocities after each output step")
    s.add_argument(
        "--violation-tol",
        type=positive,
        help="quality gate: position violation tolerance relative to the model size (default: model settings)",
    )
    s.add_argument("--angle-tol", type=positive, help="quality gate: angular violation tolerance [rad]")
    s.add_argument(
        "--energy-tol", type=positive, help="quality gate: relative energy drift tolerance of conservative models"
    )
    s.add_argument(
        "--force", action="store_true", help="run an over-driven model instead of refusing it (ends with a warning)"
    )
    s.add_argument("--no-assemble", action="store_true", help="skip the initial assembly")
    s.add_argument(
        "--no-accuracy",
        action="store_true",
        help="no accuracy estimate (it runs the model a second time, in a second process: docs/solver.md)",
    )
    s.add_argument("--relax", action="store_true", help=RELAX_HELP)
    s.add_argument("--no-limits", action="store_true", help=NO_LIMITS_HELP)
    s.add_argument("--out", help="results directory (default: <model>_results)")
    s.add_argument("--report", help="also write the motion-study report into this directory")
    s.add_argument(
        "--overwrite", action="store_true", help="replace an existing --out folder and --report folder, each as a whole"
    )
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_simulate)
    register_analyses(sub)
    register_study(sub)
    register_fem(sub)
    return p


# the commands whose whole run SIGINT/SIGTERM cancel with exit 5 (cli_common.signals_handled); the study and
# the FEM check keep Python's handlers (their worker processes and ccx must still end on SIGTERM)
SIGNALLED_COMMANDS = ("simulate", "kinematics", "inverse-dynamics", "statics")


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code (module docstring)."""
    args = build_parser().parse_args(argv)
    try:
        with signals_handled() if args.command in SIGNALLED_COMMANDS else contextlib.nullcontext():
            return args.func(args)
    except (ModelError, AssemblyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SimulationError as e:
        print(f"error: {e}", file=sys.stderr)
        return exit_code(FAILED if isinstance(e, ResultsWriteError) else getattr(e.results, "status", FAILED))
    except KeyboardInterrupt:
        print(f"\n{args.command}: cancelled (Ctrl-C)", file=sys.stderr)
        return EXIT_CODES[CANCELLED]
    except Exception as e:
        log = write_crash_log(args.command, sys.argv[1:] if argv is None else argv)
        what = " ".join(str(e).split())[:200]
        print(
            f"internal error in '{args.command}': {type(e).__name__}: {what} (a bug; traceback in {log})",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


def write_crash_log(command: str, argv: list[str]) -> str:
    """Write the current exception's traceback, the command's arguments ``argv`` and the
    versions to a new log file in the temporary folder; returns its path."""
    from . import __version__

    fd, path = tempfile.mkstemp(prefix=f"mbd_{command}_error_", suffix=".log", dir=tempfile.gettempdir())
    with os.fdopen(fd, "w") as f:
        now = datetime.datetime.now()
        f.write(f"MBD Workbench {__version__}, Python {sys.version.split()[0]}, {now:%Y-%m-%d %H:%M:%S}\n")
        f.write(f"command: python3 -m MBDWorkbench {' '.join(map(str, argv))}\n\n")
        f.write(traceback.format_exc())
    return path
