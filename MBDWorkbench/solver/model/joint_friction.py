"""Coulomb joint friction in the model: reading and checking a joint's ``friction`` field
(docs/joint-friction.md). The law itself is solved in :mod:`..system.friction`.

A joint's friction is a contact with a load N [N] taken from the joint's own reaction and one
or more slip directions (channels), each with its lever arm: the friction force at the contact
is at most mu_s N while the joint sticks and mu_k N while it slips.

    revolute     N = |F_radial| + 2 |M_bending| / L_pin    torque mu r_pin N about the axis
    cylindrical  N = |F_radial| + 2 |M_bending| / L_pin    torque and force share mu N (one cone)
    prismatic    N = |F_normal| + 2 |M| / L_contact         force mu N along the axis
    spherical    N = |F|                                    torque mu r_ball N

A length left out drops the moment term (the moment is then carried elsewhere).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ModelError
from .fields import check_number, shown
from .schema import Friction, Joint

FRICTION_FIELDS: tuple[str, ...] = ("mu_s", "mu_k", "pin_radius", "pin_length", "ball_radius", "contact_length")
MAX_COEFFICIENT = 10.0  # a friction coefficient above this is a typo, not a material


@dataclass(frozen=True)
class FrictionGeometry:
    """What a joint type's friction takes: its channels (``angle``: rotation about the joint's z
    axis, ``displacement``: translation along it, ``ball``: the three relative rotations), the
    field of its radius (None: none) and of its length (None: none)."""

    channels: tuple[str, ...]
    radius: str | None
    length: str | None


GEOMETRY: dict[str, FrictionGeometry] = {
    "revolute": FrictionGeometry(("angle",), "pin_radius", "pin_length"),
    "cylindrical": FrictionGeometry(("angle", "displacement"), "pin_radius", "pin_length"),
    "prismatic": FrictionGeometry(("displacement",), None, "contact_length"),
    "spherical": FrictionGeometry(("ball",), "ball_radius", None),
}


def parse_friction(value: object, path: str, name: str) -> Friction:
    """A Friction from the JSON object of joint ``name``; ModelError naming the field."""
    if not isinstance(value, dict):
        raise ModelError(path, f"joint '{name}': must be an object with fields {', '.join(FRICTION_FIELDS)}, "
                         f"got {shown(value)}")  # fmt: skip
    unknown = sorted(set(value) - set(FRICTION_FIELDS))
    if unknown:
        raise ModelError(f"{path}.{unknown[0]}", f"joint '{name}': unknown field (one of {', '.join(FRICTION_FIELDS)})")
    return Friction(**{k: check_number(v, f"{path}.{k}") for k, v in value.items()})


def check_joint_friction(j: Joint, path: str) -> None:
    """Joint j's friction: on a joint type that has it, coefficients 0 <= mu_k <= mu_s, the
    type's radius given and positive, lengths positive, no field of another type. A friction
    given as a dict (Python API) is replaced by its Friction."""
    if j.friction is None:
        return
    what, path = f"joint '{j.name}' ({j.type})", f"{path}.friction"
    if isinstance(j.friction, dict):
        j.friction = parse_friction(j.friction, path, j.name)
    geometry = GEOMETRY.get(j.type)
    if geometry is None:
        raise ModelError(path, f"{what}: friction is modelled on {', '.join(GEOMETRY)} joints only")
    f = j.friction
    _check_coefficients(f, path, what)
    for key in FRICTION_FIELDS[2:]:
        value = getattr(f, key)
        if value is None:
            continue
        if key not in (geometry.radius, geometry.length):
            raise ModelError(f"{path}.{key}", f"{what}: a {j.type} joint's friction has no {key}")
        if check_number(value, f"{path}.{key}", kind="length") <= 0.0:
            raise ModelError(f"{path}.{key}", f"{what}: {key} must be positive, got {value:g} m")
    if geometry.radius is not None and getattr(f, geometry.radius) is None:
        raise ModelError(f"{path}.{geometry.radius}", f"{what}: friction needs the {geometry.radius} [m]")


def _check_coefficients(f: Friction, path: str, what: str) -> None:
    if f.mu_s is None:
        raise ModelError(f"{path}.mu_s", f"{what}: friction needs the static coefficient mu_s")
    for key in ("mu_s", "mu_k"):
        value = getattr(f, key)
        if value is not None and not 0.0 <= check_number(value, f"{path}.{key}") <= MAX_COEFFICIENT:
            raise ModelError(f"{path}.{key}", f"{what}: {key} must lie in [0, {MAX_COEFFICIENT:g}], got {value:g}")
    if f.mu_k is not None and f.mu_k > f.mu_s:
        raise ModelError(f"{path}.mu_k", f"{what}: mu_k {f.mu_k:g} must not exceed mu_s {f.mu_s:g}")


def kinetic_coefficient(f: Friction) -> float:
    """mu_k, or mu_s when it is left out."""
    return float(f.mu_s if f.mu_k is None else f.mu_k)


def has_friction(joint: Joint) -> bool:
    """Whether the joint has friction with a nonzero coefficient."""
    return joint.friction is not None and float(joint.friction.mu_s) > 0.0
