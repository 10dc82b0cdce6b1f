"""Joints from picked geometry (sub-elements of parts), in global mm.

A pick is ``(root, subname)`` as FreeCAD's selection reports it with full paths
(``Gui.Selection.getSelectionEx("", 0)``): ``root`` a top-level object, ``subname`` the path
to an element, e.g. ``"Face3"`` or ``"Part.Cylinder.Edge2"``. What each element gives, and how
one or two elements make a joint frame: :mod:`.element_frames`. A joint made from picks keeps
them as its references (:mod:`.joint_references`): its frame follows the CAD on recompute.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..solver.model.catalog import JOINT_TYPES
from .element_frames import ElementFrame, element_frame, element_name, frame_from_elements, pick_shape
from .errors import CadError
from .joint_references import set_joint_references
from .makers import check_part, make_body, make_joint
from .objects import body_of_part, find_objects

if TYPE_CHECKING:
    import FreeCAD as App


# ----------------------------------------------------------------------------- picks
def pick_part(
    root: App.DocumentObject, subname: str, known_parts: Sequence[App.DocumentObject] = ()
) -> App.DocumentObject:
    """The object a pick belongs to as a part: one of ``known_parts`` on its path if any
    (outermost first), else the PartDesign Body holding the leaf feature, else the leaf."""
    path = [o for o in root.getSubObjectList(subname) if o is not None]
    for obj in path:
        if obj in known_parts:
            return obj
    leaf = path[-1] if path else root
    parent = path[-2] if len(path) >= 2 else None
    if parent is not None and parent.TypeId == "PartDesign::Body":
        return parent
    for body in getattr(leaf, "InList", []):
        if body.TypeId == "PartDesign::Body" and leaf in getattr(body, "Group", []):
            return body
    return leaf


def describe_pick(part: App.DocumentObject, subname: str) -> str:
    return "%s of %s" % (element_name(subname) or "shape", part.Label)


def pick_frame(
    root: App.DocumentObject, subname: str, known_parts: Sequence[App.DocumentObject] = ()
) -> tuple[App.DocumentObject, ElementFrame]:
    """(part object, ElementFrame) of one pick."""
    part = pick_part(root, subname, known_parts)
    if not element_name(subname):
        raise CadError("%s: pick a vertex, an edge or a face, not the whole object" % part.Label)
    return part, element_frame(pick_shape(root, subname), describe_pick(part, subname))


def make_joint_from_picks(
    doc: App.Document,
    jtype: str,
    picks: Sequence[tuple[App.DocumentObject, str]],
    label: str | None = None,
    simulation: App.DocumentObject | None = None,
) -> App.DocumentObject:
    """A joint of type ``jtype`` from one pick (joint to the ground) or two picks on two
    parts; parts without a Body get one (steel). Everything is checked before anything is
    created, so on CadError the document is unchanged. The joint keeps the picks as its
    references: its frames follow the CAD (:mod:`.joint_references`)."""
    name = label or jtype.capitalize()
    if not 1 <= len(picks) <= 2:
        raise CadError(
            "joint '%s': select one element (joint to the ground) or two elements on two "
            "different parts, got %d" % (name, len(picks))
        )
    known = [b.Part for b in find_objects(doc, "Body") if b.Part is not None]
    resolved = [pick_frame(root, sub, known) for root, sub in picks]
    parts = [p for p, _ in resolved]
    if len(parts) == 2 and parts[0] == parts[1]:
        raise CadError(
            "joint '%s': both picked elements are on the same part '%s' (a joint needs two "
            "different parts)" % (name, parts[0].Label)
        )
    frame = frame_from_elements(jtype, [f for _, f in resolved], "joint '%s'" % name)
    bodies = [body_of_part(doc, p) for p in parts]
    for part, body in zip(parts, bodies):
        if body is None:
            check_part(part)
    if jtype not in JOINT_TYPES:
        raise CadError("joint '%s': unknown joint type %r (one of %s)" % (name, jtype, ", ".join(JOINT_TYPES)))
    bodies = [b if b is not None else make_body(doc, p, simulation=simulation) for b, p in zip(bodies, parts)]
    body1, body2 = (None, bodies[0]) if len(bodies) == 1 else bodies
    refs = [f.description for _, f in resolved]
    refs = ["ground"] + refs if len(refs) == 1 else refs
    obj = make_joint(doc, jtype, body1, body2, frame, label=label, references=tuple(refs), simulation=simulation)
    set_joint_references(obj, picks)  # a coupler's Frame2: its last pick's own frame (radii, pitch: the user's)
    return obj
