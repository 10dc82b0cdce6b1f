"""Two Part boxes picked whole in a Contact (docs/contact.md, "Contact in FreeCAD") make a box-box
pair: each box read in its body's frame (SI, centred on its centre of gravity), the upper one
turned 0.3 deg about z as real CAD is; dropped, it first touches at the free-fall time."""

import math

import numpy as np
import pytest

from MBDWorkbench.cad import makers
from MBDWorkbench.cad.document_model import document_model
from MBDWorkbench.solver.numerics import quaternion
from MBDWorkbench.solver.simulate import simulate

G, DROP = 9.81, 0.1  # gravity [m/s^2], height of the upper box's bottom face over the plate [m]


def box(App, doc, name, size, at, rotation=None):
    obj = doc.addObject("Part::Box", name)
    obj.Length, obj.Width, obj.Height = size
    obj.Placement = App.Placement(App.Vector(*at), rotation or App.Rotation())
    return obj


@pytest.fixture
def boxes(App, doc):
    """A grounded 200 x 200 x 20 mm plate (top face at z = 0) and a 50 x 40 x 30 mm block turned
    0.3 deg about z, its bottom face 0.1 m above the plate; the Contact between their solids."""
    plate = box(App, doc, "Plate", (200, 200, 20), (-100.4, -99.2, -20))
    block = box(App, doc, "Block", (50, 40, 30), (-20.0, -15.0, 1000 * DROP), App.Rotation(App.Vector(0, 0, 1), 0.3))
    doc.recompute()
    sim = makers.make_simulation(
        doc, EndTimeMilliseconds=160, OutputStepMicroseconds=1000, StepMicroseconds=10, Integrator="rk4"
    )
    sim.GravityZ = -9810.0
    sim.EstimateAccuracy = False
    plate_body = makers.make_body(doc, plate, grounded=True, label="plate")
    block_body = makers.make_body(doc, block, label="block")
    makers.make_contact(doc, block_body, plate_body, "", "", label="Stack", Stiffness=1e9)
    doc.recompute()
    return doc


def test_two_part_boxes_make_a_box_box_pair_that_touches_at_the_free_fall_time(boxes):
    """The pair is box-box, each box's size in m about its body's origin (its centre of gravity),
    the block's axes turned 0.3 deg about z; its first touch at sqrt(2 h / g) within 1e-8."""
    model = document_model(boxes)[0]
    (pair,) = model.contacts
    assert (pair.shape_a.type, pair.shape_b.type) == ("box", "box")
    sizes = {pair.body_a: pair.shape_a.size, pair.body_b: pair.shape_b.size}
    assert sizes["block"] == pytest.approx([0.05, 0.04, 0.03], rel=1e-12)
    assert sizes["plate"] == pytest.approx([0.2, 0.2, 0.02], rel=1e-12)
    for shape in (pair.shape_a, pair.shape_b):
        np.testing.assert_allclose(shape.center, 0, atol=1e-12)
    x_axis = quaternion.matrix(model.body("block").orientation)[:, 0]
    assert math.degrees(math.atan2(x_axis[1], x_axis[0])) == pytest.approx(0.3, abs=1e-9)
    res = simulate(model)
    assert res.status == "completed", res.warnings
    onset = res.stops.contacts.events[0]
    assert onset.contact == "Stack"
    assert onset.t == pytest.approx(math.sqrt(2 * DROP / G), rel=1e-8)
