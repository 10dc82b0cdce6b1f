"""The report as a list of blocks (headings, paragraphs, tables, plots) built once from
ReportData and rendered by both the HTML and the PDF writer, so both hold the same content."""

from __future__ import annotations

import datetime
import math
import platform
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..solver import accuracy
from ..solver.analyses.mobility import dof_terms
from ..solver.model.catalog import BODY_KINDS, DRIVERS, FORCES, INTEGRATORS, JOINT_KINDS, JOINTS, NUMBER_KINDS
from ..solver.results.status import CANCELLED, COMPLETED, FAILED
from . import contacts, derived, plots
from .animation import View
from .blocks import Block, Heading, Para, Table, g, vec
from .data import ReportData
from .derived import CheckedPoint
from .event_blocks import contact_blocks, friction_blocks, stop_blocks

if TYPE_CHECKING:
    from ..solver.model import Force, Joint, Model
    from ..solver.model.catalog import ForceField

NOISE = 1e-6  # relative size of components printed as 0 in the peak table


def integrated_violation_text(summary: dict) -> str:
    """'' or, where the samples are the integrated state closed onto the constraints (cros), that state's
    largest violation (summary 'integrated_violation': [m, rad])."""
    iv = summary.get("integrated_violation")
    if not iv:
        return ""
    return f" in the samples; the integrated state before closing them: {g(iv[0], 3)} m, {g(iv[1], 3)} rad"


def versions() -> dict[str, str]:
    """Software versions of the report environment: name -> version string."""
    import matplotlib
    import numba
    import numpy
    import scipy

    from .. import __version__

    return {
        "MBD Workbench": __version__,
        "Python": platform.python_version(),
        "NumPy": numpy.__version__,
        "SciPy": scipy.__version__,
        "Numba": numba.__version__,
        "Matplotlib": matplotlib.__version__,
    }


# ----------------------------------------------------------------------------- build
def build(
    data: ReportData,
    points: Sequence[CheckedPoint] = (),
    view: View = None,
    files: Sequence[str] = (),
    sections: Sequence[Block] = (),
) -> list[Block]:
    """All blocks of the report. ``points``: [(label, body, local)] from
    derived.check_points; ``files``: names of the files written beside the report;
    ``sections``: further blocks placed before the list of files (the structural check)."""

    peaks = derived.peak_loads(data)
    mob = derived.mobility(data)
    warns = derived.warnings(data, mob)
    blocks = [Heading(f"Motion-study report: {data.model.name}" + stopped_suffix(data.summary), 0)]
    blocks += stopped_block(data.summary)
    blocks += title_block(data)
    blocks += key_results(data, peaks)
    blocks += warning_blocks(warns)
    blocks += model_blocks(data.model)
    blocks += relaxation_blocks(data.summary)
    blocks += mobility_blocks(mob)
    blocks += peak_blocks(peaks, mob, data.summary.get("accuracy"))
    blocks += coupling_blocks(derived.coupling_peaks(data))
    blocks += stop_blocks(data)
    blocks += friction_blocks(data)
    blocks += contact_blocks(contacts.contact_peaks(data), data.summary.get("accuracy"))
    blocks += plot_blocks(data, peaks, points, view)
    blocks += list(sections)
    blocks += file_blocks(files)
    return blocks


def stopped_suffix(summary: dict) -> str:
    """' (run failed)' / ' (run cancelled)' for a run that did not reach its end, else ''."""
    status = summary.get("status", COMPLETED)
    return f" (run {status})" if status in (FAILED, CANCELLED) else ""


def stopped_block(summary: dict) -> list[Block]:
    """For a failed or cancelled run, the first thing the report says: how far it got, why it
    stopped and how many warnings it has (listed under Warnings)."""
    status = summary.get("status", COMPLETED)
    if status not in (FAILED, CANCELLED):
        return []
    n = len(summary.get("warnings", []) or [])
    how = "FAILED" if status == FAILED else "was CANCELLED"
    return [
        Para(
            f"This run {how}: its results cover only t = {g(summary.get('t_start'))} to "
            f"{g(summary.get('t_end'))} s ({summary.get('samples')} output samples) of the "
            f"{g(summary.get('settings', {}).get('t_end'))} s asked for. {summary.get('message', '')}".rstrip()
            + (f" {n} warning{'s' if n != 1 else ''} (see Warnings)." if n else ""),
            "warning",
        )
    ]


def title_block(data: ReportData) -> list[Block]:
    s, st = data.summary, data.summary.get("settings", {})
    integ = st.get("integrator", s.get("integrator", "?"))
    rows = [["Model", data.model.name]]
    if data.model.description:
        rows.append(["Description", data.model.description])
    rows += [
        ["Report generated", datetime.datetime.now().strftime("%Y-%m-%d %H:%M")],
        ["Results", data.source],
        ["Status", derived.status_text(s)],
        ["Solver", formulation(integ)],
        ["Integrator", f"{integ}, " + settings_text(st, integ)],
        [
            "Simulated time",
            f"{g(s.get('t_start'))} to {g(s.get('t_end'))} s, {s.get('samples')} output samples, "
            f"{s.get('steps')} steps",
        ],
        ["Run time", f"{g(s.get('wall_time_s'), 3)} s (wall clock)"],
        [
            "Max constraint violation",
            f"{g(s.get('max_position_violation_m'), 3)} m, {g(s.get('max_angle_violation_rad'), 3)} rad"
            + integrated_violation_text(s),
        ],
        ["Relative energy drift", g(s.get("energy_drift"), 3)],
        ["Gravity", f"{vec(data.model.gravity)} m/s\u00b2"],
    ]
    moved = [a for a in s.get("assembly", []) if a.get("moved_m", 0) > 1e-9 or a.get("rotated_rad", 0) > 1e-9]
    if moved:
        rows.append(
            [
                "Initial assembly",
                "; ".join(f"'{a['body']}' moved {g(a['moved_m'], 3)} m, {g(a['rotated_rad'], 3)} rad" for a in moved),
            ]
        )
    sv = s.get("versions") or versions()
    rows.append(["Software", ", ".join(f"{k} {v}" for k, v in sv.items())])
    return [Table(["Item", "Value"], rows)]


def formulation(integ: str) -> str:
    """The equations integrator ``integ`` solves (from the integrator catalogue); '-' if unknown."""
    text = INTEGRATORS[integ].formulation if integ in INTEGRATORS else "-"
    return text[:1].upper() + text[1:]


def settings_text(st: dict, integ: str) -> str:
    """Integrator settings relevant to ``integ``."""
    parts = [
        f"step {g(st.get('step'))} s"
        if integ not in ("bdf", "radau", "lsoda")
        else f"max step {g(st.get('step'))} s, rtol {g(st.get('rtol'))}, atol {g(st.get('atol'))}",
        f"output every {g(st.get('output_step'))} s",
        f"Baumgarte \u03b1 = {g(st.get('baumgarte_alpha'))} 1/s, \u03b2 = {g(st.get('baumgarte_beta'))} 1/s",
        f"Tikhonov \u03b5 = {g(st.get('tikhonov_eps'))}",
        "quality gate: violation {} x model size and {} rad, energy {}".format(
            *(g(v) for v in derived.gate_tolerances({"settings": st}))
        ),
    ]
    if integ == "galpha":
        parts.append(f"\u03c1\u221e = {g(st.get('rho_inf'))}")
    if st.get("projection"):
        parts.append("projection after each output step")
    if st.get("assemble") is False:
        parts.append("no initial assembly")
    return ", ".join(parts)


def accuracy_text(summary: dict) -> str:
    """'Accuracy: positions ±x mm, joint loads ±y N, estimated by ...', or why there is no estimate."""
    rec = summary.get("accuracy")
    return "Accuracy: " + accuracy.describe(rec, accuracy.why_no_estimate(summary)).replace("+-", "\u00b1")


def key_results(data: ReportData, peaks: list[dict]) -> list[Block]:
    rows = []
    for d in derived.driver_peaks(data):
        rows.append(
            [
                f"driver '{d['driver']}'",
                f"max |effort| {g(abs(d['effort']))} {d['unit']} at t = {g(d['t_effort'])} s; "
                f"max |power| {g(abs(d['power']))} W at t = {g(d['t_power'])} s; "
                f"net energy delivered {g(d['energy'])} J",
            ]
        )
    if peaks:
        pf = max(peaks, key=lambda p: p["F_max"])
        pt = max(peaks, key=lambda p: p["T_max"])
        rows.append(["largest joint force", f"{g(pf['F_max'])} N in '{pf['joint']}' at t = {g(pf['t_F'])} s"])
        if pt["T_max"] > 0:
            rows.append(["largest joint torque", f"{g(pt['T_max'])} N m in '{pt['joint']}' at t = {g(pt['t_T'])} s"])
    table = [Table(["Quantity", "Value"], rows)] if rows else []
    return [Heading("Key results", 1), *table, Para(accuracy_text(data.summary))]


def warning_blocks(warns: list[tuple[str, str]]) -> list[Block]:
    out = [Heading("Warnings", 1)]
    if not warns:
        return out + [
            Para(
                "None: no redundant constraints, no singular configuration, constraint and energy drift within limits.",
                "note",
            )
        ]
    return out + [Para(f"{title}: {text}", "warning") for title, text in warns]


def relaxation_blocks(summary: dict) -> list[Block]:
    """The joints the run relaxed to make the model statically determinate (--relax)."""
    relaxed = summary.get("relaxations") or []
    if not relaxed:
        return []
    return [
        Heading("Relaxed joints", 2),
        Para(
            "Made statically determinate before the run (--relax / 'Make statically determinate'), so that every "
            "reaction is unique: " + "; ".join(relaxed) + ". The joint table above lists the relaxed types.",
            "note",
        ),
    ]


# ----------------------------------------------------------------------------- model
def model_blocks(model: Model) -> list[Block]:
    out = [Heading("Model", 1), Heading("Bodies", 2)]
    rows = []
    for b in model.bodies:
        I = np.asarray(b.inertia, float)
        rows.append(
            [
                b.name,
                "yes" if b.grounded else "",
                g(b.mass),
                vec(b.position),
                g(I[0, 0]),
                g(I[1, 1]),
                g(I[2, 2]),
                g(I[0, 1]),
                g(I[0, 2]),
                g(I[1, 2]),
            ]
        )
    out.append(
        Table(
            ["body", "fixed", "mass [kg]", "CoG [m]", "Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz"],
            rows,
            "CoG at the initial configuration (global); inertia about the CoG in the body frame [kg m\u00b2].",
            numeric=[2, 4, 5, 6, 7, 8, 9],
        )
    )
    out += [
        Heading("Joints", 2),
        Table(
            ["joint", "type", "body i", "body j", "eqs", "frame [m]"],
            [[j.name, j.type, j.body_i, j.body_j, str(JOINTS[j.type].equations), frame_text(j)] for j in model.joints],
            "Frames: global at the initial configuration, or local per body (about its "
            "CoG, body frame). Reactions are reported in the frame carried by body i.",
            numeric=[4],
        ),
    ]
    if model.drivers:
        rows = [[d.name, d.type, d.joint, profile_text(d.profile), effort_text(DRIVERS[d.type])] for d in model.drivers]
        short = [[*r[:3], profile_text(d.profile, LONG_VALUE), r[4]] for r, d in zip(rows, model.drivers)]
        out += [
            Heading("Drivers", 2),
            Table(["driver", "type", "joint", "profile", "applies"], rows, driver_note(model), pdf_rows=short),
        ]
    out += [Heading("Springs, dampers and applied loads", 2)]
    if model.forces:
        out.append(
            Table(
                ["name", "type", "acts on", "parameters", "applies"],
                [
                    [f.name, f.type.replace("_", " "), force_target(f), force_params(f), effort_text(FORCES[f.type])]
                    for f in model.forces
                ],
            )
        )
    else:
        out.append(Para("None (gravity only).", "note"))
    return out


def frame_text(j: Joint) -> str:
    if j.frame is not None:
        f = j.frame
        return f"origin {vec(f.origin)}, z {vec(f.z_axis, 3)}" + (f", x {vec(f.x_axis, 3)}" if f.x_axis else "")
    parts = []
    for side, f in (("i", j.frame_i), ("j", j.frame_j)):
        parts.append(f"{side}: {vec(f.origin)}, z {vec(f.z_axis, 3)}" + (f", x {vec(f.x_axis, 3)}" if f.x_axis else ""))
    return "local " + "; ".join(parts)


LONG_VALUE = 80  # [characters] a profile value longer than this is summarised in the PDF


def profile_text(p: str | float | dict, longest: int | None = None) -> str:
    """A driver profile as text; with ``longest``, a value of more characters is summarised
    (:func:`expression_summary`) and its full text left to the HTML report."""
    if isinstance(p, dict):
        items = []
        for k, v in p.items():
            if k == "type":
                continue
            if isinstance(v, list) and len(v) > 4:
                v = f"[{len(v)} values, {g(min(v))} to {g(max(v))}]"
            elif longest is not None and k != "description" and len(str(v)) > longest:
                v = expression_summary(str(v))
            items.append(f"{k} = {v}")
        return f"{p.get('type', '?')}: " + ", ".join(items)
    text = str(p)
    return expression_summary(text) if longest is not None and len(text) > longest else text


def expression_summary(text: str) -> str:
    """'21 terms in t, 1198 characters (full text in the HTML report)'."""
    variables = sorted(set(re.findall(r"\b(t|time)\b", text)))
    in_ = " in " + ", ".join(variables) if variables else ""
    return f"{top_level_terms(text)} terms{in_}, {len(text)} characters (full text in the HTML report)"


def top_level_terms(text: str) -> int:
    """Number of terms of ``text``'s outermost sum ('a*(b + c) - d': 2)."""
    flat = re.sub(r"(?<=\d)[eE][-+]?\d+", "", text)  # 1.5e-06: the exponent's sign is no operator
    depth, kept = 0, []
    for c in flat:
        if depth == 0 or c == ")" and depth == 1:
            kept.append(c)
        depth += (c == "(") - (c == ")" and depth > 0)
    return 1 + len(re.findall(r"(?<=[\w.)\]])\s*[-+]", "".join(kept)))


def driver_note(model: Model) -> str:
    """What the driver values of ``model``'s driver types are (catalog.DRIVERS)."""
    kinds = [DRIVERS[t] for t in dict.fromkeys(d.type for d in model.drivers)]
    values = "; ".join(f"{d.name}: {d.coordinate} [{d.unit}]" for d in kinds)
    efforts = " or ".join(dict.fromkeys(f"{d.effort} [{d.effort_unit}]" for d in kinds))
    return f"Driver value ({values}), zero at the initial configuration; it applies a {efforts} to body_j."


def effort_text(record) -> str:
    """'torque [N m]': what a force or driver type applies (its record's ``effort``)."""
    return f"{record.effort} [{record.effort_unit}]"


def force_target(f: Force) -> str:
    """What a force element acts on, from its record's fields: each body with its points
    ('ground at (0, 0, 1) – bob at (1, 0, 0)'), or its joint."""
    groups: list[str] = []
    for spec in FORCES[f.type].fields:
        value = getattr(f, spec.name)
        if spec.kind in BODY_KINDS:
            groups.append(str(value))
        elif spec.kind in JOINT_KINDS:
            groups.append(f"joint {value}")
        elif spec.kind == "point":
            shown = vec(value) if value is not None else spec.absent or "-"
            groups[-1:] = [f"{groups[-1]} at {shown}" if groups else shown]
    return " – ".join(groups)


def field_text(spec: ForceField, value: object) -> str | None:
    """A parameter of a force element ('k = 5 N/m', 'F = [0, 1, 0] N', 'global axes'); None
    for the fields force_target shows."""
    if spec.kind == "profiles3":
        return f"{spec.shown_as} = [{', '.join(profile_text(c) for c in value)}] {spec.unit}".rstrip()
    if spec.kind == "frame":
        return f"{value} axes"
    if spec.kind in NUMBER_KINDS:
        if value is None:
            return f"{spec.shown_as}: {spec.absent or 'default'}"
        return f"{spec.shown_as} = {g(value)} {spec.unit}".rstrip()
    return None


def force_params(f: Force) -> str:
    """A force element's parameters with their units, from its record's fields."""
    texts = (field_text(spec, getattr(f, spec.name)) for spec in FORCES[f.type].fields)
    return ", ".join(t for t in texts if t is not None)


# ----------------------------------------------------------------------------- mobility, peaks
def moving_text(n_moving: int, n_point_masses: int) -> str:
    """'4 (6 degrees of freedom each)' or '5: 3 rigid (6 degrees of freedom each), 2 point masses (3 each)'."""
    if not n_point_masses:
        return f"{n_moving} (6 degrees of freedom each)"
    rigid = n_moving - n_point_masses
    parts = ([f"{rigid} rigid (6 degrees of freedom each)"] if rigid else []) + [
        f"{n_point_masses} point mass{'es' if n_point_masses != 1 else ''} (3 each: positions only)"
    ]
    return f"{n_moving}: " + ", ".join(parts)


def mobility_blocks(mob: dict) -> list[Block]:
    rep, scan = mob["report"], mob["scan"]
    out = [Heading("Mobility and redundancy", 1)]
    ratio = float(np.min(scan.ratio)) if len(scan.ratio) else 1.0
    rows = [
        ["Moving bodies", moving_text(rep.n_moving, rep.n_point_masses)],
        [
            "Grubler count",
            f"{dof_terms(rep.n_moving, rep.n_point_masses)} - {rep.n_joint_equations} joint equations = "
            f"{rep.grubler}; "
            f"- {rep.n_driver_equations} driver equations = {rep.grubler_driven}",
        ],
        ["Joint equations", f"{rep.n_joint_equations}, independent {rep.rank_joints}, redundant {len(rep.redundant)}"],
        [
            "Degrees of freedom",
            f"{rep.mobility} without drivers, {rep.mobility_driven} left free by the "
            f"{rep.n_driver_equations} driver equation(s)",
        ],
        [
            "Singular configurations",
            (f"at t = {', '.join(g(t) for t in scan.times[:8])} s" if scan.times else "none")
            + f" ({len(scan.t)} samples checked; smallest singular-value "
            f"ratio {g(ratio, 3)})",
        ],
    ]
    if rep.relaxations:
        rows.append(
            [
                "Suggested relaxation",
                "; ".join(f"'{r.joint}' {r.old} \u2192 {r.new} (-{r.removes} equations)" for r in rep.relaxations)
                + ("" if not rep.relaxed_redundancy else f" ({rep.relaxed_redundancy} redundant would remain)"),
            ]
        )
    out.append(
        Table(
            ["Quantity", "Value"],
            rows,
            f"Rank of the constraint Jacobian at t = {g(rep.t)} s (first sample), made dimensionless with "
            f"the length scale {g(rep.length_scale, 3)} m, relative tolerance {rep.tol:g}.",
        )
    )
    if rep.redundant:
        out.append(
            Table(
                ["redundant equation", "load shared with"],
                [
                    [e["label"], ", ".join(n for n in mob["involved"].get(e["row"], []) if n != e["name"])]
                    for e in rep.redundant
                ],
                "Equations that repeat earlier ones (model order); one valid choice among equivalent ones.",
            )
        )
    return out + dropped_blocks(mob.get("dropped") or [])


def dropped_blocks(dropped: list) -> list[Block]:
    """The redundant equations a tolerant start left out (summary.json 'dropped_equations') and
    how far the CAD leaves them open."""
    if not dropped:
        return []
    rows = [
        [
            d["equation"],
            f"{g(d['misalignment_deg'], 3)} deg",
            f"{g(d['open'] * 1e3, 3)} mm" if d["unit"] == "m" else f"{g(math.degrees(d['open']), 3)} deg",
        ]
        for d in dropped
    ]
    return [
        Table(
            ["equation left out", "misaligned by", "open at the start"],
            rows,
            "Redundant equations the CAD geometry does not close: the run solved the independent ones only, "
            "and these carry no load (docs/solver.md, 'Tolerant assembly'). The rank above describes the model "
            "as drawn. Relax the joints (--relax / 'Make statically determinate') or fix the CAD.",
        )
    ]


def with_error(peak: float, rec: dict | None, joint: str, key: str) -> str:
    """A peak and its estimated error from the accuracy record ``rec`` ('12.3 ± 0.01')."""
    errors = (rec or {}).get("joints", {}).get(joint)
    return g(peak) if errors is None or not errors[key] else f"{g(peak)} \u00b1 {g(errors[key], 2)}"


def peak_blocks(peaks: list[dict], mob: dict, rec: dict | None = None) -> list[Block]:
    """The peak-load table, each peak with its estimated error (accuracy record ``rec``) if any."""
    affected = set(derived.redundant_joints(mob))
    rows = []
    for p in peaks:
        star = " *" if p["joint"] in affected else ""
        rows.append(
            [
                p["joint"] + star,
                p["type"],
                with_error(p["F_max"], rec, p["joint"], "force_error_N"),
                g(p["t_F"]),
                *components(p["F"], p["F_max"]),
                with_error(p["T_max"], rec, p["joint"], "torque_error_Nm"),
                g(p["t_T"]),
                *components(p["T"], p["T_max"]),
            ]
        )
    nm = "N\u00a0m"
    head = [
        "joint",
        "type",
        "max |F| [N]",
        "t [s]",
        "Fx [N]",
        "Fy [N]",
        "Fz [N]",
        f"max |T| [{nm}]",
        "t [s]",
        f"Tx [{nm}]",
        f"Ty [{nm}]",
        f"Tz [{nm}]",
    ]
    cap = (
        "Peak reaction force and torque (about the joint origin) that body i exerts on body j; components at the "
        f"time of the peak, in the joint frame carried by body i (below {NOISE:g} of the magnitude shown as 0)."
    )
    if rec is not None:
        cap += " \u00b1: the estimated error of the peak (accuracy estimate)."
    if affected:
        cap += " * reaction partly statically indeterminate (redundant constraints, minimum-norm split)."
    return [Heading("Peak loads", 1), Table(head, rows, cap, numeric=list(range(2, 12)))]


def coupling_blocks(couplings: list[dict]) -> list[Block]:
    """The coupler joints' peak coupling force (none: no block)."""
    if not couplings:
        return []
    rows = [[c["joint"], c["type"], g(c["force"]), g(c["t"])] for c in couplings]
    cap = (
        "Peak coupling force of each coupler joint (signed; the largest magnitude): tooth force along the pitch "
        "line (gear), belt force, force between rack and pinion, screw thrust. Signs: docs/model-format.md."
    )
    head = ["joint", "type", "peak coupling force [N]", "t [s]"]
    return [Heading("Coupling loads", 2), Table(head, rows, cap, numeric=[2, 3])]


def components(v: Sequence[float], magnitude: float) -> list[str]:
    """Vector components as text; those below NOISE x magnitude (round-off) shown as 0."""
    return [g(x) if abs(x) > NOISE * magnitude else "0" for x in v]


def plot_blocks(data: ReportData, peaks: list[dict], points: Sequence[CheckedPoint], view: View) -> list[Block]:
    out = [Heading("Plots", 1)]
    items = (
        plots.driver_plots(data, peaks)
        + plots.reaction_plots(data, peaks)
        + plots.event_plots(data)
        + plots.contact_plots(data)
        + plots.point_plots(data, points)
        + plots.violation_plots(data)
        + plots.energy_plot(data)
        + plots.motion_plot(data, view)
    )
    return out + items


def file_blocks(files: Sequence[str]) -> list[Block]:
    if not files:
        return []
    text = {
        "report.html": "this report (self-contained HTML)",
        "report.pdf": "this report (PDF)",
        "timeseries.json": "every time series of the run (keys are the CSV headers, with units)",
        "peak_loads.csv": "the peak-load table",
        "points.csv": "paths, velocities and accelerations of the points",
        "motion.gif": "stick-figure animation of the motion",
        "motion_strip.png": "stick-figure frames of the motion",
    }
    return [Heading("Files", 1), Table(["file", "content"], [[f, text.get(f, "")] for f in files])]
