"""The FreeCAD-native parts of the workbench in the real FreeCAD GUI under Xvfb
(tests/gui/macros/macro_native_gui.py, one FreeCAD start, about 15 s): typed, unit-aware
properties in the property editor (500 typed into StepMicroseconds and Enter keeps 500; mass, density,
inertia, gravity and time shown with units), an older document upgraded keeping its values, the
preferences page and the defaults it gives new Simulations, the one toolbar with drop-downs,
About in the Help menu, Import assembly joints disabled on FreeCAD 0.20, commands recorded
through Gui.doCommand, context-menu commands and per-type icons. Set MBD_GUI_ARTIFACTS=<dir>
to keep the screenshots of the preferences page, the toolbar and the property editor."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, png_stats, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


@pytest.fixture(scope="module")
def gui_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("native")
    home = make_user_home(tmp / "home", install=True)
    run = run_gui_macro(MACROS / "macro_native_gui.py", tmp / "out", user_home=home, timeout=300)
    run.keep_artifacts("native_gui")
    run.assert_finished()
    return run


def test_small_values_round_trip_and_units_shown(gui_run):
    gui_run.assert_passed(
        "500 typed into StepMicroseconds keeps 500 µs",
        "StepMicroseconds shows 500",
        "OutputStepMicroseconds 1 ms shown as 1000",
        "2000000 typed into OutputStepMicroseconds keeps it",
        "0.0005 typed into Damping keeps 0.0005",
        "Damping shows 0.0005",
        "1500 typed into EndTimeMilliseconds keeps 1.5 s",
        "EndTimeMilliseconds shows 1500",
        "2.5e-7 typed into AbsoluteTolerance keeps it",
        "tolerances read 2.5e-7, default and 1e-10",
        "typed values reach the solver exactly",
        "gravity shows its unit",
        "mass 0.116 kg shows as 116.00 g",
        "density shows kg/m^3",
        "inertia shows its unit",
    )


def test_older_document_upgraded_keeping_values(gui_run):
    gui_run.assert_passed(
        "old document: Step is whole microseconds now",
        "old document: Step kept",
        "old document: OutputStep (a quantity before) in µs and kept",
        "old document: the time and tolerance conversions leave it unmodified",
        "old document: EndTime kept, in ms",
        "old document: AbsoluteTolerance (a number before) kept as text",
        "old document: gravity vector kept as components",
        "old document: density kept in kg/m^3",
        "old document: inertia shown with units",
        "old document: solver gets SI gravity",
        "saved again: units back after reopening",
        "saved again: not marked modified on opening",
    )


def test_preferences_page_sets_new_simulation_defaults(gui_run):
    gui_run.assert_passed(
        "preferences group 'Multibody Dynamics' listed",
        "preferences page has the step field",
        "preferences group has our icon",
        "page shows the default step (0: the integrator's own)",
        "page lists the integrators",
        "OK stores the step",
        "a new Simulation takes the preferred step",
    )
    assert png_stats(gui_run.out_dir / "preferences_page.png")["distinct_colors"] > 5


def test_toolbar_menus_and_commands(gui_run):
    gui_run.assert_passed(
        "one toolbar of ours",
        "no old toolbars",
        "toolbar fits 1600 px",
        "toolbar has drop-down groups",
        "joint drop-down lists every joint type",
        "About is not a toolbar button",
        "About in the Help menu",
        "Import assembly joints disabled without the Assembly workbench",
        "Body command recorded in the Python console",
        "Simulation recorded too",
        "context menu of the Simulation offers Solve",
        "context menu of a joint offers Driver",
        "the workbench's ContextMenu adds them",
    )


def test_per_type_icons(gui_run):
    gui_run.assert_passed(
        "grounded body has its own icon",
        "each joint type has its icon",
        "icon files exist",
        "icon follows Grounded",
    )
