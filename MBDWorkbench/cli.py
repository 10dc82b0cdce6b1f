"""Command-line interface. Each subcommand is a function ``cmd_NAME(args)`` registered in
``build_parser``; exit code 0 on success, 1 on a simulation failure, 2 on bad input."""
import argparse
import os
import sys
import time

from .solver.errors import ModelError, AssemblyError, SimulationError


def load_model(path):
    """Load a JSON model or a FreeCAD document (.FCStd) into a Model."""
    if not os.path.exists(path):
        raise ModelError(path, "file not found")
    if path.lower().endswith(".fcstd"):
        from .cad.document_model import model_from_document_file
        return model_from_document_file(path)
    from .solver.model import load
    return load(path)


class Progress:
    """A one-line progress indicator on stderr."""

    def __init__(self, stream=sys.stderr):
        self.stream = stream
        self.start = time.perf_counter()
        self.last = -1.0

    def __call__(self, t, t_end):
        now = time.perf_counter()
        if now - self.last < 0.2 and t < t_end:
            return
        self.last = now
        frac = min(1.0, t / t_end)
        bar = "#" * int(30 * frac)
        self.stream.write(f"\r[{bar:<30}] {100 * frac:5.1f}%  t = {t:.4g} s  ({now - self.start:.1f} s)")
        if t >= t_end:
            self.stream.write("\n")
        self.stream.flush()


def cmd_simulate(args):
    """Run a dynamic simulation and write the results directory."""
    from .solver.simulate import simulate
    model = load_model(args.model)
    out = args.out or os.path.splitext(os.path.basename(args.model))[0] + "_results"
    overrides = dict(t_end=args.t_end, step=args.step, output_step=args.output_step,
                     integrator=args.integrator, rtol=args.rtol, atol=args.atol,
                     baumgarte_alpha=args.alpha, baumgarte_beta=args.beta, tikhonov_eps=args.eps)
    if args.no_assemble:
        overrides["assemble"] = False
    if getattr(args, "projection", False):
        overrides["projection"] = True
    try:
        res = simulate(model, progress=None if args.quiet else Progress(), out_dir=out, **overrides)
    except SimulationError as e:
        return report_stopped_run(e, out)
    print_summary(res, out)
    if getattr(args, "report", None):
        from .report import write_report
        paths = write_report(res, args.report, overwrite=args.overwrite)
        print(f"report: {', '.join(str(p) for p in paths)}")
    return 0


def report_stopped_run(error, out):
    """Print why a run stopped and where its partial results are; returns exit code 1."""
    sys.stderr.write("\n")
    print(f"error: {error}", file=sys.stderr)
    if error.results is not None and len(error.results):
        print(f"results up to t = {error.results.t[-1]:.6g} s written to {out}", file=sys.stderr)
    return 1


def print_summary(res, out):
    """The run summary printed after a simulation."""
    vpos, vang = res.max_violation()
    print(f"{res.model.name}: {res.settings.integrator}, {res.steps} steps, wall time {res.wall_time:.3f} s, "
          f"{len(res)} samples to t = {res.t[-1]:.6g} s")
    print(f"max violation: {vpos:.3e} m, {vang:.3e} rad; energy drift (relative): {res.energy_drift():.3e}")
    moved = [a for a in res.assembly if a["moved_m"] > 1e-9 or a["rotated_rad"] > 1e-9]
    for a in moved:
        print(f"assembly moved body '{a['body']}' by {a['moved_m']:.3e} m and {a['rotated_rad']:.3e} rad")
    print(f"results written to {out}")


def build_parser():
    """The argparse parser with every subcommand."""
    p = argparse.ArgumentParser(prog="python3 -m MBDWorkbench",
                                description="Multibody dynamics solver of the MBD Workbench for FreeCAD")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("simulate", help="dynamic simulation of a JSON model or FreeCAD document")
    s.add_argument("model", help="model .json or .FCStd")
    s.add_argument("--t-end", type=float, help="end time [s] (default: model settings)")
    s.add_argument("--step", type=float, help="integration step [s] (max step for adaptive integrators)")
    s.add_argument("--output-step", type=float, help="output interval [s]")
    s.add_argument("--integrator", help="euler, symplectic_euler, rk4, bdf, radau, lsoda, cros, galpha")
    s.add_argument("--rtol", type=float)
    s.add_argument("--atol", type=float)
    s.add_argument("--alpha", type=float, help="Baumgarte alpha [1/s]")
    s.add_argument("--beta", type=float, help="Baumgarte beta [1/s]")
    s.add_argument("--eps", type=float, help="Tikhonov regularisation (dimensionless)")
    s.add_argument("--projection", action="store_true", help="project positions/velocities after each output step")
    s.add_argument("--no-assemble", action="store_true", help="skip the initial assembly")
    s.add_argument("--out", help="results directory (default: <model>_results)")
    s.add_argument("--report", help="also write the motion-study report into this directory")
    s.add_argument("--overwrite", action="store_true", help="replace an existing report in --report DIR")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_simulate)
    for register in _extensions():
        register(sub)
    return p


def _extensions():
    """Subcommand registrars of optional modules (analyses, export, ...)."""
    regs = []
    try:
        from .analysis_cli import register
        regs.append(register)
    except ImportError:
        pass
    return regs


def main(argv=None):
    """Entry point; returns the process exit code."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ModelError, AssemblyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
