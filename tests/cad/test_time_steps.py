"""The Simulation's end time in whole milliseconds and steps in whole microseconds (headless):
exact conversions, the solver's settings in seconds, clear errors, and a document written with
the older ``EndTime``, ``Step`` and ``OutputStep`` [s] (built here) converted when it is opened.
The property editor and the panel are tests/gui/test_native_gui.py and test_task_panels_gui.py."""

import os
import sys

import pytest

from MBDWorkbench.cad import time_steps
from MBDWorkbench.cad.errors import CadError
from MBDWorkbench.cad.time_steps import (
    END_TIME,
    MILLISECONDS_PER_SECOND,
    OUTPUT_STEP,
    STEP,
    end_time_seconds,
    microseconds,
    nearest_microseconds,
    nearest_whole,
    output_step_seconds,
    step_seconds,
    whole_microseconds,
    whole_units,
)

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples")
)


def test_conversions_are_exact_and_refuse_what_is_not_whole():
    assert [microseconds(s, "step") for s in (0.0, 5e-4, 1e-3, 0.01, 2.5e-5, 1.0)] == [0, 500, 1000, 10000, 25, 10**6]
    assert whole_microseconds(500.0, "step") == 500 and isinstance(whole_microseconds(500.0, "step"), int)
    with pytest.raises(CadError, match="step must be a whole number of microseconds.*0.5 µs"):
        microseconds(5e-7, "step")
    with pytest.raises(CadError, match="'S': StepMicroseconds must be a whole number.*500.5 µs"):
        whole_microseconds(500.5, "'S': StepMicroseconds")
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(CadError, match="output step must be a finite time >= 0"):
            whole_microseconds(bad, "output step")
    assert nearest_microseconds(1.2e-6) == 1 and nearest_microseconds(1e-9) == 1  # positive stays positive
    assert nearest_microseconds(0.0) == 0 and nearest_microseconds(0.0123456) == 12346


def test_end_time_in_whole_milliseconds():
    assert [nearest_whole(s, MILLISECONDS_PER_SECOND) for s in (2.0, 0.005, 1e-4, 400.0)] == [2000, 5, 1, 400000]
    assert nearest_whole(1e300, MILLISECONDS_PER_SECOND) == 2**31 - 1  # the property editor's integer range
    assert whole_units(1500.0, "end time", MILLISECONDS_PER_SECOND) == 1500
    with pytest.raises(
        CadError, match=r"'S': EndTimeMilliseconds must be a whole number of milliseconds \(1000 ms = 1 s\)"
    ):
        whole_units(2.5, "'S': EndTimeMilliseconds", MILLISECONDS_PER_SECOND)
    with pytest.raises(
        CadError, match="end time must be a finite time >= 0 ms and <= 2147483647 ms, got 3000000000 ms"
    ):
        whole_units(3e9, "end time", MILLISECONDS_PER_SECOND)


def test_settings_in_seconds_from_the_integer_properties(App, doc):
    from MBDWorkbench.cad.document_model import SETTING_PROPERTIES
    from MBDWorkbench.cad.makers import make_simulation

    sim = make_simulation(doc, StepMicroseconds=500, OutputStepMicroseconds=10000, EndTimeMilliseconds=5)
    assert {sim.getTypeIdOfProperty(n) for n in (STEP, OUTPUT_STEP, END_TIME)} == {"App::PropertyInteger"}
    assert step_seconds(sim) == 0.0005 and output_step_seconds(sim) == 0.01  # the doubles nearest, exactly
    assert end_time_seconds(sim) == 0.005 and "EndTime" not in sim.PropertiesList
    setattr(sim, END_TIME, 0)
    with pytest.raises(CadError, match=r"simulation 'Simulation' \(EndTimeMilliseconds\): must be >= 1 ms, got 0"):
        end_time_seconds(sim)
    setattr(sim, STEP, 0)
    assert step_seconds(sim) is None  # 0: the integrator's own default
    assert SETTING_PROPERTIES["step"] == STEP and SETTING_PROPERTIES["output_step"] == OUTPUT_STEP
    assert SETTING_PROPERTIES["t_end"] == END_TIME
    with pytest.raises(TypeError):
        sim.StepMicroseconds = 0.0005  # a float in seconds is refused, not truncated to 0


def old_style_document(App, path, step, output_step, end_time=1.0):
    """The pendulum example as written before the integer times and the tolerance texts: the
    Simulation's ``Step`` a PropertyPrecision, ``OutputStep`` and ``EndTime`` time quantities
    [s], the tolerances PropertyPrecision numbers (``RelativeTolerance`` 0: the default)."""
    import make_pendulum_fcstd

    doc = App.newDocument("old_steps")
    try:
        sim = make_pendulum_fcstd.build(doc)[0]
        for name in (STEP, OUTPUT_STEP, END_TIME, "RelativeTolerance", "AbsoluteTolerance", "TikhonovEps"):
            sim.removeProperty(name)
        sim.addProperty("App::PropertyPrecision", "Step", "Simulation", "Integration step [s]")
        for name in ("OutputStep", "EndTime"):
            sim.addProperty("App::PropertyQuantity", name, "Simulation", "A time")
        for name in ("RelativeTolerance", "AbsoluteTolerance", "TikhonovEps"):
            sim.addProperty("App::PropertyPrecision", name, "Simulation", "A number")
        sim.Step = step
        sim.OutputStep, sim.EndTime = output_step, end_time  # a quantity's unit is not saved: read back as a number
        sim.RelativeTolerance, sim.AbsoluteTolerance, sim.TikhonovEps = 0.0, 2.5e-7, 1e-10
        doc.recompute()  # saved up to date: a touched object would be written touched
        doc.saveAs(str(path))
    finally:
        App.closeDocument(doc.Name)


def test_old_document_converted_on_opening(App, tmp_path):
    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.objects import find_simulation

    path = tmp_path / "old_steps.FCStd"
    old_style_document(App, path, 0.0005, 0.002, 0.005)
    doc = App.openDocument(str(path))
    try:
        sim = find_simulation(doc)
        assert not {"Step", "OutputStep", "EndTime"} & set(sim.PropertiesList)
        assert (getattr(sim, STEP), getattr(sim, OUTPUT_STEP), getattr(sim, END_TIME)) == (500, 2000, 5)
        texts = (sim.RelativeTolerance, sim.AbsoluteTolerance, sim.TikhonovEps)
        assert (
            texts == ("default", "2.5e-7", "1e-10") and sim.getTypeIdOfProperty("TikhonovEps") == "App::PropertyString"
        )
        settings = model_from_document(doc).settings
        assert (settings.step, settings.output_step, settings.t_end) == (0.0005, 0.002, 0.005)
        assert (settings.rtol, settings.atol, settings.tikhonov_eps) == (None, 2.5e-7, 1e-10)
        assert [o.Name for o in doc.Objects if "Touched" in o.State] == []
        saved = tmp_path / "saved_again.FCStd"
        doc.saveAs(str(saved))
    finally:
        App.closeDocument(doc.Name)
    again = App.openDocument(str(saved))
    try:
        sim = find_simulation(again)
        assert (getattr(sim, STEP), getattr(sim, OUTPUT_STEP), getattr(sim, END_TIME)) == (500, 2000, 5)
        assert sim.AbsoluteTolerance == "2.5e-7"
    finally:
        App.closeDocument(again.Name)


def test_old_step_below_a_microsecond_becomes_one_with_a_warning(App, tmp_path, monkeypatch):
    from MBDWorkbench.cad.objects import find_simulation

    warnings = []
    monkeypatch.setattr(time_steps, "_warn", warnings.append)  # FreeCAD's Report view

    path = tmp_path / "old_fine_step.FCStd"
    old_style_document(App, path, 5e-7, 0.01, 2.5e-4)
    doc = App.openDocument(str(path))
    try:
        sim = find_simulation(doc)
        assert (getattr(sim, STEP), getattr(sim, OUTPUT_STEP), getattr(sim, END_TIME)) == (1, 10000, 1)  # never 0
    finally:
        App.closeDocument(doc.Name)
    assert warnings == [
        "simulation 'Simulation': Step = 5e-07 s is now StepMicroseconds = 1 µs (whole microseconds)\n",
        "simulation 'Simulation': EndTime = 0.00025 s is now EndTimeMilliseconds = 1 ms (whole milliseconds)\n",
    ]
