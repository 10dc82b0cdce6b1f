"""Parametric joints: a joint keeps the elements it was picked on and recomputes its frames from
their current geometry, so editing the CAD (a part's Placement, a cylinder's Radius) moves it.

Properties of a Joint (:class:`.objects.JointProxy`), all global mm:

* ``References1`` / ``References2`` (``App::PropertyLinkSubGlobal``: root object and the path of
  one sub-element, as the selection gives it, e.g. ``(Assembly, ["Cyl.Edge3"])``): the element on
  Body1's part and the one on Body2's part. A joint to the ground (Body1 empty) has References2
  only. Not an ``App::PropertyXLinkSub`` (the Assembly workbench's kind): FreeCAD 1.0 cannot undo
  the creation of an object whose XLinkSub was set in the same transaction (the undo fails with
  "invalid container", leaves a nameless object behind and a later recompute crashes), and
  "Create joint" is one undo step.
* ``Offset1``: the joint frame relative to the frame its elements give (the flip, offset along z
  and rotation about z of the joint panels); ``Offset2`` the same for ``Frame2``.
* ``Parametric``: the frames follow the references; ``Frame`` (and ``Frame2``) are then computed
  outputs, read-only in the property editor. False (documents written before this existed, and
  joints imported from an Assembly, which the import updates itself): ``Frame`` is kept as stored.

``Frame = frame_from_elements(type, [each reference's element frame]) * Offset1`` and, for joints
with a second frame (SeparateFrames, coupler joints), ``Frame2 = frame_from_elements(type, [the
last reference's element frame]) * Offset2``: the rules of :mod:`.element_frames`, the same that
made the joint from its picks. ``Reference1/2`` (strings) stay the human-readable descriptions
("Edge3 of Crank") written when the elements were picked.

A reference whose object was deleted or whose sub-element is gone (``Face7`` after a topology
change) raises :class:`CadError` naming the joint and the reference: the joint's recompute fails
(FreeCAD marks it in the tree) and Check / Solve report it (the model reads the frames through
:func:`joint_frames`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..solver.model.catalog import JOINTS
from .element_frames import ElementFrame, element_frame, element_name, frame_from_elements, pick_shape
from .errors import CadError

if TYPE_CHECKING:
    import FreeCAD as App

SIDES = (1, 2)


def is_parametric(joint: App.DocumentObject) -> bool:
    """True when the joint's frames follow its references."""
    return bool(getattr(joint, "Parametric", False))


def uses_second_frame(joint: App.DocumentObject) -> bool:
    """True when the joint has a Frame2 of its own (SeparateFrames, coupler joints)."""
    return bool(getattr(joint, "SeparateFrames", False)) or bool(JOINTS[joint.JointType].parameters)


def _subname(link) -> str:
    """The element path of a link value (root, [path]) (a bare string taken as the path)."""
    subs = link[1]
    return subs if isinstance(subs, str) else (list(subs) or [""])[0]


def _reference_text(joint: App.DocumentObject, k: int, link) -> str:
    """'References2 (Cyl.Edge3, picked as Edge3 of Cyl)' for messages."""
    picked = str(getattr(joint, "Reference%d" % k, "") or "")
    where = "%s.%s" % (link[0].Label, _subname(link)) if link is not None and link[0] is not None else "empty"
    return "References%d (%s%s)" % (k, where, ", picked as %s" % picked if picked not in ("", "ground") else "")


def _element_frames(joint: App.DocumentObject) -> list[ElementFrame]:
    """ElementFrames of the joint's references (References1 first), from the current geometry;
    CadError naming the joint and the reference when one is empty, deleted or gone."""
    what = "joint '%s'" % joint.Label
    frames = []
    for k in SIDES:
        link = getattr(joint, "References%d" % k)
        text = _reference_text(joint, k, link)
        if link is None or link[0] is None:
            if str(getattr(joint, "Reference%d" % k, "") or "") not in ("", "ground"):
                raise CadError("%s: %s: the referenced object was deleted; pick the element again" % (what, text))
            continue
        sub = _subname(link)
        if not element_name(sub):
            raise CadError("%s: %s: names no vertex, edge or face; pick an element" % (what, text))
        try:
            shape = pick_shape(link[0], sub)
        except CadError as exc:
            raise CadError(
                "%s: %s: the element is gone (%s; a topology change removes elements); pick the element again"
                % (what, text, exc)
            ) from None
        try:
            frames.append(element_frame(shape, text))
        except CadError as exc:  # the element is there but now gives no frame (e.g. no longer circular)
            raise CadError("%s: %s" % (what, exc)) from None
    if not frames:
        raise CadError("%s: Parametric, but References1 and References2 are empty; pick the joint's elements" % what)
    return frames


def _base_frames(joint: App.DocumentObject) -> tuple[App.Placement, App.Placement | None]:
    """(frame of all references, frame of the last reference or None without a Frame2): the
    frames before the offsets, from the current geometry."""
    what = "joint '%s'" % joint.Label
    frames = _element_frames(joint)
    base = frame_from_elements(joint.JointType, frames, what)
    return base, frame_from_elements(joint.JointType, frames[-1:], what) if uses_second_frame(joint) else None


def joint_frames(joint: App.DocumentObject) -> tuple[App.Placement, App.Placement]:
    """(Frame, Frame2) of a joint, global [mm]: from the references' current geometry and the
    offsets when it is parametric (CadError naming a broken reference), else as stored."""
    import FreeCAD as App

    if not is_parametric(joint):
        return App.Placement(joint.Frame), App.Placement(joint.Frame2)
    base, base2 = _base_frames(joint)
    frame2 = base2.multiply(joint.Offset2) if base2 is not None else App.Placement(joint.Frame2)
    return base.multiply(joint.Offset1), frame2


def update_joint_frames(joint: App.DocumentObject) -> None:
    """Recompute a parametric joint's Frame and Frame2 (its ``execute``); nothing otherwise."""
    if is_parametric(joint):
        joint.Frame, joint.Frame2 = joint_frames(joint)


def set_joint_references(joint: App.DocumentObject, picks: Sequence[tuple[App.DocumentObject, str]]) -> None:
    """Make ``joint`` parametric on ``picks`` [(root, subname)]: one pick is References2 (the
    ground on side 1), two are References1 and References2; the offsets start as identity and
    Frame / Frame2 are recomputed. Reference1/2 (descriptions) are the caller's."""
    import FreeCAD as App

    links = [None] * (2 - len(picks)) + [(root, [sub]) for root, sub in picks]
    joint.References1, joint.References2 = links
    joint.Offset1 = joint.Offset2 = App.Placement()
    joint.Parametric = True
    update_joint_frames(joint)


def set_joint_frame(joint: App.DocumentObject, frame: App.Placement) -> None:
    """Give ``joint`` the global ``frame`` [mm]: a parametric joint keeps it as Offset1 relative to
    the frame of its references, so that it follows the CAD from there on."""
    import FreeCAD as App

    if is_parametric(joint):
        joint.Offset1 = _base_frames(joint)[0].inverse().multiply(frame)
    joint.Frame = App.Placement(frame)
