"""Checks of the contact pairs before a run (docs/contact.md, "Checks before the run"): a
``tunnelling`` warning where speed x step can carry a shape through the thinnest one of its pair,
a ``contact_unresolved`` warning where a fixed step is too long for an impact's contact time, and a
``contact`` warning for each pair without an exact kind (approximated by its shapes' tessellations).
"""

from __future__ import annotations

import math

import numpy as np

from .model.catalog import INTEGRATORS
from .model.contacts import (
    STEPS_PER_CONTACT,
    TUNNEL_FRACTION,
    contact_law,
    contact_points,
    contact_time,
    deflection,
    mesh_of,
    penetration,
    tessellated,
)
from .model.mesh_shapes import thickness
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


def approach_speed(model, c) -> float:
    """The relative speed [m/s] the pair may reach: its initial relative speed plus
    sqrt(2 |g| gap), the speed gained falling through its initial gap."""
    v = [np.zeros(3) if n == "ground" else np.asarray(model.body(n).velocity, float) for n in (c.body_a, c.body_b)]
    gap = max(0.0, -max(penetration(p) for p in contact_points(model, c)))
    return float(np.linalg.norm(v[0] - v[1])) + math.sqrt(2.0 * float(np.linalg.norm(model.gravity)) * gap)


def pair_mass(model, c) -> float:
    """The reduced mass [kg] of the pair's moving bodies (a fixed body: infinite mass)."""
    bodies = [model.body(n) for n in {c.body_a, c.body_b} if n != "ground"]
    inverse = sum(1.0 / b.mass for b in bodies if not b.grounded)
    return 1.0 / inverse


def contact_warnings(model, settings, t0: float = 0.0) -> list[RunWarning]:
    """The warnings of every enabled pair of ``model`` for a run with ``settings`` (resolved:
    its step set). The step is ``step`` for the fixed-step integrators, else the output step
    (an adaptive step never crosses an output time)."""
    fixed = "fixed step" in INTEGRATORS[settings.integrator].description
    h = settings.step if fixed else settings.output_step
    out = []
    for k, c in enumerate(getattr(model, "contacts", [])):
        if not c.enabled:
            continue
        if tessellated(c):
            out.append(approximation_warning(c, t0))
        v, thin = approach_speed(model, c), thinnest(c)
        if v * h > TUNNEL_FRACTION * thin:
            out.append(
                RunWarning(
                    "tunnelling",
                    f"contact '{c.name}': at {v:.3g} m/s a step of {h:g} s moves {v * h:.3g} m, more than half "
                    f"its thinnest shape ({thin:.3g} m): the shapes may pass through each other (a step below "
                    f"{TUNNEL_FRACTION * thin / v:.2g} s)",
                    t0,
                    (c.name,),
                )
            )
        if fixed and v > 0:
            tc = contact_time(contact_law(c, f"contacts[{k}]"), pair_mass(model, c), v)
            if tc < STEPS_PER_CONTACT * h:
                out.append(
                    RunWarning(
                        "contact_unresolved",
                        f"contact '{c.name}': an impact at {v:.3g} m/s lasts {tc:.3g} s, {tc / h:.3g} steps of "
                        f"{h:g} s: its peak force needs at least {STEPS_PER_CONTACT} (a step of "
                        f"{tc / STEPS_PER_CONTACT:.2g} s or an adaptive integrator)",
                        t0,
                        (c.name,),
                    )
                )
    return out


def approximation_warning(c, t0: float) -> RunWarning:
    """The ``contact`` warning of a pair without an exact kind, computed from its shapes' tessellations."""
    return RunWarning(
        "contact",
        f"contact '{c.name}': {c.shape_a.type}-{c.shape_b.type} has no exact kind: approximated by the "
        f"tessellations of its shapes (vertices only, deflection {deflection(c) * 1e3:g} mm)",
        t0,
        (c.name,),
    )
