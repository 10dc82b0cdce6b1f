"""Checks of a model before it is solved: names and references, bodies, joints, forces and
drivers, settings, the size of a run and its profiles at the output times. Every failure is a
:class:`..errors.ModelError` whose message starts with the path of the offending field.
"""

from __future__ import annotations

import copy
import math

import numpy as np

from ..errors import ModelError
from ..tolerances import COINCIDENT_TOL
from .catalog import COUPLER_PARAMETERS, DRIVERS, FORCES, INTEGRATOR_TYPES, JOINT_TYPES, JOINTS, joints_driven_by
from .contacts import check_contacts
from .fields import (
    DISTANCE_FIELDS,
    check_flag,
    check_force_type,
    check_inertia,
    check_number,
    check_text,
    check_vector,
    shown,
)
from .geometry import (
    axis_angle,
    axis_distance,
    distance_anchors,
    frame_axes,
    initial_pose,
    is_point_mass,
    joint_anchor,
    joint_rows,
    turned_point_masses,
)
from .joint_friction import check_joint_friction
from .joint_stops import check_joint_limits
from .limits import (
    MAX_NAME_LENGTH,
    MAX_SAMPLES,
    MIN_AXIS_ANGLE,
    MIN_PRINCIPAL_INERTIA,
    MIN_QUATERNION_NORM,
    PROFILE_CHECK_POINTS,
    PROFILE_MAGNITUDE,
    RunSize,
    estimate_run,
    estimate_statics,
    sample_count,
)
from .schema import GROUND, Body, Joint, Model, Settings
from .sphere_pairs import checked_pairs

ACCURACY_TOLERANCES = ("accuracy_position_tol", "accuracy_angle_tol", "accuracy_load_tol")
_DEFAULTED = ("step", "rtol")  # None: the integrator's own default (Settings.resolved)
_SETTING_RANGES = {  # setting -> kind of limits.RANGES
    "t_end": "time",
    "step": "time",
    "output_step": "time",
    "rtol": "rtol",
    "atol": "atol",
    "baumgarte_alpha": "rate",
    "baumgarte_beta": "rate",
    "tikhonov_eps": "fraction",
    "rho_inf": "fraction",
}


_SETTING_FLAGS = ("assemble", "projection", "check_limits", "accuracy")


def validate_settings(s: Settings, path: str = "settings") -> None:
    """Check solver settings (numbers within limits.RANGES, flags JSON booleans, a known
    integrator); raises ModelError naming the field."""
    for key in ("t_end", "step", "output_step"):
        if getattr(s, key) is not None or key not in _DEFAULTED:
            check_number(getattr(s, key), f"{path}.{key}", positive=True)
    for key, kind in _SETTING_RANGES.items():
        if getattr(s, key) is not None or key not in _DEFAULTED:
            check_number(getattr(s, key), f"{path}.{key}", nonnegative=True, kind=kind)
    for key in _SETTING_FLAGS:
        check_flag(getattr(s, key), f"{path}.{key}")
    if not isinstance(s.integrator, str) or s.integrator not in INTEGRATOR_TYPES:
        raise ModelError(
            f"{path}.integrator", f"unknown integrator {shown(s.integrator)} (one of {', '.join(INTEGRATOR_TYPES)})"
        )
    _validate_quality_settings(s, path)


def _validate_quality_settings(s: Settings, path: str) -> None:
    """The quality-gate settings: positive finite tolerances, a JSON boolean for allow_overdriven."""
    for key in ("violation_tol", "violation_angle_tol", "energy_tol", *ACCURACY_TOLERANCES):
        check_number(getattr(s, key), f"{path}.{key}", positive=True)
    if not isinstance(s.allow_overdriven, bool):
        raise ModelError(f"{path}.allow_overdriven", f"must be true or false, got {s.allow_overdriven!r}")


# ----------------------------------------------------------------------------- validation
def validate(model: Model) -> None:
    """Check settings, names, references, every number against its range (limits.RANGES),
    masses, inertias, joint axes and every profile over [0, t_end]; raise ModelError."""
    validate_settings(model.settings)
    check_vector(model.gravity, "gravity", kind="acceleration")
    names = {}
    for k, b in enumerate(model.bodies):
        path = f"bodies[{k}]"
        if b.name in names:
            raise ModelError(f"{path}.name", f"duplicate body name '{b.name}'")
        names[b.name] = b
        _check_body(b, path)
    _unique([j.name for j in model.joints], "joints")
    _unique([f.name for f in model.forces], "forces")
    _unique([d.name for d in model.drivers], "drivers")
    for k, j in enumerate(model.joints):
        _check_joint(model, j, names, f"joints[{k}]")
    for k, f in enumerate(model.forces):
        _check_force_refs(model, f, names, f"forces[{k}]")
        _check_force_values(f, f"forces[{k}]")
    for k, d in enumerate(model.drivers):
        path = f"drivers[{k}]"
        joint = _find_joint(model, d.joint, f"{path}.joint", f"driver '{d.name}'")
        driven = joints_driven_by(d.type)
        if joint.type not in driven:
            raise ModelError(
                f"{path}.joint",
                f"driver '{d.name}': a {d.type} driver needs a "
                f"{' or '.join(driven)} joint, '{joint.name}' is {joint.type}",
            )
        turned = turned_point_masses(model, joint, DRIVERS[d.type].row)
        if turned:
            raise ModelError(
                f"{path}.joint",
                f"driver '{d.name}': a {d.type} driver on joint '{joint.name}' would turn point mass "
                f"'{turned[0]}', which has no rotation",
            )
    if not any(not b.grounded for b in model.bodies):
        raise ModelError("bodies", "the model has no moving body")
    check_contacts(model, names, checked_pairs(model, names))
    _check_model_profiles(model, _output_times(model.settings, PROFILE_CHECK_POINTS - 1))


def run_size(model: Model, analysis: str = "simulate") -> RunSize:
    """Estimated size of a run of ``model`` with its settings: ``simulate`` integrates with
    settings.step, ``kinematics`` solves at the output times only, ``statics`` once."""
    rows = sum(JOINTS[j.type].equations for j in model.joints) + len(model.drivers)
    moving = sum(1 for b in model.bodies if not b.grounded)
    return estimate_size(analysis, model.settings, moving, rows, len(model.joints), len(model.drivers))


def estimate_size(analysis: str, s: Settings, moving: int, rows: int, joints: int, drivers: int) -> RunSize:
    """Estimated size of a run (``simulate``, ``kinematics``, ``statics``) with settings ``s`` of a model of
    ``moving`` bodies, ``rows`` constraint equations (drivers included), ``joints`` joints and ``drivers`` drivers."""
    if analysis == "statics":
        return estimate_statics(moving, rows, joints, drivers)
    step = s.resolved().step if analysis == "simulate" else None
    return estimate_run(s.t_end, step, s.output_step, moving, rows, joints, drivers)


def refuse_run_size(size: RunSize, analysis: str, s: Settings) -> None:
    """ModelError('settings') with the estimate when ``size`` exceeds the limits of
    :mod:`.limits` and s.check_limits is true."""
    excess = size.excess()
    if not (s.check_limits and excess):
        return
    if analysis == "statics":
        raise ModelError(
            "settings",
            f"the statics run is too large: {excess}, estimated from its dense tangent stiffness (6 coordinates per "
            "moving body, squared); remove bodies, or switch the limits off (setting check_limits: false, "
            "CLI --no-limits)",
        )
    steps = f", step = {s.resolved().step:g} s" if analysis == "simulate" else ""
    raise ModelError(
        "settings",
        f"the {analysis} run is too large: {excess}, estimated from t_end = {s.t_end:g} s{steps}, "
        f"output_step = {s.output_step:g} s; shorten t_end, lengthen the steps, or switch the limits off "
        "(setting check_limits: false, CLI --no-limits)",
    )


def validate_run(model: Model, analysis: str = "simulate", t: float | None = None) -> None:
    """Check a run before it starts (``simulate`` or ``kinematics``, settings overrides
    applied): its estimated size (:func:`run_size`) against the limits of :mod:`.limits`
    unless settings.check_limits is false, then every profile at the output times. With a
    time ``t`` [s] (``analyze``, ``statics``: one configuration), ``t`` and the profiles at
    ``t`` only. Raises ModelError naming the settings, the time or the profile."""
    if t is not None:
        check_number(t, "t", kind="instant")
        if analysis == "statics":
            refuse_run_size(run_size(model, "statics"), "statics", model.settings)
        _check_model_profiles(model, np.array([float(t)]))
        return
    s = model.settings
    refuse_run_size(run_size(model, analysis), analysis, s)
    _check_model_profiles(model, _output_times(s, MAX_SAMPLES))


def _output_times(s: Settings, most: int) -> np.ndarray:
    """The output times of a run over [0, t_end] [s]; at most ``most`` + 1 of them evenly
    spread when the run has more."""
    n = sample_count(s.t_end, s.output_step) - 1
    return np.linspace(0.0, s.t_end, min(n, most) + 1)


def _check_model_profiles(model: Model, times: np.ndarray) -> None:
    """Compile every profile (drivers, force components) and check it at ``times`` [s]:
    drivers' f, f', f'' and loads' f finite and within limits.PROFILE_MAGNITUDE."""
    for k, d in enumerate(model.drivers):
        _check_profile(d.profile, f"drivers[{k}].profile", times, 3)
    for k, f in enumerate(model.forces):
        for spec in FORCES[f.type].fields:
            if spec.kind == "profiles3":
                where = f"forces[{k}].{spec.name}"
                comps = getattr(f, spec.name)
                if not isinstance(comps, (list, tuple)) or len(comps) != 3:
                    raise ModelError(where, "must be a list of 3 profiles")
                for c, comp in enumerate(comps):
                    _check_profile(comp, f"{where}[{c}]", times, 1)


def _check_profile(spec: object, path: str, times: np.ndarray, derivatives: int) -> None:
    from .profiles import compile_profile

    jet = compile_profile(spec, path).series(times)[:, :derivatives]
    bad = np.argwhere(~(np.abs(jet) <= PROFILE_MAGNITUDE))
    if len(bad):
        i, c = bad[0]
        what = ("value", "first derivative", "second derivative")[c]
        raise ModelError(
            path,
            f"its {what} is {jet[i, c]:.6g} at t = {times[i]:.6g} s: a profile must stay finite, within "
            f"+-{PROFILE_MAGNITUDE:g}, over the run",
        )


def _unique(names, path):
    seen = set()
    for k, n in enumerate(names):
        if n in seen:
            raise ModelError(f"{path}[{k}].name", f"duplicate name '{n}'")
        seen.add(n)


def _check_body(b, path):
    check_text(b.name, f"{path}.name", MAX_NAME_LENGTH)
    mass = check_number(b.mass, f"{path}.mass")
    if mass <= 0:
        raise ModelError(f"{path}.mass", f"body '{b.name}': mass must be positive, got {b.mass!r}")
    check_number(mass, f"{path}.mass", kind="mass")
    if b.point_mass:
        _check_point_mass(b, path)
    else:
        _check_inertia(b, path)
    check_vector(b.position, f"{path}.position", kind="length")
    check_vector(b.velocity, f"{path}.velocity", kind="velocity")
    check_vector(b.angular_velocity, f"{path}.angular_velocity", kind="angular_velocity")
    q = np.asarray(check_vector(b.orientation, f"{path}.orientation", 4, kind="direction"))
    if np.linalg.norm(q) < MIN_QUATERNION_NORM:
        raise ModelError(f"{path}.orientation", f"body '{b.name}': quaternion must be non-zero")
    check_flag(b.grounded, f"{path}.grounded")
    check_flag(b.point_mass, f"{path}.point_mass")


def _check_point_mass(b: Body, path: str) -> None:
    """A point mass: no inertia (zeros) and no angular velocity."""
    I = np.asarray(check_inertia(b.inertia, f"{path}.inertia"), dtype=float)
    if I.shape != (3, 3) or np.any(I != 0.0):
        raise ModelError(f"{path}.inertia", f"body '{b.name}': a point mass has no inertia (leave 'inertia' out)")
    w = np.asarray(check_vector(b.angular_velocity, f"{path}.angular_velocity", kind="angular_velocity"), dtype=float)
    if np.any(w != 0.0):
        raise ModelError(
            f"{path}.angular_velocity", f"body '{b.name}': a point mass does not rotate (angular velocity must be 0)"
        )


def _check_inertia(b: Body, path: str) -> None:
    """A rigid body's inertia: finite, symmetric, positive definite, triangle inequality."""
    if b.inertia is None:
        raise ModelError(f"{path}.inertia", f"missing (body '{b.name}')")
    I = np.asarray(check_inertia(b.inertia, f"{path}.inertia"), dtype=float)
    if I.shape != (3, 3):
        raise ModelError(f"{path}.inertia", f"body '{b.name}': inertia must be a finite 3x3 tensor")
    if not np.allclose(I, I.T, rtol=1e-9, atol=1e-12 * max(1.0, np.abs(I).max())):
        raise ModelError(f"{path}.inertia", f"body '{b.name}': inertia tensor is not symmetric")
    p = np.linalg.eigvalsh(0.5 * (I + I.T))
    if p[0] <= 0:
        raise ModelError(
            f"{path}.inertia",
            f"body '{b.name}': inertia tensor is not positive definite (principal moments {p.tolist()})",
        )
    if p[0] < MIN_PRINCIPAL_INERTIA:
        raise ModelError(
            f"{path}.inertia",
            f"body '{b.name}': smallest principal moment {p[0]:g} kg m^2 is below {MIN_PRINCIPAL_INERTIA:g} kg m^2 "
            "(limits.MIN_PRINCIPAL_INERTIA)",
        )
    if p[0] + p[1] < p[2] * (1 - 1e-9):
        raise ModelError(
            f"{path}.inertia",
            f"body '{b.name}': principal moments {p.tolist()} violate the "
            "triangle inequality (I1 + I2 >= I3): no real mass distribution has them",
        )


def _body_ref(name, names, path, what):
    if name != GROUND and name not in names:
        raise ModelError(
            path, f"{what}: unknown body '{name}' (bodies: {', '.join(sorted(names)) or 'none'}, or '{GROUND}')"
        )


def _is_fixed(name, names):
    return name == GROUND or names[name].grounded


def _check_joint(model, j, names, path):
    what = f"joint '{j.name}'"
    _body_ref(j.body_i, names, f"{path}.body_i", what)
    _body_ref(j.body_j, names, f"{path}.body_j", what)
    if j.body_i == j.body_j:
        raise ModelError(f"{path}.body_j", f"{what}: connects body '{j.body_i}' to itself")
    if _is_fixed(j.body_i, names) and _is_fixed(j.body_j, names):
        raise ModelError(f"{path}.body_j", f"{what}: both sides ('{j.body_i}', '{j.body_j}') are ground or grounded")
    if j.type not in JOINT_TYPES:
        raise ModelError(f"{path}.type", f"{what}: unknown type {shown(j.type)} (one of {', '.join(JOINT_TYPES)})")
    if j.frame is None and (j.frame_i is None or j.frame_j is None):
        raise ModelError(f"{path}.frame", f"{what}: give 'frame' (global) or both 'frame_i' and 'frame_j'")
    for key in ("frame", "frame_i", "frame_j"):
        fr = getattr(j, key)
        if fr is not None:
            check_vector(fr.origin, f"{path}.{key}.origin", kind="length")
            check_vector(fr.z_axis, f"{path}.{key}.z_axis", kind="direction")
            if fr.x_axis is not None:
                check_vector(fr.x_axis, f"{path}.{key}.x_axis", kind="direction")
            frame_axes(fr, f"{path}.{key}", what)
    if j.type == "distance":
        _check_distance(model, j, path)
    elif JOINTS[j.type].takes_length:
        _check_axis_distance(model, j, path)
    else:
        for key in DISTANCE_FIELDS:
            if getattr(j, key) is not None:
                raise ModelError(f"{path}.{key}", f"{what}: only distance joints take '{key}'")
    _check_angle(model, j, path)
    _check_coupler(model, j, path)
    _check_point_mass_anchors(model, j, path)
    joint_rows(model, j, path)
    check_joint_limits(model, j, path)
    check_joint_friction(j, path)


def _check_distance(model: Model, j: Joint, path: str) -> None:
    """Anchors of a distance joint apart at the initial configuration, its length positive."""
    what = f"joint '{j.name}'"
    if j.frame is None and j.point_j is not None:
        raise ModelError(f"{path}.point_j", f"{what}: 'point_j' goes with a global 'frame', not 'frame_i'/'frame_j'")
    if j.frame is not None and j.point_j is None and j.body_j == GROUND:
        raise ModelError(f"{path}.point_j", f"{what}: give 'point_j' (the rod's end on the ground)")
    p_i, p_j = distance_anchors(model, j)
    if np.linalg.norm(p_j - p_i) <= COINCIDENT_TOL:  # the equation has no direction there
        raise ModelError(path, f"{what}: its two points coincide at the initial configuration")
    if j.length is not None and not (isinstance(j.length, (int, float)) and math.isfinite(j.length) and j.length > 0):
        raise ModelError(f"{path}.length", f"{what}: length must be a positive number of metres, got {j.length!r}")


def _check_axis_distance(model: Model, j: Joint, path: str) -> None:
    """A joint keeping a point at a distance from an axis: no point_j, a positive length (by
    default its initial distance, which must then be positive: the equation has no direction
    on the axis)."""
    what = f"joint '{j.name}'"
    if j.point_j is not None:
        raise ModelError(f"{path}.point_j", f"{what}: only distance joints take 'point_j'")
    if j.length is not None and not (isinstance(j.length, (int, float)) and math.isfinite(j.length) and j.length > 0):
        raise ModelError(f"{path}.length", f"{what}: length must be a positive number of metres, got {j.length!r}")
    if j.length is None and axis_distance(model, j) <= COINCIDENT_TOL:
        raise ModelError(path, f"{what}: the point lies on the axis at the initial configuration; give 'length'")


def _check_angle(model: Model, j: Joint, path: str) -> None:
    """The angle of an angle joint strictly between 0 and pi (at 0 or pi its one equation has
    no gradient: use a parallel joint); other joints take none."""
    what = f"joint '{j.name}'"
    if not JOINTS[j.type].takes_angle:
        if j.angle is not None:
            raise ModelError(f"{path}.angle", f"{what}: only angle joints take 'angle'")
        return
    angle = axis_angle(model, j) if j.angle is None else j.angle
    if not (
        isinstance(angle, (int, float)) and math.isfinite(angle) and MIN_AXIS_ANGLE <= angle <= math.pi - MIN_AXIS_ANGLE
    ):
        where = f"{path}.angle" if j.angle is not None else path
        raise ModelError(where, f"{what}: angle must lie in (0, pi) rad (0 or pi: a parallel joint), got {angle!r}")


def _check_coupler(model: Model, j: Joint, path: str) -> None:
    """The parameters of a coupler joint given (radii positive, pitch non-zero), no others; a
    gear or belt's frame origins apart across both z axes (its angles are those of the line
    of centres)."""
    what = f"joint '{j.name}' ({j.type})"
    wanted = JOINTS[j.type].parameters
    for key in COUPLER_PARAMETERS:
        value = getattr(j, key)
        if key not in wanted:
            if value is not None:
                takers = ", ".join(t.name for t in JOINTS.values() if key in t.parameters)
                raise ModelError(f"{path}.{key}", f"{what}: only {takers} joints take '{key}'")
        elif value is None:
            raise ModelError(f"{path}.{key}", f"{what}: give '{key}' [m]")
        elif not (isinstance(value, (int, float)) and math.isfinite(value)) or (value <= 0 and key != "pitch"):
            raise ModelError(f"{path}.{key}", f"{what}: '{key}' must be a positive number of metres, got {value!r}")
        elif value == 0:
            raise ModelError(f"{path}.{key}", f"{what}: the pitch must not be 0")
    if "radius_i" in wanted:
        _check_centres_apart(model, j, path, what)


def _check_centres_apart(model: Model, j: Joint, path: str, what: str) -> None:
    """The origin of each frame of a gear or belt lies off the other frame's z axis."""
    frames = []
    for side in ("i", "j"):
        fr = j.frame if j.frame is not None else getattr(j, "frame_" + side)
        x, y, _ = frame_axes(fr, f"{path}.frame_{side}", what)
        r, A = (np.zeros(3), np.eye(3)) if j.frame is not None else initial_pose(model, getattr(j, "body_" + side))
        frames.append((r + A @ np.asarray(fr.origin, float), A @ x, A @ y))
    for (o, x, y), (o_other, _, _) in zip(frames, frames[::-1]):
        d = o_other - o
        if math.hypot(float(x @ d), float(y @ d)) <= COINCIDENT_TOL:
            raise ModelError(
                f"{path}.frame_j" if j.frame is None else f"{path}.frame",
                f"{what}: the frame origins must be apart across the z axes (the line of centres sets the angles)",
            )


def _check_point_mass_anchors(model: Model, j: Joint, path: str) -> None:
    """Joint j attaches to each of its point masses at the point mass's centre."""
    for side in ("i", "j"):
        name = getattr(j, "body_" + side)
        if is_point_mass(model, name):
            _check_at_centre(model, name, joint_anchor(model, j, side), path, f"joint '{j.name}'")


def _check_at_centre(model: Model, name: str, point, path: str, what: str) -> None:
    """A global point [m] at the initial configuration lies at point mass ``name``'s centre."""
    off = float(np.linalg.norm(np.asarray(point, float) - np.asarray(model.body(name).position, float)))
    if off > COINCIDENT_TOL:
        raise ModelError(
            path,
            f"{what}: attaches to point mass '{name}' {off:.3g} m from its centre (a point mass has only its centre)",
        )


def _find_joint(model, name, path, what):
    for j in model.joints:
        if j.name == name:
            return j
    raise ModelError(path, f"{what}: unknown joint '{name}'")


def _check_force_refs(model, f, names: dict, path: str) -> None:
    """Check the bodies and joints a force names, field by field in catalogue order."""
    what = f"force '{f.name}'"
    check_force_type(f.type, f"{path}.type", what)
    previous_body = None
    for spec in FORCES[f.type].fields:
        value, where = getattr(f, spec.name), f"{path}.{spec.name}"
        if spec.kind in ("moving_body", "body", "other_body"):
            _body_ref(value, names, where, what)
        if spec.kind == "moving_body" and _is_fixed(value, names):
            raise ModelError(where, f"{what}: acts on the fixed body '{value}'")
        if spec.kind == "other_body" and value == previous_body:
            raise ModelError(where, f"{what}: connects body '{value}' to itself")
        if spec.kind in ("body", "other_body"):
            previous_body = value
        if spec.kind == "rotational_joint":
            _check_rotational_joint(model, value, where, what)
    _check_point_mass_force(model, f, path)


def _check_point_mass_force(model: Model, f, path: str) -> None:
    """Forces on point masses act at their centre and carry no torque."""
    what = f"force '{f.name}'"
    for spec in FORCES[f.type].fields:
        if spec.kind == "point":  # the point of the body field with the same suffix (point_i: body_i)
            body = getattr(f, "body" + spec.name[len("point") :])
            point = getattr(f, spec.name)
            if point is not None and is_point_mass(model, body):
                _check_at_centre(model, body, point, f"{path}.{spec.name}", what)
        if spec.name == "torque" and is_point_mass(model, f.body):
            raise ModelError(
                f"{path}.body", f"{what}: a torque cannot act on point mass '{f.body}' (it has no rotation)"
            )
        if spec.kind == "rotational_joint":
            joint = model.joint(getattr(f, spec.name))
            for name in (joint.body_i, joint.body_j):
                if is_point_mass(model, name):
                    raise ModelError(
                        f"{path}.{spec.name}", f"{what}: joint '{joint.name}' cannot turn point mass '{name}'"
                    )


def _check_force_values(f, path: str) -> None:
    """Check the numbers of a force (fields of kind point, nonneg, number) against the
    range their ForceField names (limits.RANGES)."""
    for spec in FORCES[f.type].fields:
        value, where = getattr(f, spec.name), f"{path}.{spec.name}"
        if value is None and spec.default is None:
            continue
        if spec.kind == "point":
            check_vector(value, where, kind=spec.range)
        elif spec.kind in ("nonneg", "number"):
            check_number(value, where, nonnegative=spec.kind == "nonneg", kind=spec.range)
        elif spec.kind == "frame" and (not isinstance(value, str) or value not in ("global", "body")):
            raise ModelError(where, "must be 'global' or 'body'")


def _check_rotational_joint(model, name: str, path: str, what: str) -> None:
    joint = _find_joint(model, name, path, what)
    driven = joints_driven_by("rotational")
    if joint.type not in driven:
        raise ModelError(path, f"{what}: needs a {' or '.join(driven)} joint, '{joint.name}' is {joint.type}")


def with_settings(model: Model, overrides: dict) -> Model:
    """A shallow copy of ``model`` whose settings have the non-None ``overrides`` applied
    and validated (TypeError for an unknown setting name)."""
    settings = copy.copy(model.settings)
    for key, value in overrides.items():
        if value is not None:
            if not hasattr(settings, key):
                raise TypeError(f"unknown setting '{key}'")
            setattr(settings, key, value)
    validate_settings(settings)
    settings = settings.resolved()  # the integrator's own step and rtol where they are None
    model = copy.copy(model)
    model.settings = settings
    return model
