"""The Contact document object (docs/contact.md, "Contact in FreeCAD"): two bodies, or two faces
of their parts, that push on each other where they overlap; or, with ``AllPairs``, every pair
among a list of bodies except those joined directly by a joint. The law's fields are those of
the model's contact pairs (:mod:`..solver.model.contacts`): lengths and speeds in FreeCAD's
units (mm, mm/s), the stiffness in N/m^n (its unit depends on the exponent n), the rest
dimensionless. :mod:`.contact_import` turns the object into the model's contact pairs.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from ..solver.model.contacts import FRICTION_LAWS, LAWS, MATERIALS
from .force_fields import PRECISION
from .objects import BaseProxy, find_objects

if TYPE_CHECKING:
    import FreeCAD as App

CONTACT_MATERIALS = tuple(MATERIALS)
DEFAULT_DEFLECTION_MM = 0.1  # chord deflection of the tessellation of a non-analytic solid


class ContactProxy(BaseProxy):
    """A contact pair (or, with AllPairs, the pairs among ``Bodies``) and its law."""

    Type = "Contact"

    def properties(self) -> list[tuple]:
        g, law = "Contact", "Contact law"
        return [
            ("App::PropertyLink", "Body1", g, "First body"),
            ("App::PropertyString", "Face1", g, "Face of Body1's part (e.g. Face6; empty: the whole solid)", ""),
            ("App::PropertyLink", "Body2", g, "Second body"),
            ("App::PropertyString", "Face2", g, "Face of Body2's part (empty: the whole solid)", ""),
            ("App::PropertyBool", "AllPairs", g, "Every pair among Bodies, except pairs joined by a joint", False),
            ("App::PropertyLinkList", "Bodies", g, "The bodies of AllPairs"),
            ("App::PropertyBool", "Enabled", g, "Off: the contact is left out of the model", True),
            (PRECISION, "Stiffness", law, "K of F = K d^n [N/m^n]; 0: Hertz from the materials", 0.0),
            ("App::PropertyFloat", "Exponent", law, "n of F = K d^n (Hertz: 1.5)", 1.5),
            ("App::PropertyEnumeration", "Material1", law, "Material of Body1 (Hertz)", None, None, CONTACT_MATERIALS),
            ("App::PropertyEnumeration", "Material2", law, "Material of Body2 (Hertz)", None, None, CONTACT_MATERIALS),
            ("App::PropertyFloat", "Restitution", law, "Coefficient of restitution e in (0, 1]", 0.8),
            ("App::PropertyEnumeration", "Law", law, "Damping law from e (docs/contact.md)", None, None, LAWS),
            ("App::PropertyFloat", "StaticFriction", law, "mu_s (0: no friction)", 0.0),
            ("App::PropertyFloat", "KineticFriction", law, "mu_k, at most mu_s (negative: mu_s)", -1.0),
            ("App::PropertySpeed", "SlipSpeed", law, "Slip speed of the regularised friction [mm/s]", 1.0),
            (
                "App::PropertyEnumeration",
                "FrictionLaw",
                law,
                "regularised (creeps below SlipSpeed) or stiction (sticks: ODE-form integrators)",
                None,
                None,
                FRICTION_LAWS,
            ),
            ("App::PropertyLength", "PenetrationTolerance", law, "Initial overlap allowed [mm]", 1e-3),
            ("App::PropertyLength", "Deflection", g, "Chord deflection of a tessellated solid [mm]", 0.1),
            (
                "App::PropertyBool",
                "BoundedFaces",
                g,
                "A picked rectangular plane face counts within its edges only",
                False,
            ),
        ]


def jointed_pairs(doc: App.Document) -> set[frozenset]:
    """{frozenset(body names)} of the bodies joined directly by a joint of ``doc``."""
    pairs = set()
    for joint in find_objects(doc, "Joint"):
        sides = [getattr(joint, "Body%d" % k) for k in (1, 2)]
        if all(side is not None for side in sides):
            pairs.add(frozenset(side.Name for side in sides))
    return pairs


def contact_sides(obj: App.DocumentObject) -> list[tuple]:
    """The pairs of a Contact object: [((body, face), (body, face))], face '' for the whole solid.
    AllPairs: every pair of ``Bodies`` (whole solids) not joined directly by a joint nor both
    grounded (neither could move)."""
    if not obj.AllPairs:
        return [((obj.Body1, obj.Face1.strip()), (obj.Body2, obj.Face2.strip()))]
    jointed = jointed_pairs(obj.Document)
    bodies = list(dict.fromkeys(b for b in obj.Bodies if b is not None))
    return [
        ((a, ""), (b, ""))
        for a, b in combinations(bodies, 2)
        if frozenset((a.Name, b.Name)) not in jointed and not (a.Grounded and b.Grounded)
    ]
