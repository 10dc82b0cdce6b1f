"""The cam-follower example document (examples/cam_follower.FCStd, built by
examples/make_cam_follower_fcstd.py; docs/contact.md): opened in FreeCAD, imported into a model
without modifying the document, simulated for one turn of the cam headless, the follower's lift
against the eccentric cam's closed-form profile (as tests/test_contact_cam.py does for a JSON model).

The cam (radius R, eccentricity E) turns at w from its lowest lift, so whichever way it turns the
flat follower's face rides at height -E cos(w t) + R; it is lower by the contact's compression
F / K, F = P + k lift + m (g + y'') the follower's load on the cam along its slide (the preload,
the spring, the weight and its inertia), K the contact's stiffness (a line contact, n = 1)."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "examples"))
SHIPPED = os.path.join(REPO, "examples", "cam_follower.FCStd")

import make_cam_follower_fcstd as cam  # noqa: E402


def closed_form(t, mass):
    """(the follower's rise from t = 0 [m] on the rigid profile, the contact's compression F / K [m],
    the normal force F [N]) at times t [s]."""
    w, e = cam.SPEED, cam.E * 1e-3
    lift = e * (1 - np.cos(w * t))
    force = cam.PRELOAD + cam.K_SPRING * 1e3 * lift + mass * (cam.GRAVITY + e * w * w * np.cos(w * t))
    return lift, force / cam.K_CONTACT, force


@pytest.fixture(scope="module")
def shipped(App):
    """The shipped document opened, its model imported (and the document's state before and after)."""
    from MBDWorkbench.cad.document_model import document_model

    doc = App.openDocument(SHIPPED)
    try:
        state = lambda: (  # noqa: E731
            [o.Name for o in doc.Objects if "Touched" in o.State],
            doc.isTouched(),
            {o.Name: o.Placement for o in doc.Objects if hasattr(o, "Placement")},
        )
        opened = state()  # FreeCAD 1.x touches the shapes of a 0.20 document by itself when it opens it
        model = document_model(doc)[0]
        yield dict(model=model, opened=opened, imported=state(), version=tuple(int(v) for v in App.Version()[:2]))
    finally:
        App.closeDocument(doc.Name)


def test_the_document_is_not_modified_by_the_import(shipped):
    """The import changes no object, placement or flag (FreeCAD 0.20, which wrote it: none touched)."""
    assert shipped["imported"] == shipped["opened"]
    if shipped["version"] < (1, 0):
        assert shipped["opened"][:2] == ([], False)


def test_the_contact_is_the_cams_cylinder_on_the_followers_plane(shipped):
    """The picked faces read as the cam's rim (R, its axis along the shaft, E off the shaft) and the
    plate's bottom (normal -z), in the bodies' frames [m]."""
    model = shipped["model"]
    (pair,) = model.contacts
    a, b = pair.shape_a, pair.shape_b
    assert (a.type, b.type) == ("cylinder", "plane")
    assert a.radius == pytest.approx(cam.R * 1e-3) and a.length == pytest.approx(cam.WIDTH * 1e-3)
    assert abs(a.axis[1]) == pytest.approx(1.0)
    centre = np.asarray(model.body("Cam_body").position) + np.asarray(a.center)  # the body frame is not turned
    np.testing.assert_allclose(centre, [0, 0, -cam.E * 1e-3], atol=1e-12)
    np.testing.assert_allclose(b.normal, [0, 0, -1], atol=1e-12)
    assert (pair.stiffness, pair.exponent) == (cam.K_CONTACT, 1.0)


def test_the_follower_rides_on_the_closed_form_profile_for_one_turn(shipped):
    """The rise of the follower over one turn: the rigid profile within the largest compression
    F / K (6e-7 m against a lift of 0.02 m), and the profile minus the compression within 0.1 % of
    that compression (the follower starts pressed in by its load: no transient; measured 2.4e-4);
    the normal force in contacts.csv is F within 1e-4 (measured 1.3e-5)."""
    from MBDWorkbench.solver.simulate import simulate

    model = shipped["model"]
    res = simulate(model, t_end=2 * math.pi / cam.SPEED, accuracy=False)
    assert res.status == "completed", res.warnings
    rise = res.position("Follower_body")[:, 2] - res.position("Follower_body")[0, 2]
    lift, sink, force = closed_form(res.t, model.body("Follower_body").mass)
    compliance = sink.max()
    assert compliance < 1e-6 and lift.max() == pytest.approx(2 * cam.E * 1e-3, rel=1e-6)
    assert np.abs(rise - lift).max() <= compliance
    assert np.abs(rise - (lift - sink + sink[0])).max() <= 1e-3 * compliance
    np.testing.assert_allclose(res.contact("Cam_on_follower")[:, 3], force, rtol=1e-4)


def test_the_shipped_document_is_the_generators(App, shipped, tmp_path):
    """examples/make_cam_follower_fcstd.py writes the model of the shipped file (not a stale copy)."""
    from MBDWorkbench.cad.document_model import model_from_document_file

    out = str(tmp_path / "cam_follower.FCStd")
    subprocess.run([sys.executable, os.path.join(REPO, "examples", "make_cam_follower_fcstd.py"), out], check=True)
    generated = model_from_document_file(out).to_dict()
    shipped_model = shipped["model"].to_dict()
    generated.pop("name"), shipped_model.pop("name")
    assert leaves(generated).keys() == leaves(shipped_model).keys()
    for key, value in leaves(shipped_model).items():  # another FreeCAD's mass properties differ in the last digits
        assert leaves(generated)[key] == (pytest.approx(value, rel=1e-9, abs=1e-15) if is_number(value) else value), key


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def leaves(tree, path="") -> dict:
    """{'bodies[0].mass': 0.75, ...}: the leaves of nested dicts and lists by their path."""
    if isinstance(tree, dict):
        return {k: v for key, sub in tree.items() for k, v in leaves(sub, "%s.%s" % (path, key)).items()}
    if isinstance(tree, list):
        return {k: v for i, sub in enumerate(tree) for k, v in leaves(sub, "%s[%d]" % (path, i)).items()}
    return {path: tree}
