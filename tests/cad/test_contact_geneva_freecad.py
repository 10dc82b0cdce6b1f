"""A Geneva drive made with FreeCAD's Part solids (examples/make_geneva_fcstd.py): the pin against
each slot wall read as a bounded face (docs/contact.md, "Bounded faces"), the wheel indexing
90 deg per driver turn along the closed form (tests/oracles/geneva.py)."""

import importlib.util
import math
import os
import subprocess
import sys

import numpy as np
import pytest
from oracles import geneva

from MBDWorkbench.cad import makers
from MBDWorkbench.cad.document_model import document_model, model_from_document_file
from MBDWorkbench.cad.errors import CadError
from MBDWorkbench.solver.simulate import simulate

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GENERATOR = os.path.join(REPO, "examples", "make_geneva_fcstd.py")


def generator():
    """examples/make_geneva_fcstd.py as a module (its dimensions)."""
    spec = importlib.util.spec_from_file_location("make_geneva_fcstd", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def geneva_file(App, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("geneva") / "geneva.FCStd")
    subprocess.run([sys.executable, GENERATOR, out], check=True)
    return out


def test_slot_walls_are_read_as_bounded_faces(geneva_file):
    """Eight pairs, the pin's cylinder against a rectangle of each wall: from the slot's bottom to
    where the pin leaves (SLOT_IN to R_CRANK from W), the wheel's thickness wide, normal across the
    slot, depth half the material behind the wall's centre (more than the pin's radius)."""
    g = generator()
    model = model_from_document_file(geneva_file)
    assert len(model.contacts) == 8
    for c in model.contacts:
        pin, wall = c.shape_a, c.shape_b
        assert (pin.type, wall.type) == ("cylinder", "face")
        assert pin.radius == pytest.approx(g.R_PIN * 1e-3, rel=1e-9)
        assert wall.length == pytest.approx((g.R_CRANK - g.SLOT_IN) * 1e-3, rel=1e-9)
        assert wall.width == pytest.approx(g.THICKNESS * 1e-3, rel=1e-9)
        assert g.R_PIN * 1e-3 < wall.depth < g.R_WHEEL * 1e-3
        centre, normal, axis = (np.asarray(v) for v in (wall.center, wall.normal, wall.axis))
        assert abs(abs(float(normal @ centre)) - g.HALF_SLOT * 1e-3) < 1e-12  # the wall's plane (W: the body's origin)
        assert abs(float(axis @ centre)) == pytest.approx(0.5e-3 * (g.SLOT_IN + g.R_CRANK), rel=1e-9)


def test_geneva_wheel_indexes_90_deg_per_driver_turn_along_the_closed_form(geneva_file):
    """Three driver turns: while the pin is in a slot the wheel follows beta(phi) within the pin's
    play and the contact's compression over the pin's distance from W (geneva.index_tolerance);
    while the pin is out it is still within the play at the exit (PLAY / r); it ends at -270 deg."""
    g = generator()
    model = model_from_document_file(geneva_file)
    res = simulate(model)
    assert res.status == "completed", res.warnings
    q = res.orientation("Wheel_body")
    beta = np.unwrap(2 * np.arctan2(q[:, 3], q[:, 0]))
    beta -= beta[0]
    a, r, omega = g.A * 1e-3, g.R_CRANK * 1e-3, math.radians(g.RATE)
    theta = math.radians(g.START) + omega * res.t
    phi = geneva.driver_phase(theta)
    inertia = np.asarray(model.body("Wheel_body").inertia)[2][2]
    tol = geneva.index_tolerance(phi, a, r, g.PLAY * 1e-3, g.STIFFNESS, inertia, g.DAMPING, omega)
    error = np.abs(beta - geneva.wheel_rotation(theta, a, r))
    assert np.all(error <= tol)
    dwell = np.abs(phi) > geneva.HALF_INDEX + 0.05
    assert error[dwell].max() <= g.PLAY * 1e-3 / r
    assert beta[-1] == pytest.approx(-3 * math.pi / 2, abs=g.PLAY * 1e-3 / r)


def test_bounded_faces_refuse_a_face_that_is_not_a_rectangle(App, doc):
    """BoundedFaces on the wheel's top face (a disc with four slots): refused naming the face."""
    g = generator()
    _, crank, disc, _ = g.build(doc)
    top = next(
        "Face%d" % (k + 1)
        for k, f in enumerate(disc.Part.Shape.Faces)
        if abs(f.CenterOfMass.z - g.THICKNESS / 2) < 1e-9
    )
    makers.make_contact(doc, crank, disc, g.pin_face(crank.Part), top, label="Top", BoundedFaces=True, Stiffness=1e8)
    with pytest.raises(CadError, match=r"contact 'Top'.*BoundedFaces: %s of part 'Wheel' is not a rectangle" % top):
        document_model(doc)


def test_shipped_geneva_is_its_generators_document(geneva_file):
    """examples/geneva.FCStd (saved with its view) reads into the same pairs as a fresh generation."""
    shipped = model_from_document_file(os.path.join(REPO, "examples", "geneva.FCStd"))
    fresh = model_from_document_file(geneva_file)
    assert [c.name for c in shipped.contacts] == [c.name for c in fresh.contacts]
    for a, b in zip(shipped.contacts, fresh.contacts):
        for key in ("center", "normal", "axis", "length", "width", "depth"):
            np.testing.assert_allclose(getattr(a.shape_b, key), getattr(b.shape_b, key), atol=1e-12)
        assert (a.stiffness, a.restitution, a.shape_a.radius) == (b.stiffness, b.restitution, b.shape_a.radius)
