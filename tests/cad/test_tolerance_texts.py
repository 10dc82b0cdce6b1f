"""The Simulation's tolerances as text (headless): the shortest exact text, parsing with clear
errors naming the property, new Simulations, and numbers of an older document (built in
tests/cad/test_time_steps.py) made text when it is opened. The property editor's texts are
tests/gui/test_native_gui.py, the panel tests/gui/test_task_panels_gui.py."""

import pytest

from MBDWorkbench.cad.errors import CadError
from MBDWorkbench.cad.tolerance_texts import (
    ABSOLUTE,
    RELATIVE,
    TIKHONOV,
    parse_tolerance,
    tolerance_text,
    tolerance_value,
)


def test_text_is_short_and_reads_back_exactly():
    values = (1e-8, 2.5e-7, 1e-10, 1e-6, 0.001, 1.0 / 3.0, 5e-324, 1e-300)
    texts = [tolerance_text(v) for v in values]
    assert texts[:5] == ["1e-8", "2.5e-7", "1e-10", "1e-6", "0.001"]
    assert [float(t) for t in texts] == list(values)  # exact, to the last bit
    assert tolerance_text(None) == tolerance_text(0.0) == "default"


def test_parsing_accepts_numbers_and_names_what_is_wrong():
    assert parse_tolerance(" 1e-8 ", "x") == 1e-8 and parse_tolerance("2,5e-7", "x") == 2.5e-7  # a decimal comma
    assert parse_tolerance("0.00000001", "x") == 1e-8
    for text in ("default", "", "0", "Default"):
        assert parse_tolerance(text, "x", may_default=True) is None
    for text in ("abc", "0", "-1e-8", "nan", "inf", "", "default", "1e-8 s"):
        with pytest.raises(
            CadError, match="^simulation 'S' \\(AbsoluteTolerance\\): must be a number > 0 such as 1e-8, got"
        ):
            parse_tolerance(text, "simulation 'S' (AbsoluteTolerance)")
    with pytest.raises(CadError, match="or 'default' \\(the integrator's own\\), got '-1'"):
        parse_tolerance("-1", "rtol", may_default=True)


def test_new_simulation_holds_text_read_as_numbers(App, doc):
    from MBDWorkbench.cad.document_model import SETTING_PROPERTIES
    from MBDWorkbench.cad.makers import make_simulation
    from MBDWorkbench.cad.objects import PREFERENCES

    sim = make_simulation(doc)
    assert {sim.getTypeIdOfProperty(n) for n in (RELATIVE, ABSOLUTE, TIKHONOV)} == {"App::PropertyString"}
    assert (sim.RelativeTolerance, sim.AbsoluteTolerance, sim.TikhonovEps) == ("default", "1e-8", "1e-10")
    assert [tolerance_value(sim, n) for n in (RELATIVE, ABSOLUTE, TIKHONOV)] == [None, 1e-8, 1e-10]
    assert (SETTING_PROPERTIES["rtol"], SETTING_PROPERTIES["atol"]) == (RELATIVE, ABSOLUTE)
    sim.AbsoluteTolerance = "bad"
    with pytest.raises(CadError, match="simulation 'Simulation' \\(AbsoluteTolerance\\): must be a number > 0"):
        tolerance_value(sim, ABSOLUTE)
    params = App.ParamGet(PREFERENCES)
    params.SetFloat("RelativeTolerance", 1e-6)  # the preferences hold numbers
    try:
        other = make_simulation(doc, "Other")
        assert other.RelativeTolerance == "1e-6" and tolerance_value(other, RELATIVE) == 1e-6
    finally:
        params.RemFloat("RelativeTolerance")
