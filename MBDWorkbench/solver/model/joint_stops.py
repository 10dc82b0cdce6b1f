"""Joint limits, end stops and viscous joint damping in the model (docs/joint-limits.md).

A joint coordinate of joints.csv (``angle`` of revolute and cylindrical joints, ``displacement``
of prismatic and cylindrical joints; catalog.COORDINATES) may have a lower and an upper limit,
each enforced by a stop, and viscous damping. The stop model (:func:`stop_model`) is ``rigid`` by
default (Newton's impact law, solver/events.py: its impulse is exact, a compliant stop's peak
load follows its assumed stiffness; bench/results/stop_models.md), ``compliant`` when asked for
(or when the stop gives a compliant field), and compliant with a stated reason where a rigid
stop cannot act (an integrator that refuses rigid stops, a driven coordinate). Beyond a limit
by the penetration d > 0 a compliant stop pushes back with Adams' IMPACT law [IMPACT]:

    f = max(0, k d^e + c(d) d'),   c(d) = c_max STEP(d, 0, 0, d_full, 1)  (cubic step)

never pulling. Its spring part is conservative (potential k d^(e+1) / (e + 1), in the energy
balance), its damping part and the viscous damping (-c_v q') dissipate (non-conservative work).

Defaults (a field left out): stiffness k = I (pi / t_c)^2, the linear stop (e = 1) whose
contact lasts t_c = ``contact_time`` (default 10 ms) on the inertia I of the coordinate (the
System's effective inertia of the coordinate in the mechanism at the start, else
:func:`coordinate_inertia`: the moving body's inertia about the joint axis, or its mass);
c_max = 2 zeta sqrt(k I) with zeta = 0.2 (restitution about 0.5); d_full = c_max v_ref / k with
v_ref = 1 m/s or 1 rad/s (where the full damping force at v_ref equals the spring force: the
damping rises over a fraction of a typical penetration, so the force stays smooth enough for
the integrators to follow).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import ModelError
from ..numerics import quaternion
from .catalog import COORDINATES, JOINTS
from .fields import check_number, shown
from .geometry import frame_axes, initial_pose
from .schema import GROUND, Joint, Model, Stop


@dataclass(frozen=True)
class CoordinateLimits:
    """The joint fields of one coordinate: limits, stop, damping; ``unit`` its SI unit."""

    coordinate: str
    low: str
    high: str
    stop: str
    damping: str
    unit: str


LIMITED: dict[str, CoordinateLimits] = {
    "angle": CoordinateLimits("angle", "angle_min", "angle_max", "angle_stop", "angle_damping", "rad"),
    "displacement": CoordinateLimits("displacement", "travel_min", "travel_max", "travel_stop", "travel_damping", "m"),
}
LIMIT_FIELDS: tuple[str, ...] = tuple(name for c in LIMITED.values() for name in (c.low, c.high, c.stop, c.damping))
STOP_FIELDS: tuple[str, ...] = (
    "model",
    "restitution",
    "stiffness",
    "exponent",
    "damping",
    "penetration",
    "contact_time",
)
COMPLIANT_FIELDS: tuple[str, ...] = STOP_FIELDS[2:]
STOP_MODELS: tuple[str, ...] = ("rigid", "compliant")
DEFAULT_STOP_MODEL = "rigid"  # its impulse is exact; a compliant peak follows the assumed stiffness
RIGID_REFUSED_BY: tuple[str, ...] = ()  # integrators that refuse a rigid stop (events.REFUSING says why)
DEFAULT_RESTITUTION = 0.5  # e of a rigid stop: impulse 1.5 m v, within 4/3 of both bounds (docs/joint-limits.md)
DEFAULT_CONTACT_TIME = 0.01  # [s] contact duration of a default (linear) stop
DEFAULT_DAMPING_RATIO = 0.2  # c_max = 2 zeta sqrt(k I): a linear stop's restitution about 0.53
REFERENCE_RATE = 1.0  # v_ref [m/s or rad/s] of the default d_full = c_max v_ref / k
MAX_EXPONENT = 10.0
STEPS_PER_CONTACT = 10  # a fixed-step run resolves a stop with at least this many steps per contact
START_TOL = 1e-6  # [rad or m] a start this far past a limit (a CAD solver's tolerance) is accepted


@dataclass(frozen=True)
class StopLaw:
    """The resolved numbers of one coordinate's stops and damping (SI): limits (-inf, inf when
    absent), k, e, c_max, d_full, the viscous coefficient and the contact time [s] of a linear
    stop (NaN for e != 1) on the coordinate's inertia."""

    joint: str
    coordinate: str
    lower: float
    upper: float
    stiffness: float
    exponent: float
    damping: float
    penetration: float
    viscous: float
    contact_time: float
    rigid: bool = False
    restitution: float = DEFAULT_RESTITUTION
    fallback: str = ""  # why a stop left at the default model is compliant ("" otherwise)

    @property
    def has_stop(self) -> bool:
        """Whether it has a limit."""
        return math.isfinite(self.lower) or math.isfinite(self.upper)


# ----------------------------------------------------------------------------- reading
def parse_stop(value: object, path: str) -> Stop:
    """A Stop from its JSON object; ModelError naming the field."""
    if not isinstance(value, dict):
        raise ModelError(path, f"must be an object with fields {', '.join(STOP_FIELDS)}, got {shown(value)}")
    unknown = sorted(set(value) - set(STOP_FIELDS))
    if unknown:
        raise ModelError(f"{path}.{unknown[0]}", f"unknown field (one of {', '.join(STOP_FIELDS)})")
    model = value.get("model")
    if model is not None and model not in STOP_MODELS:
        raise ModelError(f"{path}.model", f"must be one of {', '.join(STOP_MODELS)}, got {shown(model)}")
    numbers = {k: check_number(v, f"{path}.{k}") for k, v in value.items() if k != "model"}
    return Stop(model=model, **numbers)


def parse_limit_fields(d: dict, path: str, name: str) -> dict:
    """The limit, stop and damping fields present in the JSON object of joint ``name``."""
    try:
        return _limit_fields(d, path)
    except ModelError as exc:
        raise ModelError(exc.path, f"joint '{name}': {exc.message}") from None


def _limit_fields(d: dict, path: str) -> dict:
    out = {}
    for c in LIMITED.values():
        for key in (c.low, c.high, c.damping):
            if key in d:
                out[key] = check_number(d[key], f"{path}.{key}", kind="angle" if c.unit == "rad" else "length")
        if c.stop in d:
            out[c.stop] = parse_stop(d[c.stop], f"{path}.{c.stop}")
    return out


# ----------------------------------------------------------------------------- checks
def check_joint_limits(model: Model, j: Joint, path: str) -> None:
    """The limit fields of joint j: only on its coordinates, min < max, a stop only with a limit,
    coefficients in range, and the initial configuration within the limits."""
    what = f"joint '{j.name}' ({j.type})"
    try:
        _check_limits(model, j, path, what)
    except ModelError as exc:
        if f"joint '{j.name}'" in exc.message:
            raise
        raise ModelError(exc.path, f"{what}: {exc.message}") from None


def _check_limits(model: Model, j: Joint, path: str, what: str) -> None:
    for c in LIMITED.values():
        present = [k for k in (c.low, c.high, c.stop, c.damping) if getattr(j, k) is not None]
        if present and c.coordinate not in JOINTS[j.type].coordinates:
            takers = ", ".join(t.name for t in JOINTS.values() if c.coordinate in t.coordinates)
            raise ModelError(f"{path}.{present[0]}", f"{what}: has no {c.coordinate} coordinate ({takers} joints do)")
        if present:
            _check_coordinate(model, j, c, path, what)


def _check_coordinate(model: Model, j: Joint, c: CoordinateLimits, path: str, what: str) -> None:
    low, high = getattr(j, c.low), getattr(j, c.high)
    for key in (c.low, c.high):
        value = getattr(j, key)
        if value is not None:
            check_number(value, f"{path}.{key}")
    if low is not None and high is not None:
        if not low < high:
            raise ModelError(f"{path}.{c.low}", f"{what}: {c.low} {low:g} must be below {c.high} {high:g}")
    if getattr(j, c.damping) is not None:
        check_number(getattr(j, c.damping), f"{path}.{c.damping}", nonnegative=True, kind="damping")
    stop = getattr(j, c.stop)
    if isinstance(stop, dict):  # the Python API may give the stop as a dict
        stop = parse_stop(stop, f"{path}.{c.stop}")
        setattr(j, c.stop, stop)
    if stop is not None:
        if low is None and high is None:
            raise ModelError(f"{path}.{c.stop}", f"{what}: a stop needs {c.low} or {c.high}")
        _check_stop(stop, f"{path}.{c.stop}", what)
        if stop.model == "rigid":  # an explicit one; the default falls back to compliant there
            _check_not_driven(model, j, c, f"{path}.{c.stop}", what)
    if low is not None or high is not None:
        _check_start(model, j, c, path, what)


def _check_stop(stop: Stop, path: str, what: str) -> None:
    if stop.model not in (None, *STOP_MODELS):
        raise ModelError(f"{path}.model", f"{what}: must be one of {', '.join(STOP_MODELS)}, got {shown(stop.model)}")
    if stop.model == "rigid" or (stop.model is None and not compliant_given(stop)):
        _check_rigid_stop(stop, path, what)
        return
    if stop.restitution is not None:
        raise ModelError(
            f"{path}.restitution",
            f"{what}: a restitution needs model 'rigid' (a compliant stop's is set by its damping)",
        )
    for key in ("stiffness", "penetration", "contact_time"):
        value = getattr(stop, key)
        if value is not None:
            check_number(value, f"{path}.{key}", positive=True)
    if stop.damping is not None:
        check_number(stop.damping, f"{path}.damping", nonnegative=True, kind="damping")
    e = check_number(stop.exponent, f"{path}.exponent")
    if not 1.0 <= e <= MAX_EXPONENT:
        raise ModelError(f"{path}.exponent", f"{what}: the exponent must lie in [1, {MAX_EXPONENT:g}], got {e:g}")
    if stop.stiffness is not None and stop.contact_time is not None:
        raise ModelError(f"{path}.contact_time", f"{what}: give the stiffness or the contact time, not both")
    if stop.stiffness is None and e != 1.0:
        raise ModelError(
            f"{path}.stiffness", f"{what}: required with an exponent other than 1 (the default is a linear stop's)"
        )


def compliant_given(stop: Stop) -> bool:
    """Whether a stop gives a field of the compliant law (stiffness, exponent other than 1, damping,
    penetration, contact_time): without a ``model`` it is then compliant."""
    default = Stop()
    return any(getattr(stop, k) != getattr(default, k) for k in COMPLIANT_FIELDS)


def stop_model(model: Model, j: Joint, coordinate: str) -> tuple[str, str]:
    """(stop model, reason) of joint j's coordinate ('angle' or 'displacement'): its stop's
    ``model`` when given; else 'compliant' when it gives a compliant field; else the default
    DEFAULT_STOP_MODEL, or 'compliant' with the reason where a rigid stop cannot act (an
    integrator of RIGID_REFUSED_BY, a coordinate held by a driver)."""
    stop = getattr(j, LIMITED[coordinate].stop)
    if isinstance(stop, Stop) and stop.model is not None:
        return stop.model, ""
    if isinstance(stop, Stop) and compliant_given(stop):
        return "compliant", ""
    integrator = model.settings.integrator
    if integrator in RIGID_REFUSED_BY:
        return "compliant", f"integrator {integrator} cannot simulate rigid stops"
    for d in model.drivers:
        if d.joint == j.name and COORDINATES[coordinate].driver == d.type:
            return "compliant", f"its {coordinate} is driven by '{d.name}'"
    return DEFAULT_STOP_MODEL, ""


def _check_not_driven(model: Model, j: Joint, c: CoordinateLimits, path: str, what: str) -> None:
    """A rigid stop is held by a driver on its coordinate: refused on a coordinate already driven."""
    for d in model.drivers:
        if d.joint == j.name and COORDINATES[c.coordinate].driver == d.type:
            raise ModelError(path, f"{what}: a rigid stop on a coordinate driven by '{d.name}' (it cannot move)")


def _check_rigid_stop(stop: Stop, path: str, what: str) -> None:
    """A rigid stop: restitution in [0, 1], none of the compliant stop's fields."""
    if stop.restitution is not None:
        e = check_number(stop.restitution, f"{path}.restitution")
        if not 0.0 <= e <= 1.0:
            raise ModelError(f"{path}.restitution", f"{what}: the restitution must lie in [0, 1], got {e:g}")
    default = Stop()
    given = [k for k in COMPLIANT_FIELDS if getattr(stop, k) != getattr(default, k)]
    if given:
        raise ModelError(f"{path}.{given[0]}", f"{what}: a rigid stop has no {given[0]} (a compliant stop's field)")


def _check_start(model: Model, j: Joint, c: CoordinateLimits, path: str, what: str) -> None:
    """A ModelError when the initial coordinate lies outside the limits (by more than START_TOL)."""
    low, high = getattr(j, c.low), getattr(j, c.high)
    q = initial_coordinate(model, j, c.coordinate)
    shown_q = f"{math.degrees(q):.6g} deg" if c.unit == "rad" else f"{q:.6g} m"
    if low is not None and q < low - START_TOL:
        raise ModelError(
            f"{path}.{c.low}", f"{what}: starts at {c.coordinate} {shown_q}, below {c.low} {low:g} {c.unit}"
        )
    if high is not None and q > high + START_TOL:
        raise ModelError(
            f"{path}.{c.high}", f"{what}: starts at {c.coordinate} {shown_q}, above {c.high} {high:g} {c.unit}"
        )


# ----------------------------------------------------------------------------- geometry
def _frames(model: Model, j: Joint) -> tuple:
    """Global (origin, x, y, z) of joint j's frames on sides i and j at the initial configuration."""
    out = []
    for side in ("i", "j"):
        if j.frame is not None:
            out.append((np.asarray(j.frame.origin, float), *frame_axes(j.frame)))
            continue
        r, A = initial_pose(model, getattr(j, "body_" + side))
        fr = getattr(j, "frame_" + side)
        x, y, z = frame_axes(fr)
        out.append((r + A @ np.asarray(fr.origin, float), A @ x, A @ y, A @ z))
    return tuple(out)


def initial_coordinate(model: Model, j: Joint, coordinate: str) -> float:
    """The joint coordinate at the initial configuration as joints.csv measures it: the angle
    [rad] of frame j's x axis about frame i's z axis, in (-pi, pi], or the displacement [m] of
    frame j's origin along frame i's z axis."""
    (oi, xi, yi, zi), (oj, xj, _, _) = _frames(model, j)
    if coordinate == "angle":
        return float(math.atan2(np.dot(yi, xj), np.dot(xi, xj)))
    return float(np.dot(zi, oj - oi))


def coordinate_inertia(model: Model, j: Joint, coordinate: str) -> float:
    """The inertia [kg m^2 or kg] the stop of a coordinate is sized on: body_j's (body_i's when
    body_j is fixed) moment of inertia about the joint axis, or its mass for a displacement."""
    (oi, _, _, z), _ = _frames(model, j)
    name = j.body_j if _moves(model, j.body_j) else j.body_i
    body = model.body(name)
    if coordinate == "displacement":
        return float(body.mass)
    A = quaternion.matrices(np.asarray(body.orientation, float))
    J = A @ np.asarray(body.inertia, float) @ A.T
    r = np.asarray(body.position, float) - oi
    r_perp = r - np.dot(r, z) * z
    return float(z @ J @ z + body.mass * np.dot(r_perp, r_perp))


def _moves(model: Model, name: str) -> bool:
    return name != GROUND and not model.body(name).grounded


def stop_laws(model: Model, j: Joint, inertia_of=None) -> list[StopLaw]:
    """The resolved stop and damping numbers of joint j's limited or damped coordinates; the
    inertia of a coordinate is ``inertia_of(j, coordinate)`` (default: :func:`coordinate_inertia`;
    the System passes the effective inertia of the coordinate in the whole mechanism)."""
    inertia_of = inertia_of or (lambda joint, coordinate: coordinate_inertia(model, joint, coordinate))
    laws = []
    for c in LIMITED.values():
        low, high, viscous = getattr(j, c.low), getattr(j, c.high), getattr(j, c.damping)
        if low is None and high is None and not viscous:
            continue
        stop = getattr(j, c.stop) or Stop()
        kind, fallback = stop_model(model, j, c.coordinate)
        inertia = inertia_of(j, c.coordinate)
        t_c = stop.contact_time or DEFAULT_CONTACT_TIME
        k = stop.stiffness if stop.stiffness is not None else inertia * (math.pi / t_c) ** 2
        lower, upper = -math.inf if low is None else low, math.inf if high is None else high
        c_max = stop.damping if stop.damping is not None else 2 * DEFAULT_DAMPING_RATIO * math.sqrt(k * inertia)
        laws.append(
            StopLaw(
                joint=j.name,
                coordinate=c.coordinate,
                lower=lower,
                upper=upper,
                stiffness=k,
                exponent=stop.exponent,
                damping=c_max,
                penetration=stop.penetration or max(c_max * REFERENCE_RATE / k, 1e-12),
                viscous=viscous or 0.0,
                contact_time=math.pi * math.sqrt(inertia / k) if stop.exponent == 1.0 else math.nan,
                rigid=kind == "rigid" and (low is not None or high is not None),
                restitution=DEFAULT_RESTITUTION if stop.restitution is None else float(stop.restitution),
                fallback=fallback if low is not None or high is not None else "",
            )
        )
    return laws


def compliant_limits(law: StopLaw) -> tuple[float, float]:
    """(lower, upper) where the JOINT_STOP kernel applies the compliant law: none for a rigid stop
    (its limits are events, solver/events.py; the kernel keeps its viscous damping)."""
    return (-math.inf, math.inf) if law.rigid else (law.lower, law.upper)


def stop_effort(law: StopLaw, q, rate):
    """(stop effort, viscous effort) [N m or N] on the coordinate (positive: increasing it) at
    value q [rad or m] and rate [rad/s or m/s]; the same law as numerics.forces.joint_stop, on
    arrays (angles counted continuously, as joints.csv)."""
    q, rate = np.asarray(q, float), np.asarray(rate, float)
    effort = np.zeros_like(q)
    if law.rigid:  # its impulses and hold effort are events (solver/events.py), not a law of the state
        return effort, -law.viscous * rate
    for d, ddot, sign in ((q - law.upper, rate, -1.0), (law.lower - q, -rate, 1.0)):
        inside = d > 0
        dd = np.where(inside, d, 0.0)
        s = np.clip(dd / law.penetration, 0.0, 1.0)
        push = law.stiffness * dd**law.exponent + law.damping * s * s * (3 - 2 * s) * ddot
        effort += np.where(inside, sign * np.maximum(push, 0.0), 0.0)
    return effort, -law.viscous * rate
