"""The quality gate of a run: what a user must know before trusting its reactions.

:func:`start_of_run` checks the assembled initial state before any step (rank of the constraint
Jacobian: redundant joint equations, over-driven or conflicting drivers; ill-scaled masses; profiles
that are not finite at the start); :func:`gate` checks the samples after the run, also the partial
samples of a failed or cancelled one (constraint violation, energy drift of conservative models,
near-singular configurations and rank changes at sampled output times). Each finding is a
:class:`~.status.RunWarning` with its time and the joints, drivers or bodies concerned; a run
with any warning ends ``completed_with_warnings`` (docs/solver.md, "Run status and quality gate").

Every decision is relative, so that units and the overall size of masses do not matter: position
violations are divided by the model's length scale ``L`` (:func:`.assembly.length_scale`: the
largest distance of a body CoG or fixed joint origin from their centroid), rank decisions are those of
:mod:`.scaled_rank` (the dimensionless Jacobian of :func:`.assembly.scaling`; the index-3
integrators decide with the same functions), the energy error is divided by the energy the
run exchanges, and the mass check compares masses with inertias divided by ``L^2``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import scipy.linalg

from .contact_checks import contact_warnings
from .errors import ModelError, SimulationError
from .model.catalog import FORCES, INTEGRATORS
from .model.joint_stops import STEPS_PER_CONTACT
from .model.profiles import compile_profile
from .results.status import OverdrivenError, RunWarning
from .system.assembly import length_scale
from .system.scaled_rank import (
    conditioning_of,
    independent_rows,
    is_large,
    jacobian_for_rank,
    relative_rank,
    relative_singular_values,
    relative_singular_values_of,
    sampled_rank_tolerances,
    scaled_jacobian,
)
from .tolerances import ENERGY_FLOOR, ILL_SCALED_RATIO, RANK_TOL, REPORT_NEAR_SINGULAR, SAMPLED_RANK_TOL

if TYPE_CHECKING:
    from .model.schema import Model, Settings
    from .results.results import Results
    from .system.system import System

NEAR_SINGULAR_ACCURACY = (
    "The motion through such positions is less accurate than elsewhere (an integrator's error control does not "
    "see it: radau at its defaults ends 3e-3 m off on IFToMM A02 after 10 s): confirm the run with a tighter "
    "rtol/atol or a smaller step"
)  # ends every near_singular warning (issue 31)
SCAN_SAMPLES = 50  # output samples at most checked for near-singular configurations and rank changes
SCAN_MAX_SIZE = 40_000  # the sampled scan runs while m x 6N (Jacobian entries) <= this (dense SVD per sample)
NAMED = 6  # joints / drivers / bodies named at most in one message


# ----------------------------------------------------------------------------- start of run
@dataclass
class StartReport:
    """What :func:`start_of_run` found at the assembled initial state: its warnings, the
    length scale ``L`` [m] and the constraint rows found independent (for the sampled scan)."""

    warnings: list[RunWarning] = field(default_factory=list)
    length_scale: float = 1.0
    independent: list[int] | None = None


def start_of_run(system: System, Y: np.ndarray, t0: float, settings: Settings) -> StartReport:
    """Check the assembled state Y at t0 [s] before the run. Raises OverdrivenError (a
    ModelError) when drivers conflict with the joints or with each other, unless
    ``settings.allow_overdriven``; then the report carries an 'overdriven' warning."""
    rep = StartReport(length_scale=length_scale(system, Y))
    rank = constraint_rank(system, Y, t0)
    rep.independent = rank.independent
    if rank.over_driving:
        error = overdriven_error(system, rank, t0)
        if not settings.allow_overdriven:
            raise error
        rep.warnings.append(
            RunWarning("overdriven", f"run forced although over-driven: {error.message}", t0, tuple(error.drivers))
        )
    if rank.redundant:
        rep.warnings.append(redundant_warning(system, rank, t0))
    scaled = ill_scaled_warning(system, rep.length_scale, t0)
    if scaled is not None:
        rep.warnings.append(scaled)
    rep.warnings += stop_warnings(system, settings, t0)
    rep.warnings += contact_warnings(system.model, settings, t0, system)
    return rep


def stop_warnings(system: System, settings: Settings, t0: float) -> list[RunWarning]:
    """A 'stop_model' warning per joint coordinate whose stop, left at the default (rigid) model,
    is compliant because a rigid stop cannot act there; a 'stop_unresolved' warning per joint
    coordinate whose linear end stop lasts less than STEPS_PER_CONTACT fixed steps (fixed-step
    integrators only: the adaptive ones choose)."""
    out = [
        RunWarning(
            "stop_model",
            f"joint '{law.joint}': its {law.coordinate} stop is compliant (contact time {law.contact_time:.3g} s), "
            f"not rigid as by default: {law.fallback}; its peak load follows that assumed contact time",
            t0,
            (law.joint,),
        )
        for law in getattr(system, "stop_laws", [])
        if law.fallback
    ]
    if "fixed step" not in INTEGRATORS[settings.integrator].description:
        return out
    for law in getattr(system, "stop_laws", []):
        if law.has_stop and not law.rigid and law.contact_time < STEPS_PER_CONTACT * settings.step:
            out.append(
                RunWarning(
                    "stop_unresolved",
                    f"joint '{law.joint}': its {law.coordinate} stop's contact lasts {law.contact_time:.3g} s, "
                    f"{law.contact_time / settings.step:.3g} steps of {settings.step:g} s: peak loads need at least "
                    f"{STEPS_PER_CONTACT} (a step of {law.contact_time / STEPS_PER_CONTACT:.2g} s, an adaptive "
                    "integrator, or a longer contact_time)",
                    t0,
                    (law.joint,),
                )
            )
    return out


@dataclass
class RankReport:
    """Rank structure of the scaled constraint Jacobian J (m x 6N) at one state:
    ``independent`` rows (greedy, in row order: joints first, then drivers), ``redundant``
    joint rows and ``over_driving`` driver rows that depend on the rows before them."""

    J: np.ndarray  # a scipy.sparse matrix when a large model's full rank was certified
    rank: int
    independent: list[int]
    redundant: list[int]
    over_driving: list[int]


def constraint_rank(system: System, Y: np.ndarray, t: float, tol: float = RANK_TOL) -> RankReport:
    """Rank structure of the constraint Jacobian at (t [s], Y), relative tolerance ``tol``
    on the dimensionless Jacobian. Full rank is decided by one SVD; a large model's by the sparse
    certificate (scaled_rank.certainly_full_rank), else by a pivoted QR. Only a deficient Jacobian
    pays for the row-by-row selection."""
    m = system.m
    if m == 0:
        return RankReport(np.zeros((0, 6 * system.nb)), 0, [], [], [])
    J, certified = jacobian_for_rank(system, t, Y, tol)
    if certified:
        return RankReport(J, m, list(range(m)), [], [])
    rank = _qr_rank(J, tol) if is_large(system) else relative_rank(relative_singular_values(J), tol)
    if rank == m:
        return RankReport(J, rank, list(range(m)), [], [])
    kept, dropped = independent_rows(J, tol)
    n_joint_rows = int(np.sum(system.row_owner < len(system.model.joints)))
    return RankReport(
        J,
        len(kept),
        kept,
        [r for r in dropped if r < n_joint_rows],
        [r for r in dropped if r >= n_joint_rows],
    )


def _qr_rank(J: np.ndarray, tol: float) -> int:
    """Numerical rank from the pivoted QR of J^T (|R_kk| > tol |R_00|)."""
    R = scipy.linalg.qr(J.T, pivoting=True, mode="r")[0]
    d = np.abs(np.diag(R))
    return int(np.sum(d > tol * d[0])) if len(d) and d[0] > 0 else 0


def involved_rows(rank: RankReport, r: int) -> list[int]:
    """Independent rows that dependent row r is a combination of (least squares), and r."""
    kept = rank.independent
    if not kept:
        return [r]
    c = np.linalg.lstsq(rank.J[kept].T, rank.J[r], rcond=None)[0]
    big = np.abs(c) > 1e-6 * max(float(np.abs(c).max()), 1e-300)
    return sorted({kept[k] for k in np.nonzero(big)[0]} | {r})


def _owners(system: System, rows) -> list[str]:
    """Names of the joints/drivers owning ``rows``, in model order, each once."""
    owners = sorted({int(system.row_owner[r]) for r in rows})
    return [system.owner_name(k) for k in owners]


def _quoted(names, count: int = NAMED) -> str:
    names = list(names)
    shown = ", ".join(f"'{n}'" for n in names[:count])
    return shown + (f" and {len(names) - count} more" if len(names) > count else "")


def overdriven_error(system: System, rank: RankReport, t: float) -> OverdrivenError:
    """The refusal of an over-driven model, naming the drivers in conflict."""
    nj = len(system.model.joints)
    n_joint_rows = int(np.sum(system.row_owner < nj))
    dependent = _owners(system, rank.over_driving)
    involved = set()
    for r in rank.over_driving:
        involved |= {int(system.row_owner[i]) for i in involved_rows(rank, r)}
    drivers = [system.owner_name(k) for k in sorted(involved) if k >= nj]
    free = 6 * system.nb - sum(1 for r in rank.independent if r < n_joint_rows)
    n_drv = system.m - n_joint_rows
    return OverdrivenError(
        f"over-driven model, run refused: the drivers {_quoted(drivers)} conflict. At t = {t:g} s the "
        f"equation{'s' if len(dependent) > 1 else ''} of {_quoted(dependent)} depend{'' if len(dependent) > 1 else 's'}"
        f" on those of the joints and the other drivers ({len(rank.over_driving)} of {n_drv} driver equations; "
        f"the joints leave {free} degree{'s' if free != 1 else ''} of freedom): they prescribe a motion already "
        "fixed or a contradictory one. Remove or change one of these drivers; to run anyway set "
        "settings.allow_overdriven (CLI --force)",
        drivers,
    )


def redundant_warning(system: System, rank: RankReport, t: float) -> RunWarning:
    """The 'redundant' warning of a rank-deficient joint Jacobian."""
    involved = set()
    for r in rank.redundant:
        involved |= set(involved_rows(rank, r))
    names = _owners(system, involved)
    n_joint_rows = int(np.sum(system.row_owner < len(system.model.joints)))
    return RunWarning(
        "redundant",
        f"{len(rank.redundant)} of {n_joint_rows} joint equations are redundant at t = {t:g} s (rank "
        f"{n_joint_rows - len(rank.redundant)}); joints involved: {_quoted(names)}. Their multipliers and the "
        "split of the reactions among these joints are not unique (statically indeterminate): the results "
        "report the minimum-norm distribution; the resultant load is right, the split is not a prediction",
        t,
        tuple(names),
    )


def mass_matrix_ratio(system: System, L: float) -> tuple[float, str, str]:
    """(max / min entry of the mass-matrix diagonal with inertias divided by L^2 [m^2], body
    holding the smallest entry, body holding the largest)."""
    if not system.nb:
        return 1.0, "", ""
    M = np.column_stack([system.mass6[:, :3], system.mass6[:, 3:] / L**2])
    lo, hi = np.unravel_index(np.argmin(M), M.shape), np.unravel_index(np.argmax(M), M.shape)
    return float(M[hi] / M[lo]), system.moving[lo[0]].name, system.moving[hi[0]].name


def ill_scaled_warning(system: System, L: float, t: float) -> RunWarning | None:
    """An 'ill_scaled' warning when the scaled mass-matrix diagonal spans more than ILL_SCALED_RATIO."""
    ratio, lo, hi = mass_matrix_ratio(system, L)
    if ratio <= ILL_SCALED_RATIO:
        return None
    return RunWarning(
        "ill_scaled",
        f"ill-scaled masses: the mass-matrix entries (masses, and inertias divided by L^2 with the model "
        f"size L = {L:.3g} m) span a ratio of {ratio:.2g} (> {ILL_SCALED_RATIO:.0e}), smallest in body "
        f"'{lo}', largest in body '{hi}': where a light body carries the load of a heavy one, its acceleration "
        "is a small difference of large joint loads and rounding errors grow with the ratio (check the masses "
        "and inertias and their units)",
        t,
        tuple(dict.fromkeys((lo, hi))),
    )


# ----------------------------------------------------------------------------- profiles
@dataclass
class ProfileUse:
    """One profile of the model: who uses it (``what``: "driver 'm'" or "force 'f'"), its
    JSON path, its source text, its compiled program and how many time derivatives are used."""

    what: str
    path: str
    source: str
    program: object
    orders: int


def model_profiles(model: Model, index: int = 1) -> list[ProfileUse]:
    """Every profile of the drivers and forces (fields of kind 'profiles3' in catalog.FORCES).
    Drivers use f, f', f''; loads their value (and f' for index-3 integrators, ``index`` 3)."""
    out = []
    for k, d in enumerate(model.drivers):
        path = f"drivers[{k}].profile"
        out.append(ProfileUse(f"driver '{d.name}'", path, _source(d.profile), compile_profile(d.profile, path), 3))
    for k, f in enumerate(model.forces):
        for spec in FORCES[f.type].fields:
            if spec.kind != "profiles3":
                continue
            for c, comp in enumerate(getattr(f, spec.name) or ()):
                path = f"forces[{k}].{spec.name}[{c}]"
                orders = 2 if index == 3 else 1
                out.append(ProfileUse(f"force '{f.name}'", path, _source(comp), compile_profile(comp, path), orders))
    return out


def _source(spec) -> str:
    return spec if isinstance(spec, str) else repr(spec)


def nonfinite_profile(profiles: list[ProfileUse], times) -> tuple[ProfileUse, float, int] | None:
    """The first (profile, time [s], derivative order) at which a profile of ``profiles``
    is NaN or infinite, scanning ``times`` in order; None if all are finite."""
    for t in times:
        for p in profiles:
            values = p.program(float(t))
            for order in range(p.orders):
                if not math.isfinite(values[order]):
                    return p, float(t), order
    return None


class ProfileError(SimulationError):
    """A run stopped because a driver or load profile is NaN or infinite."""


def profile_error(found: tuple[ProfileUse, float, int]) -> ProfileError:
    """The failure naming a non-finite profile, its expression and the time."""
    p, t, order = found
    what = ("value", "first time derivative", "second time derivative")[order]
    return ProfileError(
        f"simulation stopped at t = {t:.6g} s: the {what} of the profile of {p.what} ({p.path} = {p.source}) is "
        "not finite (NaN or infinite) there; the model input is at fault, not the step size: change the "
        "expression so it is finite over the whole run",
        time=t,
    )


def check_profiles_at(model: Model, t: float, index: int = 1) -> None:
    """Raise a ModelError naming the profile (JSON path, expression) that is not finite at the
    start time t [s]: bad input, found before the assembly uses the drivers."""
    found = nonfinite_profile(model_profiles(model, index), [t])
    if found is not None:
        p, t, order = found
        what = ("value", "first time derivative", "second time derivative")[order]
        raise ModelError(p.path, f"{p.what}: the {what} of {p.source} is not finite (NaN or infinite) at t = {t:g} s")


def explain_nonfinite(model: Model, t_from: float, t_to: float, step: float, index: int = 1) -> ProfileError | None:
    """The profile error if a driver or load profile is NaN or infinite somewhere in
    [t_from, t_to] [s] (checked at every half integration step ``step``, at most 20001
    times); None if the profiles are finite there (the failure has another cause)."""
    profiles = model_profiles(model, index)
    if not profiles or not (t_to >= t_from):
        return None
    n = int(min(20000, max(2, math.ceil(2.0 * (t_to - t_from) / max(step, 1e-300)))))
    found = nonfinite_profile(profiles, np.linspace(t_from, t_to, n + 1))
    return None if found is None else profile_error(found)


# ----------------------------------------------------------------------------- after the run
def gate(
    res: Results, start: StartReport, stepper_warnings: list[RunWarning], integrated: IntegratedViolation | None = None
) -> list[RunWarning]:
    """Every warning of a run: the stepper's, then those of :func:`start_of_run` and of the
    samples (violation, energy drift, near-singular / rank change). ``integrated`` is the violation of
    the integrated state where the samples record its projection onto the constraints (cros); the
    violation check takes the larger. A rank finding
    ('redundant', 'near_singular', 'rank_change') of a kind the stepper already reported is not
    repeated (the index-3 integrators check the rank themselves)."""
    warnings = list(stepper_warnings)
    reported = {w.kind for w in warnings} & RANK_KINDS
    found = list(start.warnings)
    if len(res):
        found += violation_warnings(res, start.length_scale, integrated)
        found += energy_warnings(res, start.length_scale)
        found += rank_scan_warnings(res, start)
    return warnings + [w for w in found if w.kind not in reported]


RANK_KINDS = {"redundant", "near_singular", "rank_change"}


def _phi(res: Results) -> np.ndarray:
    """|Phi| of every sample (K, m), non-finite values as +inf."""
    phi = np.abs(np.asarray(res._stack("phi"), dtype=float)).reshape(len(res), -1)
    return np.nan_to_num(phi, nan=np.inf, posinf=np.inf)


class IntegratedViolation:
    """|Phi| of the state an integrator goes on from where its samples are that state closed onto
    the constraints (cros), kept compactly for :func:`violation_warnings`: per output time the
    largest violation of the length rows [m] and of the angular rows [rad] with their rows, and per
    row its largest violation over the run (not m numbers per sample)."""

    def __init__(self, row_angular: np.ndarray) -> None:
        self.angular = np.asarray(row_angular, dtype=bool)
        self.worst: dict[float, tuple[float, int, float, int]] = {}  # t -> (length max, row, angle max, row)
        self.row_max = np.zeros(len(self.angular))

    def add(self, t: float, phi: np.ndarray) -> None:
        """Note the violation |phi| (all m > 0 rows) of the integrated state at output time t [s]."""
        phi = np.nan_to_num(np.abs(np.asarray(phi, dtype=float)), nan=np.inf)
        np.maximum(self.row_max, phi, out=self.row_max)
        lin, ang = np.where(self.angular, 0.0, phi), np.where(self.angular, phi, 0.0)
        self.worst[float(t)] = (
            float(lin.max(initial=0.0)),
            int(lin.argmax()),
            float(ang.max(initial=0.0)),
            int(ang.argmax()),
        )

    def largest(self) -> tuple[float, float]:
        """(max position violation [m], max angular violation [rad]) over the run."""
        lin = self.row_max[~self.angular]
        ang = self.row_max[self.angular]
        return float(lin.max(initial=0.0)), float(ang.max(initial=0.0))

    def sample_ratios(self, times: np.ndarray, tol_length: float, tol_angle: float) -> tuple[np.ndarray, np.ndarray]:
        """(largest violation / tolerance, its row) per sample time (0 and row 0 where none was noted)."""
        ratio, row = np.zeros(len(times)), np.zeros(len(times), dtype=int)
        for k, t in enumerate(times):
            w = self.worst.get(float(t))
            if w is not None:
                lin, ang = w[0] / tol_length, w[2] / tol_angle
                ratio[k], row[k] = (lin, w[1]) if lin >= ang else (ang, w[3])
        return ratio, row


def violation_warnings(res: Results, L: float, integrated: IntegratedViolation | None = None) -> list[RunWarning]:
    """A 'violation' warning when a joint or driver equation is violated by more than
    settings.violation_tol x L [m] (length equations) or settings.violation_angle_tol [rad], in
    a sample or in the integrated state behind it (``integrated``, see :func:`gate`)."""
    system, s = res.system, res.settings
    if not system.m:
        return []
    tol = np.where(system.row_angular, s.violation_angle_tol, s.violation_tol * L)
    ratio = _phi(res) / tol[None, :]
    sample_ratio, sample_row = ratio.max(axis=1), ratio.argmax(axis=1)
    row_ratio = ratio.max(axis=0)
    behind = np.zeros(len(res), dtype=bool)
    if integrated is not None:
        b_ratio, b_row = integrated.sample_ratios(res.t, s.violation_tol * L, s.violation_angle_tol)
        behind = b_ratio > sample_ratio
        sample_ratio, sample_row = np.where(behind, b_ratio, sample_ratio), np.where(behind, b_row, sample_row)
        row_ratio = np.maximum(row_ratio, integrated.row_max / tol)
    over = sample_ratio > 1.0
    if not over.any():
        return []
    first = int(np.argmax(over))
    worst_sample = int(np.argmax(sample_ratio))
    worst_row = int(sample_row[worst_sample])
    per_owner = {}
    for r in np.nonzero(row_ratio > 1.0)[0]:
        name = system.owner_name(int(system.row_owner[r]))
        per_owner[name] = max(per_owner.get(name, 0.0), float(row_ratio[r]))
    names = sorted(per_owner, key=lambda n: -per_owner[n])
    worst = float(sample_ratio[worst_sample] * tol[worst_row])
    unit = "rad" if system.row_angular[worst_row] else "m"
    t = res.t
    return [
        RunWarning(
            "violation",
            f"constraint violation above its tolerance ({s.violation_tol:g} x L = {s.violation_tol * L:.3g} m, "
            f"{s.violation_angle_tol:g} rad; model size L = {L:.3g} m) from t = {t[first]:.6g} s: worst "
            f"{worst:.3g} {unit} in '{system.owner_name(int(system.row_owner[worst_row]))}' at "
            f"t = {t[worst_sample]:.6g} s; joints/drivers concerned: {_quoted(names)}. "
            + (
                "The integrated state leaves the joints by this much (the samples are its projection onto "
                "the constraints; the motion is off by at least this much): reduce the step"
                if behind[worst_sample]
                else "Parts leave their joints by this much: reduce the step or the tolerances, or enable projection"
            ),
            float(t[first]),
            tuple(names),
        )
    ]


def is_conservative(model: Model) -> bool:
    """No drivers, only forces that keep the energy (catalog.FORCES: ``conservative`` types
    with their ``dissipative`` fields zero) and elastic contacts without friction: the total energy
    must then stay constant."""
    if model.drivers or any(c.enabled and (c.restitution < 1 or c.mu_s > 0) for c in model.contacts):
        return False
    for f in model.forces:
        spec = FORCES[f.type]
        if not spec.conservative or any(getattr(f, name, 0.0) for name in spec.dissipative):
            return False
    return True


def energy_error(res: Results, L: float = 0.0) -> tuple[float, float]:
    """(max |E - E(0) - works| / energy scale, time [s] of that maximum). The scale is the
    energy the run exchanges: max(kinetic energy, range of the potential energy), so it does
    not depend on where the potential is zero, and at least ENERGY_FLOOR x the work of lifting the
    moving bodies by the model size L [m] (System.weight() L), so that a model at rest is judged
    against its own energy, not its rounding; (0, t0) when nothing moves in a model without energy scale."""
    e = res.energy()
    bal = np.nan_to_num(np.abs(e["balance"]), nan=np.inf)
    finite = np.isfinite(e["kinetic"]) & np.isfinite(e["potential"])
    if not finite.any():
        return math.inf, float(res.t[0])
    T, V = e["kinetic"][finite], e["potential"][finite]
    scale = max(float(T.max()), float(V.max() - V.min()), ENERGY_FLOOR * res.system.weight() * L)
    k = int(np.argmax(bal))
    if scale <= 0.0:
        return (0.0 if bal[k] == 0 else math.inf), float(res.t[k])
    return float(bal[k] / scale), float(res.t[k])


def energy_warnings(res: Results, L: float = 0.0) -> list[RunWarning]:
    """An 'energy_drift' warning when a conservative model's energy error exceeds settings.energy_tol
    (L: the model size [m], for the floor of the energy scale)."""
    if not is_conservative(res.model) or len(res) < 2:
        return []
    err, t = energy_error(res, L)
    if not err > res.settings.energy_tol:
        return []
    return [
        RunWarning(
            "energy_drift",
            f"energy drift {err:.3g} of the energy exchanged (> {res.settings.energy_tol:g}) at t = {t:.6g} s in a "
            "conservative model (no drivers, no dampers or applied loads): the integration error is visible in "
            "the motion and the loads; reduce the step or tighten rtol/atol",
            t,
        )
    ]


def scan_samples(n: int, count: int = SCAN_SAMPLES) -> np.ndarray:
    """At most ``count`` sample indices spread evenly over n samples, first and last included."""
    return np.unique(np.linspace(0, n - 1, min(n, count)).round().astype(int)) if n else np.zeros(0, int)


def rank_scan_warnings(res: Results, start: StartReport) -> list[RunWarning]:
    """'near_singular' when sigma_min / sigma_max of the rows independent at the start falls
    below REPORT_NEAR_SINGULAR, 'rank_change' when the rank of the whole Jacobian (relative tolerance
    SAMPLED_RANK_TOL, or the sample's scaled violation if larger: drift blurs exact dependencies)
    differs from the first sample's, at SCAN_SAMPLES output samples at most;
    skipped when m x 6N > SCAN_MAX_SIZE."""
    system = res.system
    if not system.m or system.m * 6 * system.nb > SCAN_MAX_SIZE or start.independent is None:
        return []
    kept = start.independent
    t, Y = res.t, res.Y
    phis = np.asarray(res._stack("phi"), dtype=float).reshape(len(res), -1)
    scanned = scan_samples(len(t))
    finite = np.all(np.isfinite(np.asarray(Y)[scanned]), axis=1) if len(scanned) else np.zeros(0, bool)
    scanned = scanned[: int(np.argmin(finite)) if not finite.all() else len(scanned)]  # up to the first blow-up
    raw = np.array([system.constraint_jacobian(float(t[k]), Y[k])[1] for k in scanned])
    stack = scaled_jacobian(system, raw.reshape(len(scanned), system.m, 6 * system.nb), start.length_scale)
    ratios = list(conditioning_of(stack[:, kept]))
    # the violation recorded during the run (a coupler row's value depends on its angles'
    # branch, followed over the run, not from one scanned sample to the next)
    tols = sampled_rank_tolerances(system, phis[scanned], start.length_scale, SAMPLED_RANK_TOL)
    ranks = [relative_rank(rel, tol) for rel, tol in zip(relative_singular_values_of(stack), tols)]
    times = [(k, float(t[k]), J) for k, J in zip(scanned, stack)]
    out = []
    if ratios and min(ratios) < REPORT_NEAR_SINGULAR:
        out.append(_near_singular(system, ratios, times, kept))
    changed = [i for i, r in enumerate(ranks) if r != ranks[0]]
    if changed:
        out.append(_rank_change(system, ranks, times, changed, kept))
    return out


def _near_singular(system, ratios, times, kept) -> RunWarning:
    from .analyses.mobility import dependent_equations

    i = int(np.argmin(ratios))
    below = [times[j][1] for j, r in enumerate(ratios) if r < REPORT_NEAR_SINGULAR]
    names = dependent_equations(system, times[i][2], kept, count=NAMED)
    return RunWarning(
        "near_singular",
        f"near-singular configuration at t = {times[i][1]:.6g} s: smallest / largest singular value of the "
        f"constraint Jacobian {ratios[i]:.2g} (< {REPORT_NEAR_SINGULAR:g}; {len(below)} of {len(ratios)} sampled "
        f"output times, from t = {below[0]:.6g} s); joints in the weakest direction: {_quoted(names)}. Reactions "
        f"and efforts near this position are sensitive to small errors. {NEAR_SINGULAR_ACCURACY}",
        times[i][1],
        tuple(names),
    )


def _rank_change(system, ranks, times, changed, kept) -> RunWarning:
    from .analyses.mobility import dependent_equations

    i = changed[0]
    J = times[i][2]
    names = dependent_equations(system, J, kept, count=NAMED) if kept else []
    return RunWarning(
        "rank_change",
        f"the rank of the constraint Jacobian changed from {ranks[0]} to {ranks[i]} at t = {times[i][1]:.6g} s "
        f"(sampled output times, relative tolerance {SAMPLED_RANK_TOL:g}); joints concerned: {_quoted(names)}. "
        "The mobility of the mechanism changes there (singular or bifurcation position): check the motion",
        times[i][1],
        tuple(names),
    )


# ----------------------------------------------------------------------------- blow-up
BLOWUP_GROWTH = 100.0  # a run whose fastest body got this many times faster than its speed scale blew up
IMPLICIT = "radau, bdf or galpha"


def body_speeds(system: System, Y: np.ndarray, L: float) -> np.ndarray:
    """|v| + L |w| [m/s] of every moving body at state Y (L: the model length scale [m])."""
    nb = system.nb
    vel = np.asarray(Y[7 * nb :], dtype=float).reshape(nb, 6)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.linalg.norm(vel[:, :3], axis=1) + L * np.linalg.norm(vel[:, 3:], axis=1)


def blow_up(system: System, Y0: np.ndarray, Y: np.ndarray, L: float, step: float) -> str:
    """Why a failed run blew up, or '' if it did not: its state is not finite, or a body moves
    BLOWUP_GROWTH times faster than the run's speed scale (the fastest body's speed at the start,
    at least sqrt(|g| L), the speed of a fall over the model size L [m]). An explicit step beyond
    the stability limit of the model's fastest (stiff) mode does this within a few steps; the
    constraint solve then fails too, which must not be reported as a singular position."""
    if not system.nb:
        return ""
    speed = body_speeds(system, Y, L)
    hint = (
        f"the step {step:g} s is too large for the model's fastest mode (a stiff spring or joint, a fast spin): "
        f"take a smaller step or an implicit integrator ({IMPLICIT})"
    )
    if not np.all(np.isfinite(speed)):
        name = system.moving[int(np.argmin(np.isfinite(speed)))].name
        return f"the solution blew up (the speed of body '{name}' became NaN/infinite): {hint}"
    g = float(np.linalg.norm(system.static.gravity))
    scale = max(float(body_speeds(system, Y0, L).max()), math.sqrt(g * L), 1e-9)
    b = int(np.argmax(speed))
    if speed[b] <= BLOWUP_GROWTH * scale:
        return ""
    return (
        f"the solution blew up (the speed |v| + L|w| of body '{system.moving[b].name}' grew to {speed[b]:.3g} m/s, "
        f"{speed[b] / scale:.3g} x the run's speed scale {scale:.3g} m/s): {hint}"
    )
