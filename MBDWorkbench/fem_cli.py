"""`python3 -m MBDWorkbench fem-loads DOC.FCStd --body NAME [--time T | --worst N] --out COPY.FCStd`:
one body's motion loads into a FreeCAD FEM analysis solved by CalculiX (docs/fem.md)."""

from __future__ import annotations

import argparse
import math
import sys

from .analysis_cli import bounded
from .loads.nodal import MAX_MESH_ELEMENTS, MESH_SIZE_RANGE_MM, WORST_MAX, YOUNGS_MODULUS_RANGE_MPA
from .solver.results.status import EXIT_BAD_INPUT


def finite(text: str) -> float:
    """argparse type: a finite number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text}")
    return value


def positive_finite(text: str) -> float:
    """argparse type: a finite number above 0."""
    value = finite(text)
    if value <= 0.0:
        raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
    return value


def cmd_fem_loads(args: argparse.Namespace) -> int:
    """Build, solve and save the analysis into the copy; print the summary."""
    from .cad.errors import CadError
    from .cad.freecad_env import FreeCADNotFoundError, import_freecad

    try:
        import_freecad()
        from .cad.fem_loads import FemRequest, fem_loads, output_paths

        req = FemRequest(
            document=args.document,
            body=args.body,
            out=args.out,
            time=args.time,
            worst=args.worst,
            overwrite=args.overwrite,
            youngs_modulus=args.youngs_modulus,
            poisson=args.poisson,
            mesh_size=args.mesh_size,
            report=args.report,
            critical=args.critical,
            yield_strength=args.yield_strength,
        )
        summary = fem_loads(req)
    except (CadError, FreeCADNotFoundError) as exc:
        print("error: %s" % exc, file=sys.stderr)
        return EXIT_BAD_INPUT
    for warning in summary["warnings"]:
        print("warning: %s" % warning, file=sys.stderr)
    for case in summary["cases"]:
        print(
            "%s at t = %.4g s (%s): max von Mises %.4g MPa at %s mm, max displacement %.4g mm; support reactions "
            "%.2g of the largest load (%.4g N)%s"
            % (
                summary["body"],
                case["time_s"],
                case["load_case"],
                case["max_von_mises_MPa"],
                [round(v, 2) for v in case["max_von_mises_at_mm"]],
                case["max_displacement_mm"],
                case["support_reaction_relative"],
                case["largest_load_N"],
                "" if case["safety_factor"] is None else "; safety factor %.3g" % case["safety_factor"],
            )
        )
    paths = output_paths(args.out)
    print("wrote %s, %s, %s, %s" % (paths["document"], paths["summary"], paths["loads_csv"], paths["loads_json"]))
    if summary.get("report"):
        print("report: %s" % ", ".join(summary["report"]))
    return 0


def register(sub) -> None:
    """Add the fem-loads subcommand to the CLI's subparsers."""
    s = sub.add_parser("fem-loads", help="a body's motion loads into a FreeCAD FEM analysis solved by CalculiX")
    s.add_argument("document", help="the mechanism's .FCStd (never written)")
    s.add_argument("--body", required=True, help="body label, model name or part label")
    when = s.add_mutually_exclusive_group()
    when.add_argument("--time", type=finite, help="instant [s] (default: the largest joint reaction on the body)")
    when.add_argument(
        "--worst",
        type=bounded(int, 1, WORST_MAX),
        help="the N instants of largest joint reaction, one analysis each (1 to %d)" % WORST_MAX,
    )
    when.add_argument(
        "--critical",
        action="store_true",
        help="every critical instant: the peak of each joint's reaction and of the inertial force and moment",
    )
    s.add_argument("--out", required=True, help="the copy of the document to write the analysis into (.FCStd)")
    s.add_argument("--overwrite", action="store_true", help="replace --out and its summary files")
    s.add_argument(
        "--youngs-modulus",
        type=bounded(float, *YOUNGS_MODULUS_RANGE_MPA, unit=" MPa"),
        help="Young's modulus [MPa], %g to %g (default: the material card)" % YOUNGS_MODULUS_RANGE_MPA,
    )
    s.add_argument("--poisson", type=finite, help="Poisson's ratio (default: the material card)")
    s.add_argument(
        "--yield-strength", type=positive_finite, help="yield strength [MPa] for the safety factor (default: the card)"
    )
    s.add_argument(
        "--mesh-size",
        type=bounded(float, *MESH_SIZE_RANGE_MM, unit=" mm"),
        help="largest element size [mm] (default: half the part's thinnest side); refused when the mesh would "
        "have more than %d elements" % MAX_MESH_ELEMENTS,
    )
    s.add_argument("--report", help="also write the motion-study report, with its structural check, into this folder")
    s.set_defaults(func=cmd_fem_loads)
