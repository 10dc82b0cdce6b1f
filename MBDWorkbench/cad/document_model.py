"""FreeCAD document -> solver Model (the single model description), in SI units.

The document's Multibody Dynamics objects (see :mod:`objects`) are read as follows:

* Body: mass, CoG and inertia from the part's solids (:func:`objects.body_mass_properties`).
  The solver body sits at the CoG with the orientation of the part's global placement, so
  its inertia in body axes is ``R^T I_global R``. The part follows the body through a
  constant offset: ``part placement(t) = body pose(t) * offset`` with
  ``offset = inverse(initial body pose) * initial part placement`` (see :func:`document_model`).
* Joint: type, bodies (empty = ground), Frame (global placement, mm) -> Frame (m, axes); a
  parametric joint's frames from its references' current geometry (:mod:`.joint_references`).
* Driver: rotational [deg] or linear [mm] profiles -> rad or m.
* SpringDamper, Force: converted from N/mm, N mm/deg, N mm to N/m, N m/rad, N m.
* ForceElement (any other force type of catalog.FORCES): its fields read kind by kind from
  the properties its record gave it (:func:`force_fields.field_unit`: points and lengths in mm,
  angles in deg, other numbers and profiles in SI).
* Contact: its pairs, shapes read from the parts' solids or faces (:mod:`.contact_import`).
* Simulation: settings and gravity [mm/s^2].

Bad input raises :class:`CadError` naming the object (the label) and its property; the
model's validation errors (solver ModelError with a JSON path) are reported the same way.
A document file is checked before FreeCAD opens it (:func:`archive.check_document_file`).
"""

from __future__ import annotations

import math
import os
import re
import sys
from typing import TYPE_CHECKING

from ..solver.model.catalog import BODY_KINDS, FORCES, JOINT_KINDS, JOINTS, NUMBER_KINDS
from .archive import check_document_file
from .assembly_import import assembly_label, import_warnings, joint_source, sync_assemblies
from .contact_import import contact_message, contact_pairs
from .errors import CadError
from .force_fields import COMPONENTS, driver_unit, field_unit, optional, property_name
from .joint_friction import friction_fields
from .joint_limits import limit_fields
from .joint_references import joint_frames, uses_second_frame
from .objects import body_mass_properties, find_objects, mbd_type, simulation_members
from .placement import placement_axes, placement_from_pose, quaternion_wxyz, rotation_matrix
from .time_steps import END_TIME, OUTPUT_STEP, STEP, end_time_seconds, output_step_seconds, step_seconds
from .tolerance_texts import ABSOLUTE, RELATIVE, TIKHONOV, tolerance_value

if TYPE_CHECKING:
    import FreeCAD as App

    from ..solver.model import Model

DEG = math.pi / 180.0


# ----------------------------------------------------------------------------- placements
def global_placement(obj: App.DocumentObject) -> App.Placement:
    """Global App.Placement of a part (container placements applied; Links included)."""
    import FreeCAD as App

    parents = getattr(obj, "Parents", None) or []
    if parents:
        root, sub = parents[0]
        return App.Placement(root.getSubObject(sub, retType=2)[1])
    return App.Placement(obj.getSubObject("", retType=2)[1])


def set_global_placement(obj: App.DocumentObject, placement: App.Placement) -> None:
    """Give ``obj`` the global ``placement`` by setting its own Placement (containers kept)."""
    parent = global_placement(obj).multiply(obj.Placement.inverse())
    new = parent.inverse().multiply(placement)
    if not (hasattr(new, "isSame") and new.isSame(obj.Placement, 1e-12)):
        obj.Placement = new


def _value(v):
    """Float of a float or FreeCAD Quantity (in the property's own unit)."""
    return float(getattr(v, "Value", v))


def _mm_to_m(vector):
    return [float(vector[0]) * 1e-3, float(vector[1]) * 1e-3, float(vector[2]) * 1e-3]


# ----------------------------------------------------------------------------- names
def _model_names(objects):
    """Unique model names from labels ('ground' is reserved); a joint imported from an
    Assembly is named by the Assembly joint's Label (stable across re-imports)."""
    names, used = {}, set()
    for o in objects:
        name = (assembly_label(o) or o.Label).strip() or o.Name
        if name == "ground" or name in used:
            name = "%s_%s" % (name, o.Name)
        used.add(name)
        names[o.Name] = name
    return names


# ----------------------------------------------------------------------------- objects
def _check_proxies(objects) -> None:
    """CadError naming the workbench objects FreeCAD restored without their proxy (Proxy None:
    its module could not be imported, e.g. a document saved by another addon or version);
    archive.check_document_file names the module before FreeCAD opens a file."""
    bare = [o for o in objects if getattr(o, "Proxy", None) is None]
    if bare:
        raise CadError(
            "; ".join("%s '%s': its proxy could not be loaded" % (mbd_type(o).lower(), o.Label) for o in bare)
            + " (the document was saved by another addon or another version of the workbench: FreeCAD's "
            "report names the module it could not import)"
        )


def _elements(doc, simulation):
    """(simulation or None, MBD objects) of the model."""
    sims = find_objects(doc, "Simulation")
    if simulation is None and len(sims) > 1:
        raise CadError(
            "document '%s' has %d simulations (%s): say which one"
            % (doc.Label, len(sims), ", ".join(s.Label for s in sims))
        )
    sim = simulation if simulation is not None else (sims[0] if sims else None)
    if sim is not None and len(sims) > 1:
        return sim, simulation_members(sim)
    return sim, [o for o in find_objects(doc) if mbd_type(o) != "Simulation"]


def _body(obj, name):
    from ..solver.model import Body

    if obj.Part is None:
        raise CadError("body '%s' has no part (set its Part property)" % obj.Label)
    try:
        mp = body_mass_properties(obj)
    except CadError as exc:
        raise CadError("body '%s': %s" % (obj.Label, exc)) from None
    plc = global_placement(obj.Part)
    R = rotation_matrix(plc.Rotation)
    inertia = R.T @ mp.inertia @ R
    inertia = 0.5 * (inertia + inertia.T)
    body = Body(
        name=name,
        mass=float(mp.mass),
        inertia=inertia.tolist(),
        position=[float(c) for c in mp.cog],
        orientation=quaternion_wxyz(plc.Rotation),
        grounded=bool(obj.Grounded),
        source=mp.source,
    )
    body_pose = placement_from_pose(mp.cog * 1e3, body.orientation)
    offset = body_pose.inverse().multiply(plc)
    info = dict(
        body_object=obj.Name,
        part=obj.Part.Name,
        grounded=bool(obj.Grounded),
        offset_position_mm=[offset.Base.x, offset.Base.y, offset.Base.z],
        offset_quaternion=quaternion_wxyz(offset.Rotation),
    )
    return body, info


def _ref(link, names, bodies, what):
    """Model name of a Body link (None -> ground)."""
    if link is None:
        return "ground"
    if mbd_type(link) != "Body":
        raise CadError("%s: '%s' is not a Multibody Dynamics body" % (what, link.Label))
    if link.Name not in bodies:
        raise CadError("%s: body '%s' is not part of this simulation" % (what, link.Label))
    return names[link.Name]


def _check_sides_kept(obj, what):
    """CadError when a side of a joint is empty (the ground) although the joint was made on
    a part there (Reference1/2 names a pick): its body was deleted or unlinked, and reading
    it as a joint to the ground would run a different mechanism."""
    for k in (1, 2):
        ref = str(getattr(obj, "Reference%d" % k, "") or "")
        if getattr(obj, "Body%d" % k) is None and ref not in ("", "ground"):
            where = "part '%s'" % ref.split(" of ", 1)[1] if " of " in ref else "a body (%s)" % ref
            raise CadError(
                "%s: Body%d is empty, but the joint was made on %s (Reference%d '%s'): its body was deleted "
                "or unlinked; set Body%d or make the joint again" % (what, k, where, k, ref, k)
            )


def _joint(obj, names, bodies, poses):
    from ..solver.model import Frame, Joint

    what = "joint '%s'" % obj.Label
    _check_sides_kept(obj, what)
    b1 = _ref(obj.Body1, names, bodies, what)
    b2 = _ref(obj.Body2, names, bodies, what)
    if obj.Body1 is not None and obj.Body1 == obj.Body2:
        part = obj.Body1.Part.Label if obj.Body1.Part is not None else obj.Body1.Label
        raise CadError("%s: both sides are the same part '%s'" % (what, part))
    if b1 == "ground" and b2 == "ground":
        raise CadError("%s: both sides are the ground (set Body1 or Body2)" % what)
    name, jtype = names[obj.Name], obj.JointType
    frame1, frame2 = joint_frames(obj)  # a parametric joint's from its references' current geometry
    if uses_second_frame(obj):
        frame_i, frame_j = (_local_frame(plc, poses.get(b)) for plc, b in ((frame1, b1), (frame2, b2)))
        length = float(getattr(obj, "Length", 0.0) or 0.0) * 1e-3
        length = length if JOINTS[jtype].takes_length and length > 0 else None
        angle = math.radians(float(getattr(obj, "Angle", 0.0) or 0.0))
        angle = angle if JOINTS[jtype].takes_angle and angle > 0 else None
        return Joint(
            name=name,
            type=jtype,
            body_i=b1,
            body_j=b2,
            frame_i=frame_i,
            frame_j=frame_j,
            length=length,
            angle=angle,
            **_coupler_values(obj, jtype),
            **limit_fields(obj, jtype),
            **friction_fields(obj, jtype),
        )
    o, x, _, z = placement_axes(frame1)
    frame = Frame(origin=(o * 1e-3).tolist(), z_axis=z.tolist(), x_axis=x.tolist())
    extra = {**limit_fields(obj, jtype), **friction_fields(obj, jtype)}
    return Joint(name=name, type=jtype, body_i=b1, body_j=b2, frame=frame, **extra)


def _local_frame(placement, body):
    """Frame of a global placement [mm] in a model Body's own frame about its CoG [m] (the
    ground, ``body`` None: global)."""
    import numpy as np

    from ..solver.model import Frame
    from ..solver.numerics.quaternion import matrices

    o, x, _, z = placement_axes(placement)
    o = o * 1e-3
    if body is not None:
        R = matrices(np.asarray(body.orientation, float))
        o, x, z = R.T @ (o - np.asarray(body.position, float)), R.T @ x, R.T @ z
    return Frame(origin=o.tolist(), z_axis=z.tolist(), x_axis=x.tolist())


COUPLER_PROPERTIES = {"radius_i": "Radius1", "radius_j": "Radius2", "radius": "Radius1", "pitch": "Pitch"}


def _coupler_values(obj, jtype: str) -> dict:
    """A coupler joint's model fields [m] (catalogue ``parameters``) from the Joint object's
    Radius1 / Radius2 / Pitch [mm] (COUPLER_PROPERTIES); empty for other joints."""
    return {k: float(getattr(obj, COUPLER_PROPERTIES[k])) * 1e-3 for k in JOINTS[jtype].parameters}


def solver_driver(obj, names, joints):
    """The solver Driver of a document driver object (SI units); CadError naming what is missing."""
    from ..solver.model import Driver

    what = "driver '%s'" % obj.Label
    if obj.Joint is None or obj.Joint.Name not in joints:
        raise CadError("%s: its Joint is missing or not part of this simulation" % what)
    k = driver_unit(obj.DriverType)[1]  # deg -> rad, mm -> m
    if obj.Profile == "constant_speed":
        profile = {"type": "constant_speed", "speed": float(obj.Rate) * k}
    elif obj.Profile == "harmonic":
        a, phase = float(obj.Amplitude) * k, _value(obj.Phase) * DEG
        profile = {
            "type": "harmonic",
            "amplitude": a,
            "frequency": float(obj.Frequency),
            "phase": phase,
            "offset": -a * math.sin(phase),
        }
    else:
        text = str(obj.Expression).strip()
        if not text:
            raise CadError("%s: empty Expression" % what)
        profile = {"type": "expression", "expr": text, "scale": k}  # parsed, then scaled (never wrapped as text)
    return Driver(name=names[obj.Name], type=obj.DriverType, joint=names[obj.Joint.Name], profile=profile)


def _spring(obj, names, bodies, joints):
    from ..solver.model import Force

    what = "spring '%s'" % obj.Label
    if obj.Kind == "rotational":
        if obj.Joint is None or obj.Joint.Name not in joints:
            raise CadError("%s: its Joint is missing or not part of this simulation" % what)
        k = 1e-3 / DEG  # N mm/deg -> N m/rad
        return Force(
            name=names[obj.Name],
            type="rotational_spring_damper",
            joint=names[obj.Joint.Name],
            stiffness=float(obj.Stiffness) * k,
            damping=float(obj.Damping) * k,
            free_angle=_value(obj.FreeAngle) * DEG,
        )
    b1, b2 = _ref(obj.Body1, names, bodies, what), _ref(obj.Body2, names, bodies, what)
    free = None if obj.UseInitialLength else _value(obj.FreeLength) * 1e-3
    return Force(
        name=names[obj.Name],
        type="spring_damper",
        body_i=b1,
        point_i=_mm_to_m(obj.Point1),
        body_j=b2,
        point_j=_mm_to_m(obj.Point2),
        stiffness=float(obj.Stiffness) * 1e3,
        damping=float(obj.Damping) * 1e3,
        free_length=free,
    )


def force_component(text, scale):
    """A force component: a number, or an expression in t scaled to SI by the profile's
    ``scale`` (the expression is parsed alone, never wrapped as text)."""
    text = str(text).strip() or "0"
    try:
        return float(text) * scale
    except ValueError:
        return text if scale == 1.0 else {"type": "expression", "expr": text, "scale": scale}


def _force(obj, names, bodies):
    from ..solver.model import Force

    what = "force '%s'" % obj.Label
    body = _ref(obj.Body, names, bodies, what)
    if body == "ground":
        raise CadError("%s: no Body set" % what)
    scale = 1.0 if obj.Kind == "point_force" else 1e-3  # N mm -> N m
    comps = [force_component(getattr(obj, c), scale) for c in "XYZ"]
    f = Force(name=names[obj.Name], type=obj.Kind, body=body, frame=obj.Axes)
    if obj.Kind == "point_force":
        f.force, f.point = comps, _mm_to_m(obj.Point)
    else:
        f.torque = comps
    return f


def _field_value(obj, spec, names, bodies, joints, what):
    """The SI model value of a ForceElement's field ``spec`` (see objects.field_properties)."""
    prop = property_name(spec.name)
    if spec.kind in BODY_KINDS:
        return _ref(getattr(obj, prop), names, bodies, "%s (%s)" % (what, prop))
    if spec.kind in JOINT_KINDS:
        joint = getattr(obj, prop)
        if joint is None or joint.Name not in joints:
            raise CadError("%s: its %s is missing or not part of this simulation" % (what, prop))
        return names[joint.Name]
    if spec.kind == "profiles3":
        return [force_component(getattr(obj, prop + c), 1.0) for c in COMPONENTS]
    if spec.kind == "frame":
        return str(getattr(obj, prop))
    if optional(spec) and not getattr(obj, "Set" + prop):
        return None
    scale = field_unit(spec)[1]
    if spec.kind == "point":
        return [float(c) * scale for c in getattr(obj, prop)]
    if spec.kind in NUMBER_KINDS:
        return _value(getattr(obj, prop)) * scale
    raise CadError("%s: field kind %r has no FreeCAD property" % (what, spec.kind))


def _force_element(obj, names, bodies, joints):
    """A force of any catalogue type from a ForceElement, field by field (catalog.FORCES)."""
    from ..solver.model import Force

    ftype = str(obj.ForceType)
    if ftype not in FORCES:
        raise CadError("force '%s': unknown force type %r (one of %s)" % (obj.Label, ftype, ", ".join(FORCES)))
    what = "force '%s'" % obj.Label
    values = {spec.name: _field_value(obj, spec, names, bodies, joints, what) for spec in FORCES[ftype].fields}
    return Force(name=names[obj.Name], type=ftype, **values)


def _settings(sim):
    from ..solver.model import Settings

    if sim is None:
        return Settings(), [0.0, 0.0, -9.81]
    s = Settings(
        t_end=end_time_seconds(sim),
        step=step_seconds(sim),  # None for 0: the integrator's own default
        output_step=output_step_seconds(sim),
        integrator=str(sim.Integrator),
        rtol=tolerance_value(sim, RELATIVE),  # None for "default": the integrator's own
        atol=tolerance_value(sim, ABSOLUTE),
        baumgarte_alpha=float(sim.BaumgarteAlpha),
        baumgarte_beta=float(sim.BaumgarteBeta),
        tikhonov_eps=tolerance_value(sim, TIKHONOV),
        assemble=bool(sim.Assemble),
        accuracy=bool(getattr(sim, "EstimateAccuracy", True)),  # documents saved before it: on
    )
    return s, [_value(getattr(sim, "Gravity" + c)) * 1e-3 for c in "XYZ"]  # mm/s^2 -> m/s^2


def _grounds(force) -> bool:
    """Whether a force element attaches to the ground (a body field naming it)."""
    return any(getattr(force, s.name) == "ground" for s in FORCES[force.type].fields if s.kind in BODY_KINDS)


def _check_grounded(sim, bodies, joints, forces):
    if sim is not None and getattr(sim, "AllowFreeFlight", False):
        return
    if any(b.grounded for b in bodies):
        return
    if any("ground" in (j.body_i, j.body_j) for j in joints):
        return
    if any(_grounds(f) for f in forces):
        return
    raise CadError(
        "nothing is grounded: mark a body Grounded, or leave Body1 of a joint empty to attach it "
        "to the ground (or set AllowFreeFlight on the simulation for free-flying bodies)"
    )


def document_model(doc: App.Document, simulation: App.DocumentObject | None = None) -> tuple[Model, dict]:
    """(Model, mapping) of a document. ``mapping['bodies'][name]`` gives each body's object,
    part and the offset (position [mm], quaternion) with part placement = body pose * offset."""
    from ..solver.errors import ModelError
    from ..solver.model import Model, validate

    sim, objs = _elements(doc, simulation)
    _check_proxies(([sim] if sim is not None else []) + objs)
    sim_label = sim.Label if sim is not None else doc.Label
    kinds = ("Body", "Joint", "Driver", "SpringDamper", "Force", "ForceElement", "Contact")
    by_type = {k: [o for o in objs if mbd_type(o) == k] for k in kinds}
    if not by_type["Body"]:
        raise CadError("simulation '%s' has no bodies: select a part and use 'Body'" % sim_label)
    names = _model_names([o for k in by_type for o in by_type[k]])
    body_names = {o.Name for o in by_type["Body"]}
    joint_names = {o.Name for o in by_type["Joint"]}
    bodies, infos = zip(*[_body(o, names[o.Name]) for o in by_type["Body"]])
    poses = {b.name: b for b in bodies}
    joints = [_joint(o, names, body_names, poses) for o in by_type["Joint"]]
    drivers = [solver_driver(o, names, joint_names) for o in by_type["Driver"]]
    forces = [_spring(o, names, body_names, joint_names) for o in by_type["SpringDamper"]]
    forces += [_force(o, names, body_names) for o in by_type["Force"]]
    forces += [_force_element(o, names, body_names, joint_names) for o in by_type["ForceElement"]]
    contacts = contact_pairs(by_type["Contact"], names, body_names, poses)
    _check_grounded(sim, bodies, joints, forces)
    settings, gravity = _settings(sim)
    model = Model(
        name=doc.Label or doc.Name,
        bodies=list(bodies),
        joints=joints,
        forces=forces,
        drivers=drivers,
        contacts=contacts,
        gravity=gravity,
        settings=settings,
        description="from FreeCAD document %s" % doc.Label,
    )
    model.sources = {names[o.Name]: joint_source(o) for o in by_type["Joint"] if joint_source(o)}
    try:
        validate(model)
    except ModelError as exc:
        raise CadError(_document_message(exc, model, names, doc, sim)) from None
    mapping = dict(
        document=doc.Name,
        simulation=sim.Name if sim is not None else None,
        units="mm",
        bodies={b.name: info for b, info in zip(bodies, infos)},
        objects={names[k]: k for k in names},
    )
    return model, mapping


# Simulation properties of the model's settings (and gravity), for messages
SETTING_PROPERTIES = {
    "t_end": END_TIME,
    "step": STEP,
    "output_step": OUTPUT_STEP,
    "integrator": "Integrator",
    "rtol": RELATIVE,
    "atol": ABSOLUTE,
    "baumgarte_alpha": "BaumgarteAlpha",
    "baumgarte_beta": "BaumgarteBeta",
    "tikhonov_eps": TIKHONOV,
    "assemble": "Assemble",
    "accuracy": "EstimateAccuracy",
}
_ELEMENT_WORDS = {"bodies": "body", "joints": "joint", "forces": "force", "drivers": "driver"}
# (model field prefix, document property) per element list, first match wins
_FIELD_PROPERTIES = {
    "bodies": (("mass", "Mass"), ("inertia", "Inertia"), ("position", "CenterOfGravity"), ("orientation", "Part")),
    "joints": (("frame", "Frame"), ("body_i", "Body1"), ("body_j", "Body2"), ("type", "JointType")),
    "drivers": (
        ("profile.expr", "Expression"),
        ("profile.speed", "Rate"),
        ("profile.amplitude", "Amplitude"),
        ("profile.frequency", "Frequency"),
        ("profile.phase", "Phase"),
        ("profile", "Profile"),
        ("joint", "Joint"),
    ),
    "forces": tuple((f"{q}[{k}]", "XYZ"[k]) for q in ("force", "torque") for k in range(3))
    + (
        ("point_i", "Point1"),
        ("point_j", "Point2"),
        ("point", "Point"),
        ("body_i", "Body1"),
        ("body_j", "Body2"),
        ("body", "Body"),
        ("stiffness", "Stiffness"),
        ("damping", "Damping"),
        ("free_length", "FreeLength"),
        ("free_angle", "FreeAngle"),
        ("joint", "Joint"),
    ),
}


def _document_message(exc, model, names, doc, sim) -> str:
    """A model validation error (JSON path) restated for the document: the object's label
    and the field, e.g. "joint 'Pivot' (frame.z_axis): ..."."""
    m = re.match(r"(bodies|joints|forces|drivers|contacts)\[(\d+)\]\.?(.*)", exc.path or "")
    if m and m.group(1) == "contacts":
        return contact_message(model.contacts[int(m.group(2))].name, exc)
    if m:
        element = getattr(model, m.group(1))[int(m.group(2))]
        names_to_objects = {v: k for k, v in names.items()}
        obj = doc.getObject(names_to_objects.get(element.name, ""))
        label = obj.Label if obj is not None else element.name
        field = m.group(3)
        generic = property_name(re.split(r"[.\[]", field)[0]) if field else "object"
        prop = next((p for prefix, p in _FIELD_PROPERTIES[m.group(1)] if field.startswith(prefix)), generic)
        word = "spring" if obj is not None and mbd_type(obj) == "SpringDamper" else _ELEMENT_WORDS[m.group(1)]
        return "%s '%s' (%s): %s" % (word, label, prop, exc.message)
    where = sim.Label if sim is not None else doc.Label
    key = (exc.path or "").split(".", 1)[-1].split("[")[0]
    prop = "GravityX/Y/Z" if key == "gravity" else SETTING_PROPERTIES.get(key, key or "model")
    return "simulation '%s' (%s): %s" % (where, prop, exc.message)


def model_from_document(doc: App.Document, simulation: App.DocumentObject | None = None) -> Model:
    """The solver Model of a FreeCAD document (SI units, validated)."""
    return document_model(doc, simulation)[0]


def open_document(path: str) -> tuple[App.Document, bool]:
    """(document, opened_here) for an .FCStd file, headless or in the GUI."""
    from .freecad_env import import_freecad

    App = import_freecad()
    real = os.path.realpath(path)
    for doc in App.listDocuments().values():
        if doc.FileName and os.path.realpath(doc.FileName) == real:
            return doc, False
    if not os.path.isfile(real):
        raise CadError("%s: file not found" % path)
    try:
        doc = App.openDocument(real)
    except Exception as exc:
        raise CadError("%s: FreeCAD cannot open it: %s" % (path, exc)) from exc
    return doc, True


def synced_document_model(
    doc: App.Document, simulation: App.DocumentObject | None = None, show=None
) -> tuple[Model, dict]:
    """:func:`document_model` after importing or updating the document's Assemblies
    (:func:`.assembly_import.sync_assemblies`, ``show(text)`` gets their reports); the joints
    an import left out become the model's ``joint_dropped`` warnings (summary.json, report)."""
    doc.recompute()
    reports = sync_assemblies(doc, show=show)
    model, mapping = document_model(doc, simulation)
    model.warnings = import_warnings(reports)
    return model, mapping


def model_from_document_file(path: str, simulation: str | App.DocumentObject | None = None) -> Model:
    """Open an .FCStd file (headless), build its Model, close it again. Errors in the
    document are raised as the solver's ModelError naming the file (the CLI reports them)."""
    from ..solver.errors import ModelError
    from .freecad_env import FreeCADNotFoundError, import_freecad

    try:
        App = import_freecad()
    except FreeCADNotFoundError as exc:
        raise ModelError(path, "reading a FreeCAD document needs FreeCAD: %s" % exc) from None
    try:
        if not any(os.path.realpath(d.FileName or "") == os.path.realpath(path) for d in App.listDocuments().values()):
            check_document_file(path)  # a file FreeCAD has not opened yet: checked before it reads it
        doc, opened = open_document(path)
    except CadError as exc:
        raise ModelError(path, str(exc)) from None
    try:
        sim = doc.getObject(simulation) if isinstance(simulation, str) else simulation
        return synced_document_model(doc, sim, show=lambda text: print(text, file=sys.stderr))[0]
    except CadError as exc:
        raise ModelError(path, str(exc)) from None
    finally:
        if opened:
            App.closeDocument(doc.Name)


def export_json(doc: App.Document, path: str, simulation: App.DocumentObject | None = None) -> Model:
    """Write the document's model as a JSON model file; return the Model."""
    model = model_from_document(doc, simulation)
    model.save(path)
    return model
