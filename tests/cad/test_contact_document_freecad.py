"""Contact objects in a FreeCAD document (docs/contact.md, "Contact in FreeCAD"): a ball made with
Part dropped on a Part box, imported and simulated headless against the closed form; the shapes
read from solids and faces (SI, body frame); the pairs of "all pairs"; the refusals, each naming
the object and the part or face; the document left unmodified."""

import math

import numpy as np
import pytest

from MBDWorkbench.cad import makers
from MBDWorkbench.cad.contact_import import BodyFrame, face_in_part, side_shape
from MBDWorkbench.cad.contact_objects import contact_sides
from MBDWorkbench.cad.document_model import document_model
from MBDWorkbench.cad.errors import CadError
from MBDWorkbench.solver.model.contacts import PAIRS, approximated, tessellated
from MBDWorkbench.solver.model.mesh_pairs import collision_library
from MBDWorkbench.solver.numerics import quaternion
from MBDWorkbench.solver.simulate import simulate

G, H, R, E = 9.81, 0.2, 0.05, 0.8  # gravity [m/s^2], drop height of the ball's bottom [m], radius [m], e
BALL_AT = (1.3, -0.7, 1000 * (H + R))  # mm, a little off the plate's centre, as real CAD is


def box(App, doc, name, size, at, rotation=None):
    obj = doc.addObject("Part::Box", name)
    obj.Length, obj.Width, obj.Height = size
    obj.Placement = App.Placement(App.Vector(*at), rotation or App.Rotation())
    return obj


@pytest.fixture
def drop(App, doc):
    """A steel ball (R 50 mm, tilted) 0.2 m above a grounded 200 x 200 x 20 mm steel plate whose top
    face (Face6) is at z = 0; the Contact between the ball's solid and that face."""
    plate = box(App, doc, "Plate", (200, 200, 20), (-100.4, -99.2, -20))
    ball = doc.addObject("Part::Sphere", "Ball")
    ball.Radius = 1000 * R
    ball.Placement = App.Placement(App.Vector(*BALL_AT), App.Rotation(App.Vector(0.3, 1, 0.2), 17))
    doc.recompute()
    sim = makers.make_simulation(
        doc,
        EndTimeMilliseconds=800,
        OutputStepMicroseconds=100,
        StepMicroseconds=10,
        Integrator="rk4",
        GravityZ=-9810.0,
    )
    sim.EstimateAccuracy = False
    plate_body = makers.make_body(doc, plate, grounded=True, label="plate")
    ball_body = makers.make_body(doc, ball, label="ball")
    contact = makers.make_contact(doc, ball_body, plate_body, "", "Face6", Restitution=E, Law="restitution")
    doc.recompute()
    return dict(doc=doc, plate=plate_body, ball=ball_body, contact=contact)


def crossings(t, x, direction):
    """Times [s] where x crosses 0 downwards (-1) or upwards (+1), linearly interpolated."""
    s = np.sign(x)
    idx = [i for i in np.nonzero(s[:-1] * s[1:] < 0)[0] if np.sign(x[i + 1] - x[i]) == direction]
    return np.array([t[i] - x[i] * (t[i + 1] - t[i]) / (x[i + 1] - x[i]) for i in idx])


def test_ball_on_a_part_box_rebounds_to_e_2n_h_at_the_rigid_impact_times(drop):
    """The document's model simulated headless: apexes e^(2n) h and flights 2 e^n v0 / g within
    0.5 %, the first touch at sqrt(2 h / g) within 1e-4 (as tests/test_contact_dynamics.py for JSON)."""
    model = document_model(drop["doc"])[0]
    (pair,) = model.contacts
    assert (pair.shape_a.type, pair.shape_b.type) == ("sphere", "plane")
    res = simulate(model)
    assert res.status == "completed", res.warnings
    z = res.position("ball")[:, 2] - R
    inner = (z[1:-1] > z[:-2]) & (z[1:-1] >= z[2:]) & (z[1:-1] > 0)
    heights = z[1:-1][inner] / H
    assert heights == pytest.approx(E ** (2 * np.arange(1, 3)), rel=5e-3)
    touch, leave = crossings(res.t, z, -1), crossings(res.t, z, +1)
    v0 = math.sqrt(2 * G * H)
    assert touch[0] == pytest.approx(math.sqrt(2 * H / G), rel=1e-4)
    flights = touch[1:] - leave[: len(touch) - 1]
    assert flights == pytest.approx(2 * E ** np.arange(1, 3) * v0 / G, rel=5e-3)
    xy = res.position("ball")[:, :2] * 1000
    assert np.abs(xy - BALL_AT[:2]).max() < 1e-6  # a frictionless vertical drop stays on its line


def test_document_is_not_modified_by_the_import(drop):
    doc = drop["doc"]
    before = {o.Name: (o.Placement, o.Label) for o in doc.Objects if hasattr(o, "Placement")}
    document_model(doc)
    assert [o.Name for o in doc.Objects if "Touched" in o.State] == []
    assert not doc.isTouched()
    assert {o.Name: (o.Placement, o.Label) for o in doc.Objects if hasattr(o, "Placement")} == before


def test_shapes_from_solids_and_faces_in_the_body_frame(App, drop):
    """Sphere, box, plane and cylinder parameters against the parts' dimensions [m]; a rotated
    plate's face normal in its body frame; a cone's solid and its face (radii, length, axis in the
    body frame about its centre of gravity); a hexagonal prism's solid tessellated (a mesh)."""
    doc, model = drop["doc"], document_model(drop["doc"])[0]
    ball, plate = model.body("ball"), model.body("plate")
    sphere, _ = side_shape(drop["ball"], "", ball, 0.1, "c")
    assert sphere["type"] == "sphere" and sphere["radius"] == pytest.approx(R)
    np.testing.assert_allclose(sphere["center"], 0, atol=1e-12)  # the ball's CoG is its centre
    whole, _ = side_shape(drop["plate"], "", plate, 0.1, "c")
    assert whole["type"] == "box"
    np.testing.assert_allclose(whole["size"], [0.2, 0.2, 0.02], rtol=1e-12)
    np.testing.assert_allclose(whole["center"], 0, atol=1e-12)
    top, _ = side_shape(drop["plate"], "Face6", plate, 0.1, "c")
    assert top["type"] == "plane" and top["point"][2] == pytest.approx(0.01) and top["normal"] == [0, 0, 1]
    tilt = App.Rotation(App.Vector(1, 0, 0), 30)
    roller = doc.addObject("Part::Cylinder", "Roller")
    roller.Radius, roller.Height = 8, 30
    roller.Placement = App.Placement(App.Vector(300, 0, 100), tilt)
    doc.recompute()
    roller_body = makers.make_body(doc, roller, label="roller")
    frame = BodyFrame(document_model(doc)[0].body("roller"))
    cylinder, _ = side_shape(roller_body, "", document_model(doc)[0].body("roller"), 0.1, "c")
    assert cylinder["type"] == "cylinder" and cylinder["radius"] == pytest.approx(0.008)
    assert cylinder["length"] == pytest.approx(0.03) and abs(cylinder["axis"][2]) == pytest.approx(1.0)
    np.testing.assert_allclose(cylinder["center"], 0, atol=1e-12)
    np.testing.assert_allclose(frame.rotation[:, 2], [0, -math.sin(math.pi / 6), math.cos(math.pi / 6)], atol=1e-12)
    face, _ = side_shape(roller_body, "Face1", document_model(doc)[0].body("roller"), 0.1, "c")
    assert face["type"] == "cylinder" and face["length"] == pytest.approx(0.03)
    cone = doc.addObject("Part::Cone", "Cone")
    cone.Radius1, cone.Radius2, cone.Height = 10, 4, 20
    cone.Placement.Base = App.Vector(-300, 0, 50)
    doc.recompute()
    cone_body = makers.make_body(doc, cone, label="cone")
    cone_model = document_model(doc)[0].body("cone")
    # the centre of gravity of a frustum, above its base: h (r1^2 + 2 r1 r2 + 3 r2^2) / (4 (r1^2 + r1 r2 + r2^2))
    cog = 20 * (100 + 80 + 48) / (4 * (100 + 40 + 16)) * 1e-3
    for face in ("", "Face1"):
        frustum, where = side_shape(cone_body, face, cone_model, 0.05, "c")
        assert frustum["type"] == "cone" and frustum["length"] == pytest.approx(0.02, rel=1e-12)
        up = float(np.sign(frustum["axis"][2]))
        assert abs(frustum["axis"][2]) == pytest.approx(1.0, abs=1e-12)
        radii = (frustum["radius1"], frustum["radius2"])[:: int(up)]  # (base, top)
        assert radii == pytest.approx((0.010, 0.004), rel=1e-12)
        np.testing.assert_allclose(frustum["center"], [0, 0, 0.01 - cog], atol=1e-12)
    prism = doc.addObject("Part::Prism", "Hexagon")
    prism.Polygon, prism.Circumradius, prism.Height = 6, 10, 20
    prism.Placement.Base = App.Vector(-300, 200, 50)
    doc.recompute()
    prism_body = makers.make_body(doc, prism, label="prism")
    mesh, where = side_shape(prism_body, "", document_model(doc)[0].body("prism"), 0.05, "c")
    assert mesh["type"] == "mesh" and "part 'Hexagon'" in where
    vertices = np.array(mesh["vertices"])
    assert vertices[:, 2].max() - vertices[:, 2].min() == pytest.approx(0.02, rel=1e-9)
    assert np.hypot(vertices[:, 0], vertices[:, 1]).max() == pytest.approx(0.010, rel=1e-9)  # its corners


def test_all_pairs_skip_bodies_joined_directly(App, doc):
    """Five bodies, a revolute between a and b, floor and wall both grounded: every pair but a-b
    (jointed) and floor-wall (neither moves), each of whole solids."""
    parts = [box(App, doc, n, (10, 10, 10), (40 * k, 0, 0)) for k, n in enumerate(("A", "B", "C", "Floor", "Wall"))]
    doc.recompute()
    makers.make_simulation(doc)
    a, b, c = (makers.make_body(doc, p, label=p.Name.lower()) for p in parts[:3])
    floor, wall = (makers.make_body(doc, p, grounded=True, label=p.Name.lower()) for p in parts[3:])
    makers.make_joint(doc, "revolute", a, b, ((35, 5, 5), (0, 1, 0)))
    contact = makers.make_contact(doc, bodies=[a, b, c, floor, wall], label="All")
    pairs = {tuple(sorted(s[0].Label for s in pair)) for pair in contact_sides(contact)}
    moving, fixed = ("a", "b", "c"), ("floor", "wall")
    expected = {("a", "c"), ("b", "c")} | {tuple(sorted((m, f))) for m in moving for f in fixed}
    assert pairs == expected
    assert all(face == "" for pair in contact_sides(contact) for _, face in pair)


def test_refusals_name_the_contact_and_the_part_or_face(App, drop):
    doc, contact = drop["doc"], drop["contact"]
    contact.Face2 = "Face9"
    with pytest.raises(
        CadError, match=r"contact 'Contact': part 'Plate' has no face 'Face9' \(it has Face1 to Face6\)"
    ):
        document_model(doc)
    contact.Face2 = "Face6"
    import Part

    open_box = doc.addObject("Part::Feature", "OpenBox")  # a box without its top: mass, but not closed
    open_box.Shape = Part.Solid(Part.Shell(Part.makeBox(50, 50, 5, App.Vector(300, 0, 0)).Faces[:5]))
    doc.recompute()
    lid = makers.make_body(doc, open_box, label="lid")
    makers.make_contact(doc, lid, drop["plate"], "", "Face6", label="LidContact")
    with pytest.raises(CadError, match=r"contact 'LidContact': Contact shape of 'OpenBox': the solid is not closed"):
        document_model(doc)
    lid_contact = doc.getObjectsByLabel("LidContact")[0]
    lid_contact.Enabled = False  # left out of the model
    torus = doc.addObject("Part::Torus", "Ring")
    torus.Radius1, torus.Radius2, torus.Angle3 = 40, 10, 270  # three quarters of a ring: tessellated
    torus.Placement.Base = App.Vector(0, 400, 100)
    doc.recompute()
    ring = makers.make_body(doc, torus, label="ring")
    makers.make_contact(doc, ring, drop["plate"], "", "Face6", label="RingContact", Deflection=1e-4)
    with pytest.raises(CadError, match=r"contact 'RingContact': Contact shape of 'Ring': .* needs about \d+ triangles"):
        document_model(doc)
    doc.getObjectsByLabel("RingContact")[0].Deflection = 0.5
    with pytest.raises(CadError, match=r"contact 'RingContact'.*needs a stiffness"):  # a mesh has no Hertz radii
        document_model(doc)


def test_a_part_torus_dropped_on_the_plate_is_an_analytic_ring(App, drop):
    """A Part torus (R 40 mm, tube 10 mm, turned 20 deg about x) with the plate's top face: its
    solid and its face both become the analytic torus (radii in m, axis in the body frame, centre
    at its centre of gravity), a torus-plane pair; dropped from rest, it first touches at
    sqrt(2 z / g), z the height of its tube's exact lowest point (the ball touches later)."""
    doc = drop["doc"]
    torus = doc.addObject("Part::Torus", "Ring")
    torus.Radius1, torus.Radius2 = 40, 10
    tilt = App.Rotation(App.Vector(1, 0, 0), 20)
    torus.Placement = App.Placement(App.Vector(0, 400, 100), tilt)
    doc.recompute()
    ring = makers.make_body(doc, torus, label="ring")
    makers.make_contact(doc, ring, drop["plate"], "Face1", "Face6", label="RingContact", Stiffness=1e9)
    model = document_model(doc)[0]
    pair = next(c for c in model.contacts if c.name == "RingContact")
    assert (pair.shape_a.type, pair.shape_b.type) == ("torus", "plane")
    body = model.body("ring")
    solid, _ = side_shape(ring, "", body, 0.5, "c")
    for shape in (solid, vars(pair.shape_a)):
        assert (shape["major_radius"], shape["minor_radius"]) == pytest.approx((0.04, 0.01), rel=1e-12)
        np.testing.assert_allclose(shape["center"], 0, atol=1e-12)
        axis = quaternion.matrix(body.orientation) @ np.asarray(shape["axis"])
        assert abs(axis @ [0, -math.sin(math.radians(20)), math.cos(math.radians(20))]) == pytest.approx(1, abs=1e-12)
    assert body.position[2] == pytest.approx(0.1, abs=1e-12)
    z = 0.1 - 0.04 * math.sin(math.radians(20)) - 0.01
    res = simulate(model, t_end=0.15)
    assert res.status == "completed", res.warnings
    onset = res.stops.contacts.events[0]
    assert onset.contact == "RingContact"
    assert onset.t == pytest.approx(math.sqrt(2 * z / G), rel=1e-8)


def test_a_body_outside_the_simulation_is_named(App, drop):
    doc = drop["doc"]
    other = makers.make_simulation(doc, name="Other")
    stray = box(App, doc, "Stray", (10, 10, 10), (0, 300, 100))
    doc.recompute()
    stray_body = makers.make_body(doc, stray, label="stray", simulation=other)
    makers.make_contact(doc, stray_body, drop["plate"], "", "Face6", label="StrayContact", simulation=doc.Simulation)
    with pytest.raises(CadError, match="contact 'StrayContact': body 'stray' is not part of this simulation"):
        document_model(doc, doc.Simulation)


def test_maker_refuses_bad_sides(App, drop):
    with pytest.raises(CadError, match="needs a Multibody Dynamics body"):
        makers.make_contact(drop["doc"], drop["ball"], None)
    with pytest.raises(CadError, match="'Top' is not a face name"):
        makers.make_contact(drop["doc"], drop["ball"], drop["plate"], "", "Top")
    with pytest.raises(CadError, match="unknown property Bounce"):
        makers.make_contact(drop["doc"], drop["ball"], drop["plate"], Bounce=1)


def test_drop_test_example_rebounds_to_e_2_h(App, tmp_path):
    """examples/make_drop_test_fcstd.py's document (the shipped drop_test.FCStd's generator) read from
    its file: the ball's first apex at e^2 h above the plate within 0.5 %."""
    import os
    import subprocess
    import sys

    from MBDWorkbench.cad.document_model import model_from_document_file

    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = str(tmp_path / "drop_test.FCStd")
    subprocess.run([sys.executable, os.path.join(repo, "examples", "make_drop_test_fcstd.py"), out], check=True)
    model = model_from_document_file(out)
    assert [(c.shape_a.type, c.shape_b.type) for c in model.contacts] == [("sphere", "plane")]
    res = simulate(model, t_end=0.3, accuracy=False)
    assert res.status == "completed", res.warnings
    bottom = res.position("Ball_body")[:, 2] - 0.02
    after = res.t > math.sqrt(2 * 0.1 / G)
    assert bottom[after].max() == pytest.approx(0.7**2 * 0.1, rel=5e-3)


def test_pairs_without_an_exact_kind_keep_their_shapes_and_are_tessellated_by_the_solver(App, drop):
    """All pairs of two rings and the plate: a ring and the plate's whole solid (a box) stay a torus
    and a box (torus-box has no exact kind), the two rings two tori, each pair with the Contact's
    Deflection as its deflection; the solver's tessellations are mesh-mesh pairs (tests/test_contact_tessellated.py)."""
    assert ("torus", "box") not in PAIRS and ("box", "torus") not in PAIRS and ("torus", "torus") not in PAIRS
    rings = []
    for k in range(2):
        torus = drop["doc"].addObject("Part::Torus", "Ring%d" % k)
        torus.Radius1, torus.Radius2 = 40, 10
        torus.Placement.Base = App.Vector(0, 200 * k, 300)
        drop["doc"].recompute()
        rings.append(makers.make_body(drop["doc"], torus, label="ring%d" % k))
    drop["contact"].Enabled = False
    contact = makers.make_contact(drop["doc"], bodies=[rings[0], drop["plate"]], label="All", Stiffness=1e9)
    contact.Deflection = 0.5
    pair = document_model(drop["doc"])[0].contacts[0]
    assert (pair.shape_a.type, pair.shape_b.type) == ("torus", "box") and pair.deflection == pytest.approx(5e-4)
    contact.Bodies = [rings[0], rings[1]]
    collision_library("ring0-ring1")  # .venv-contact: tools/setup.sh (host), tools/test_freecad10_chroot.sh (chroot)
    pair = document_model(drop["doc"])[0].contacts[0]
    assert (pair.shape_a.type, pair.shape_b.type) == ("torus", "torus") and tessellated(pair)
    meshes = approximated(pair)
    assert (meshes.shape_a.type, meshes.shape_b.type) == ("mesh", "mesh")
    for shape in (meshes.shape_a, meshes.shape_b):  # body frame: about the ring's centre, axis z
        V = shape.mesh[0]
        tube = np.hypot(np.hypot(V[:, 0], V[:, 1]) - 0.04, V[:, 2])
        np.testing.assert_allclose(tube, 0.01, atol=1e-7)  # (the centre of gravity: OCC to ~1e-8 m)


def test_a_face_picked_in_a_container_is_named_in_the_container_shape(App, doc):
    """A body made of an App::Part holding two boxes (the container moved and turned): the top
    face of the second box, picked through the container, is found in the container's shape and
    read as that face's plane (global z = 30 + 10 mm, normal +z turned into the body frame)."""
    holder = doc.addObject("App::Part", "Holder")
    base = box(App, doc, "Base", (40, 40, 10), (0, 0, 0))
    block = box(App, doc, "Block", (10, 10, 20), (5, 5, 10))
    holder.addObject(base)
    holder.addObject(block)
    holder.Placement = App.Placement(App.Vector(100, 0, 10), App.Rotation(App.Vector(0, 0, 1), 30))
    doc.recompute()
    makers.make_simulation(doc, AllowFreeFlight=True)
    body = makers.make_body(doc, holder, label="holder")
    top = next(f"Face{k + 1}" for k, f in enumerate(block.Shape.Faces) if f.CenterOfMass.z > 29.999)
    name = face_in_part(holder, "Block." + top, holder)
    assert name != top  # the container's faces come after Base's six
    assert face_in_part(base, "Face6", base) == "Face6" and face_in_part(holder, "Block.Edge1", holder) == ""
    model_body = document_model(doc)[0].body("holder")
    plane, _ = side_shape(body, name, model_body, 0.1, "c")
    frame = BodyFrame(model_body)
    np.testing.assert_allclose(frame.rotation @ plane["normal"], [0, 0, 1], atol=1e-12)
    global_point = frame.rotation @ plane["point"] + frame.origin_mm * 1e-3
    assert global_point[2] == pytest.approx(0.040, abs=1e-12)


def test_shipped_drop_test_is_read_without_being_modified(App):
    """examples/drop_test.FCStd read as the CLI does (opened, read, closed): the file's bytes are
    unchanged and no document is left open; its one pair is the ball's sphere on the top face."""
    import hashlib
    import os

    from MBDWorkbench.cad.document_model import model_from_document_file

    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "drop_test.FCStd")
    with open(path, "rb") as f:
        before = hashlib.sha256(f.read()).hexdigest()
    open_before = set(App.listDocuments())
    model = model_from_document_file(path)
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == before
    assert set(App.listDocuments()) == open_before
    (pair,) = model.contacts
    assert (pair.shape_a.type, pair.shape_a.radius, pair.shape_b.type) == ("sphere", pytest.approx(0.02), "plane")
    assert (pair.restitution, pair.law, pair.mu_s) == (0.7, "restitution", 0.3)


@pytest.mark.parametrize(
    "values, field",
    [
        ({"Stiffness": 1e9, "Exponent": 5.0}, "Exponent"),
        ({"KineticFriction": math.nan}, "KineticFriction"),
        ({"Restitution": 0.0}, "Restitution"),
    ],
)
def test_a_bad_law_value_names_the_property(drop, values, field):
    """A NaN mu_k is not read as "equal to mu_s" (a negative one); it, an exponent out of [1, 3]
    and a restitution outside (0, 1] are refused naming the contact and the property. (Stiffness is
    a PropertyPrecision, which FreeCAD keeps >= 0.)"""
    for prop, value in values.items():
        setattr(drop["contact"], prop, value)
    with pytest.raises(CadError, match=r"^contact 'Contact' \(%s\): " % field):
        document_model(drop["doc"])
