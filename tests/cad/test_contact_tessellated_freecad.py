"""A pair without an exact kind read from a FreeCAD document (docs/contact.md, "Tessellated pairs"):
a Part.makeCylinder roller lying on a Part.makeBox plate, picked whole, stays a box and a cylinder
with the Contact's Deflection as the pair's deflection, becomes the mesh-mesh pair of their
tessellations, warns, and rests on the plate as the cylinder-plane pair would, within the
deflection."""

import math

import pytest

from MBDWorkbench.cad import makers
from MBDWorkbench.cad.document_model import document_model
from MBDWorkbench.solver.model.contacts import approximated, tessellated
from MBDWorkbench.solver.model.mesh_pairs import collision_library
from MBDWorkbench.solver.simulate import simulate

G, K, R = 9.81, 1e7, 0.02  # gravity [m/s^2], line stiffness [N/m], the roller's radius [m]


def test_a_roller_lying_on_a_part_box_is_a_tessellated_pair_and_rests_on_it(App, doc):
    import Part

    plate = doc.addObject("Part::Feature", "Plate")
    plate.Shape = Part.makeBox(200, 200, 20, App.Vector(-100, -100, -20))  # its top at z = 0
    roller = doc.addObject("Part::Feature", "Roller")
    roller.Shape = Part.makeCylinder(1000 * R, 100, App.Vector(-50, 0, 1000 * R + 0.1), App.Vector(1, 0, 0))
    doc.recompute()
    sim = makers.make_simulation(
        doc, EndTimeMilliseconds=200, OutputStepMicroseconds=1000, StepMicroseconds=20, Integrator="rk4"
    )
    sim.EstimateAccuracy = False
    plate_body = makers.make_body(doc, plate, grounded=True, label="plate")
    roller_body = makers.make_body(doc, roller, label="roller")
    makers.make_contact(
        doc, roller_body, plate_body, "", "", Stiffness=K, Exponent=1.0, Restitution=0.3, Law="restitution",
        Deflection=1.0,
    )  # fmt: skip
    doc.recompute()
    model = document_model(doc)[0]
    (pair,) = model.contacts
    assert (pair.shape_a.type, pair.shape_b.type) == ("cylinder", "box")
    assert pair.deflection == pytest.approx(1e-3) and tessellated(pair)
    collision_library(pair.name)  # .venv-contact: tools/setup.sh (host), tools/test_freecad10_chroot.sh (chroot)
    meshes = approximated(pair)
    assert (meshes.shape_a.type, meshes.shape_b.type) == ("mesh", "mesh")
    res = simulate(model)
    assert res.status == "completed_with_warnings" and [w.kind for w in res.warnings] == ["contact"]
    mass = model.body("roller").mass
    z = res.position("roller")[-1, 2]
    assert abs(z - (R - mass * G / K)) <= 1e-3  # the cylinder-plane pair's height, within the deflection
    assert z == pytest.approx(R * math.cos(math.pi / 10) - mass * G / K, abs=1e-7)  # on a facet of its 10-gon
    assert res.contact(pair.name)[-1, 3] == pytest.approx(mass * G, rel=1e-4)
