"""Checks of the contact pairs before a run (docs/contact.md, "Checks before the run"): a
``tunnelling`` warning where speed x step can carry a shape through the thinnest one of its pair,
a ``contact_unresolved`` warning where a fixed step is too long for an impact's contact time, and a
``contact`` warning for each pair without an exact kind (approximated by its shapes' tessellations).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import beta

from .model.catalog import INTEGRATORS
from .model.contacts import (
    STEPS_PER_CONTACT,
    TUNNEL_FRACTION,
    contact_law,
    contact_points,
    deflection,
    mesh_of,
    penetration,
    tessellated,
)
from .model.mesh_shapes import thickness
from .model.sphere_pairs import initial_depths, pair_laws, sphere_pairs
from .results.status import RunWarning


def thinnest(c) -> float:
    """The thinnest dimension [m] of a pair's shapes: a sphere's or cylinder's radius, a box's shortest edge,
    a face's depth, a torus's tube radius, a cone's length or larger radius, a mesh's shortest bounding-box
    edge (a plane bounds a half-space: infinite)."""
    sizes = [math.inf]
    for s in (c.shape_a, c.shape_b):
        if s.type == "sphere" and s.radius > 0:
            sizes.append(s.radius)
        elif s.type == "cylinder":
            sizes.append(s.radius)
        elif s.type == "face":
            sizes.append(s.depth)
        elif s.type == "box":
            sizes.append(min(s.size))
        elif s.type == "torus":
            sizes.append(s.minor_radius)
        elif s.type == "cone":
            sizes.append(min(s.length, max(s.radius1, s.radius2)))
        elif s.type == "mesh":
            sizes.append(thickness(mesh_of(s, f"contact '{c.name}'", c.name)[0]))
    return min(sizes)


def approach_speed(model, c, points: list | None = None) -> float:
    """The relative speed [m/s] the pair may reach: its initial relative speed plus
    sqrt(2 |g| gap), the speed gained falling through its initial gap (``points``: the pair's
    contact points, when known)."""
    v = [np.zeros(3) if n == "ground" else np.asarray(model.body(n).velocity, float) for n in (c.body_a, c.body_b)]
    points = contact_points(model, c) if points is None else points
    gap = max(0.0, -max(penetration(p) for p in points))
    return float(np.linalg.norm(v[0] - v[1])) + math.sqrt(2.0 * float(np.linalg.norm(model.gravity)) * gap)


def pair_mass(model, c) -> float:
    """The reduced mass [kg] of the pair's moving bodies (a fixed body: infinite mass)."""
    bodies = [model.body(n) for n in {c.body_a, c.body_b} if n != "ground"]
    inverse = sum(1.0 / b.mass for b in bodies if not b.grounded)
    return 1.0 / inverse


def contact_warnings(model, settings, t0: float = 0.0, system=None) -> list[RunWarning]:
    """The warnings of every enabled pair of ``model`` for a run with ``settings`` (resolved:
    its step set), in the order of the pairs; a contact group's pairs give one warning of each
    kind, naming its worst pair and how many of its pairs it concerns. The step is ``step`` for the
    fixed-step integrators, else the output step (an adaptive step never crosses an output time).
    ``system``: the model's System, whose pairs' laws and contact points are used, not made again."""
    fixed = "fixed step" in INTEGRATORS[settings.integrator].description
    h = settings.step if fixed else settings.output_step
    index, v, thin, stiffness, exponent, mass = pair_values(model, fixed, system)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        tunnel = v * h / (TUNNEL_FRACTION * thin)  # above 1: a warning
        tc = contact_times(stiffness, exponent, mass, v) if fixed else np.full(len(v), np.inf)
        short = np.where(v > 0, STEPS_PER_CONTACT * h / tc, 0.0)  # above 1: a warning
    found = []
    for rank, kind, excess in ((0, "tunnelling", tunnel), (1, "contact_unresolved", short)):
        for p in np.flatnonzero(excess > 1.0):
            found.append((index[p], rank, kind, excess[p], p))
    approximated = [
        (k, -1, approximation_warning(c, t0))
        for k, c in enumerate(getattr(model, "contacts", []))
        if c.enabled and tessellated(c)
    ]
    return _grouped(model.contacts, found, index, t0, (v, thin, tc, h), approximated)


def _grouped(contacts: list, found: list, index: np.ndarray, t0: float, values: tuple, first: list) -> list[RunWarning]:
    """The warnings of the pairs ``found`` ((pair index, rank, kind, excess, p)), a group's by kind
    as one naming its worst pair, in the order of the pairs (at a group's worst pair), with the
    warnings ``first`` ((pair index, rank, RunWarning)) among them."""
    groups: dict[tuple, list] = {}
    for row in found:
        groups.setdefault((contacts[row[0]].group or row[0], row[2]), []).append(row)
    sizes: dict = {}
    for k in index.tolist():
        sizes[contacts[k].group] = sizes.get(contacts[k].group, 0) + 1
    out = list(first)
    for (group, kind), rows in groups.items():
        k, rank, kind, _, p = max(rows, key=lambda r: (r[3], -r[0]))
        message = _message(kind, contacts[k].name, *(x[p] if isinstance(x, np.ndarray) else x for x in values))
        if contacts[k].group is not None:
            message = f"contact group '{group}': {len(rows)} of its {sizes[group]} pairs; the worst, {message}"
        out.append((k, rank, RunWarning(kind, message, t0, (contacts[k].name,))))
    return [w for _, _, w in sorted(out, key=lambda r: r[:2])]


def _message(kind: str, name: str, v: float, thin: float, tc: float, h: float) -> str:
    """A pair's warning of ``kind``: speed v [m/s], thinnest shape [m], contact time tc [s], step h [s]."""
    if kind == "tunnelling":
        return (
            f"contact '{name}': at {v:.3g} m/s a step of {h:g} s moves {v * h:.3g} m, more than half "
            f"its thinnest shape ({thin:.3g} m): the shapes may pass through each other (a step below "
            f"{TUNNEL_FRACTION * thin / v:.2g} s)"
        )
    return (
        f"contact '{name}': an impact at {v:.3g} m/s lasts {tc:.3g} s, {tc / h:.3g} steps of "
        f"{h:g} s: its peak force needs at least {STEPS_PER_CONTACT} (a step of "
        f"{tc / STEPS_PER_CONTACT:.2g} s or an adaptive integrator)"
    )


def contact_times(stiffness, exponent, mass, speed) -> np.ndarray:
    """:func:`.model.contacts.contact_time` of arrays: the elastic impacts' durations [s]."""
    m = np.asarray(exponent, float) + 1.0
    d_max = (m * mass * speed**2 / (2.0 * stiffness)) ** (1.0 / m)
    return 2.0 * d_max / speed * beta(1.0 / m, 0.5) / m


def pair_values(model, with_law: bool, system=None) -> tuple[np.ndarray, ...]:
    """(pair indices, approach speeds [m/s], thinnest shapes [m], law stiffness, exponent (NaN
    without ``with_law``), reduced masses [kg]) of the enabled pairs of ``model``, in pair order:
    the sphere-sphere pairs with NumPy (model/sphere_pairs.py), the others pair by pair (with the
    laws and contact points of ``system``, the model's System, when given)."""
    contacts = getattr(model, "contacts", [])
    sp = sphere_pairs(contacts)
    rows = _sphere_values(model, sp, with_law)
    fast = set(sp.index.tolist())
    laws, points = (system.contact_laws, system.contact_points) if system is not None else ({}, {})
    for k, c in enumerate(contacts):
        if c.enabled and k not in fast:
            law = (laws[k] if laws else contact_law(c, f"contacts[{k}]")) if with_law else None
            K, n = (law.stiffness, law.exponent) if law else (math.nan, math.nan)
            speed = approach_speed(model, c, points.get(k))
            rows.append(np.array([[k, speed, thinnest(c), K, n, pair_mass(model, c)]]))
    table = np.concatenate(rows) if rows else np.zeros((0, 6))
    table = table[np.argsort(table[:, 0], kind="stable")]
    return (table[:, 0].astype(np.int64), *table[:, 1:].T)


def _sphere_values(model, sp, with_law: bool) -> list[np.ndarray]:
    """pair_values' rows of the sphere-sphere pairs ``sp``: the gap from their initial depths."""
    if not len(sp.index):
        return []
    velocity, inverse_mass = np.zeros((len(sp.names), 3)), np.zeros(len(sp.names))
    for k, name in enumerate(sp.names):
        if name != "ground":
            body = model.body(name)
            velocity[k] = np.asarray(body.velocity, float)
            inverse_mass[k] = 0.0 if body.grounded else 1.0 / body.mass
    a, b = sp.a, sp.b
    gap = np.maximum(0.0, -initial_depths(model, sp))
    g = float(np.linalg.norm(model.gravity))
    v = np.linalg.norm(velocity[a] - velocity[b], axis=1) + np.sqrt(2.0 * g * gap)
    thin = np.fmin(np.where(sp.radius_a > 0, sp.radius_a, np.inf), np.where(sp.radius_b > 0, sp.radius_b, np.inf))
    K = n = np.full(len(v), math.nan)
    if with_law:
        laws, which = pair_laws(model.contacts, sp)
        K, n = (np.array([getattr(x, key) for x in laws])[which] for key in ("stiffness", "exponent"))
    return [np.column_stack([sp.index, v, thin, K, n, 1.0 / (inverse_mass[a] + inverse_mass[b])])]


def approximation_warning(c, t0: float) -> RunWarning:
    """The ``contact`` warning of a pair without an exact kind, computed from its shapes' tessellations."""
    return RunWarning(
        "contact",
        f"contact '{c.name}': {c.shape_a.type}-{c.shape_b.type} has no exact kind: approximated by the "
        f"tessellations of its shapes (vertices only, deflection {deflection(c) * 1e3:g} mm)",
        t0,
        (c.name,),
    )
