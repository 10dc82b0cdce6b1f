"""Typed, unit-aware document properties (headless): values in FreeCAD's internal units, a
document written before them upgraded with its values kept, and the preferences as defaults of a
new Simulation. The GUI side (property editor texts, round trip of 0.0005) is
tests/gui/test_native_gui.py."""

import shutil
from pathlib import Path

import pytest

from MBDWorkbench.cad.document_model import model_from_document
from MBDWorkbench.cad.makers import make_body, make_simulation
from MBDWorkbench.cad.objects import PREFERENCES, density_kg_m3, find_objects, find_simulation, set_density

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"


def test_quantities_hold_internal_units(App, doc):
    box = doc.addObject("Part::Box", "Box")  # 10 mm cube
    doc.recompute()
    body = make_body(doc, box, material="Aluminium")
    assert body.Density.Value == pytest.approx(2700e-9, rel=1e-12)  # kg/mm^3
    assert density_kg_m3(body) == pytest.approx(2700.0, rel=1e-12)
    body.Density = "8000 kg/m^3"  # what the editor writes
    assert body.Material == "Stainless steel"
    body.Density = 1234.0  # a bare number from a script is kg/m^3
    assert density_kg_m3(body) == pytest.approx(1234.0, rel=1e-12) and body.Material == "Custom"
    set_density(body, 7850.0)
    body.recompute()
    assert float(body.ComputedMass) == pytest.approx(7850.0 * 1e-6, rel=1e-12)  # 1 cm^3 of steel, kg
    assert float(body.Ixx) == pytest.approx(body.Inertia[0]) and body.Ixx.Unit == App.Units.Quantity("1 kg*mm^2").Unit
    assert body.Volume.Value == pytest.approx(1000.0)  # mm^3


def test_old_document_upgraded_keeping_values(App, tmp_path):
    path = tmp_path / "old.FCStd"
    shutil.copy(EXAMPLES / "slider_crank.FCStd", path)  # saved current; an older one: test_time_steps.py
    doc = App.openDocument(str(path))
    try:
        sim = find_simulation(doc)
        assert (sim.StepMicroseconds, sim.OutputStepMicroseconds) == (1000, 10000)  # tests/cad/test_time_steps.py
        assert sim.getTypeIdOfProperty("GravityY") == "App::PropertyAcceleration"
        assert "Gravity" not in sim.PropertiesList
        assert [float(sim.GravityX), float(sim.GravityY), float(sim.GravityZ)] == [0.0, -9810.0, 0.0]
        assert sim.EndTimeMilliseconds == 2000 and "EndTime" not in sim.PropertiesList
        for body in find_objects(doc, "Body"):
            assert density_kg_m3(body) == pytest.approx(7850.0, rel=1e-12)
        assert model_from_document(doc).gravity == [0.0, -9.81, 0.0]
    finally:
        App.closeDocument(doc.Name)


def test_new_simulation_takes_the_preferences(App, doc):
    params = App.ParamGet(PREFERENCES)
    params.SetFloat("Step", 5e-4)
    params.SetString("Integrator", "galpha")
    try:
        sim = make_simulation(doc)
        assert sim.StepMicroseconds == 500 and sim.Integrator == "galpha"  # the preference is in s
    finally:
        params.RemFloat("Step")
        params.RemString("Integrator")
    other = make_simulation(doc, "Other")
    assert other.StepMicroseconds == 0 and other.RelativeTolerance == "default"  # the default: the integrator's own
