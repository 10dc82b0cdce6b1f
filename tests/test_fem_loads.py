"""Load extraction for the structural check (MBDWorkbench.loads): joint reactions, driver
efforts, gravity and d'Alembert loads of one body, against closed forms and Newton-Euler."""

import csv
import json
import os

import numpy as np
import pytest

from MBDWorkbench.loads import BodyLoadError, body_load_case, worst_instants, write_load_table
from MBDWorkbench.loads.body_loads import critical_instants, unmodelled_forces
from MBDWorkbench.solver.model import load
from MBDWorkbench.solver.simulate import simulate

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


@pytest.fixture(scope="module")
def pendulum():
    return simulate(load(os.path.join(EXAMPLES, "pendulum.json")), t_end=1.2, output_step=0.01)


@pytest.fixture(scope="module")
def slider_crank():
    return simulate(load(os.path.join(EXAMPLES, "slider_crank.json")), t_end=1.0, output_step=0.02)


def test_pendulum_pivot_reaction_is_the_closed_form(pendulum):
    """Released from the horizontal (L = 1 m, m = 1 kg): at depth angle theta the rod pulls the
    bob towards the pivot with m (g sin(theta) + v^2 / L) = 3 m g sin(theta); at the bottom m (g + w^2 L)."""
    g, L, m = 9.81, 1.0, 1.0
    for k in range(0, len(pendulum), 7):
        case = body_load_case(pendulum, "bob", k)
        pivot = next(ld for ld in case.loads if ld.kind == "joint")
        r = case.cog  # pivot at the origin
        sin_theta = -r[2] / L
        expected = -3 * m * g * sin_theta * r / L
        assert np.allclose(pivot.force, expected, atol=2e-3 * m * g), (k, pivot.force, expected)
        assert pivot.side == 2 and np.allclose(pivot.point, 0, atol=1e-6)
    bottom = worst_instants(pendulum, "bob")[0]
    case = body_load_case(pendulum, "bob", bottom)
    w = np.linalg.norm(case.omega)
    pivot = next(ld for ld in case.loads if ld.kind == "joint")
    assert abs(pivot.force[2] - m * (g + w**2 * L)) < 1e-3 * m * g
    assert abs(pivot.force[2] - 3 * m * g) < 0.01 * m * g  # the bottom: the largest reaction
    assert case.check_equilibrium() < 1e-6


def test_loads_of_driven_and_free_bodies_are_in_equilibrium(slider_crank):
    """Crank (motor effort included) and rod: joint + driver + gravity + inertia sum to zero."""
    for body in ("crank", "rod"):
        for k in worst_instants(slider_crank, body, 3):
            case = body_load_case(slider_crank, body, k)
            assert case.check_equilibrium() < 1e-6
            kinds = {ld.kind for ld in case.loads}
            assert {"joint", "gravity", "inertia"} <= kinds
    crank = body_load_case(slider_crank, "crank", 10)
    motor = next(ld for ld in crank.loads if ld.kind == "driver")
    assert np.linalg.norm(motor.force) < 1e-9 and abs(motor.moment[2]) > 0  # a torque about the pivot axis z


def test_rod_sides_are_opposite_reactions(slider_crank):
    """The crank pin's load on the rod (Body2) is the opposite of its load on the crank (Body1)."""
    k = 17
    on_crank = next(ld for ld in body_load_case(slider_crank, "crank", k).loads if ld.name == "crank_pin")
    on_rod = next(ld for ld in body_load_case(slider_crank, "rod", k).loads if ld.name == "crank_pin")
    assert np.allclose(on_crank.force, -on_rod.force, atol=1e-12)
    assert (on_crank.side, on_rod.side) == (1, 2)


def test_force_element_is_in_the_load_set(slider_crank):
    """The slider carries a spring: its load is in the set (kind 'spring'), which balances; with
    it left out the set does not, and the error names the spring."""
    names = unmodelled_forces(slider_crank.model, "slider")
    case = body_load_case(slider_crank, "slider", 25)
    assert [ld.kind for ld in case.loads if ld.name.startswith("spring")] == ["spring"]
    assert case.check_equilibrium() < 1e-9
    case.loads = [ld for ld in case.loads if ld.kind != "spring"]
    with pytest.raises(BodyLoadError, match="spring"):
        case.check_equilibrium(unmodelled=names)


def test_bad_body_is_named(slider_crank):
    with pytest.raises(BodyLoadError, match="'nothing'"):
        body_load_case(slider_crank, "nothing", 0)


def test_load_table_files(slider_crank, tmp_path):
    cases = [body_load_case(slider_crank, "rod", k) for k in worst_instants(slider_crank, "rod", 2)]
    write_load_table(cases, str(tmp_path / "t.csv"), str(tmp_path / "t.json"))
    rows = list(csv.DictReader(open(tmp_path / "t.csv")))
    assert len(rows) == sum(len(c.loads) for c in cases)
    F = np.array([[float(r["F%s_N" % a]) for a in "xyz"] for r in rows[: len(cases[0].loads)]])
    assert np.linalg.norm(F.sum(axis=0)) < 1e-6 * np.abs(F).max()
    data = json.load(open(tmp_path / "t.json"))
    assert [c["time_s"] for c in data["cases"]] == [c.time for c in cases]


def test_report_gains_structural_check_section(slider_crank, tmp_path):
    """write_report(..., structural=[summary]) adds the section with each analysed instant."""
    from MBDWorkbench.report import write_report

    case = dict(
        time_s=0.5, largest_load_N=12.5, max_von_mises_MPa=3.25, max_von_mises_at_mm=[1, 2, 3],
        max_displacement_mm=0.0125, support_reaction_relative=1e-7, analysis="FEM_Rod_t0_5000",
    )  # fmt: skip
    summary = dict(body="rod", copy="copy.FCStd", youngs_modulus_MPa=2e5, poisson_ratio=0.3, cases=[case])
    write_report(slider_crank, tmp_path / "with", animation=None, structural=[summary])
    write_report(slider_crank, tmp_path / "without", animation=None)
    html = (tmp_path / "with" / "report.html").read_text()
    assert "Structural check" in html and "FEM_Rod_t0_5000" in html and "3.25" in html
    assert "Structural check" not in (tmp_path / "without" / "report.html").read_text()


def test_fem_check_refuses_a_body_with_force_element_loads(slider_crank):
    """The FEM nodal loads take joints, drivers, gravity and inertia only: the slider, whose spring
    pulls on it, is refused naming the spring; the rod (no force element) is not."""
    from MBDWorkbench.cad.errors import CadError
    from MBDWorkbench.cad.fem_loads import FemRequest, load_cases

    def ctx(body):
        return dict(model=slider_crank.model, body=body, faces={})

    with pytest.raises(CadError, match="force elements act on body 'slider': spring"):
        load_cases(ctx("slider"), FemRequest("x.FCStd", "slider", "out"), slider_crank)
    _, cases = load_cases(ctx("rod"), FemRequest("x.FCStd", "rod", "out"), slider_crank)
    assert cases and all(ld.kind not in ("spring", "damper", "applied") for ld in cases[0].loads)


def test_critical_instants_of_the_pendulum(pendulum):
    """Released from the horizontal: the pivot reaction 3 m g sin(theta) and the bob's
    acceleration g sqrt(cos^2 + 4 sin^2) peak at the bottom (lowest CoG); its angular
    acceleration g cos(theta) / L, hence its d'Alembert moment, at the release (t = 0)."""
    bottom = int(np.argmin(pendulum.position("bob")[:, 2]))
    assert critical_instants(pendulum, "bob") == [
        (0, ["peak inertial moment"]),
        (bottom, ["peak reaction of joint 'pivot'", "peak inertial force"]),
    ]
    with pytest.raises(BodyLoadError, match="no moving body 'nobody'"):
        critical_instants(pendulum, "nobody")


def test_critical_instants_include_the_motor_effort(slider_crank):
    """The crank at constant speed: its motor torque's peak is a critical instant (checked against
    the driver load of every sample); no inertial moment (alpha = 0, w along a principal axis)."""
    instants = dict(critical_instants(slider_crank, "crank"))
    torque = [
        abs(next(ld for ld in body_load_case(slider_crank, "crank", k).loads if ld.kind == "driver").moment[2])
        for k in range(len(slider_crank))
    ]
    assert "peak effort of driver 'motor'" in instants[int(np.argmax(torque))]
    assert not any("inertial moment" in why for reasons in instants.values() for why in reasons)
