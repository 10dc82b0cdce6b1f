"""Contact pairs (docs/contact.md) against closed forms: a ball dropped on a plane (rebound heights
e^(2n) h and impact times), Hertz's elastic impact (peak force and duration), a block sliding to
rest (v^2 / (2 mu g)), the energy of elastic contacts; and the model checks."""

import math

import numpy as np
import pytest

from MBDWorkbench.solver.errors import ModelError
from MBDWorkbench.solver.model import from_dict
from MBDWorkbench.solver.model.contacts import MATERIALS, damping_factor, rebound_ratio
from MBDWorkbench.solver.simulate import simulate

G = 9.81
R = 0.05  # ball radius [m]
H = 0.2  # drop height of the ball's bottom [m]
MASS = 1.0
E_STAR_STEEL = 1.0 / (2 * (1 - MATERIALS["steel"][1] ** 2) / MATERIALS["steel"][0])  # [Pa]


def ball_model(e=0.8, law="restitution", t_end=0.9, step=1e-5, height=H, speed=0.0, accuracy=True, **contact):
    """A steel ball (radius R) above a steel half-space z < 0, its bottom at ``height``."""
    J = 0.4 * MASS * R * R
    pair = {
        "name": "floor",
        "body_a": "ball",
        "body_b": "ground",
        "shape_a": {"type": "sphere", "center": [0, 0, 0], "radius": R},
        "shape_b": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
        "restitution": e,
        "law": law,
        **contact,
    }
    ball = {"name": "ball", "mass": MASS, "inertia": np.diag([J, J, J]).tolist(), "position": [0, 0, R + height]}
    ball["velocity"] = [0, 0, -speed]
    settings = {"t_end": t_end, "step": step, "output_step": 1e-4, "integrator": "rk4", "accuracy": accuracy}
    return from_dict({"name": "ball", "bodies": [ball], "contacts": [pair], "settings": settings})


def crossings(t, x, direction):
    """Times [s] where x crosses 0 downwards (direction -1) or upwards (+1), linearly interpolated."""
    s = np.sign(x)
    idx = np.nonzero(s[:-1] * s[1:] < 0)[0]
    idx = [i for i in idx if np.sign(x[i + 1] - x[i]) == direction]
    return np.array([t[i] - x[i] * (t[i + 1] - t[i]) / (x[i + 1] - x[i]) for i in idx])


def apexes(z):
    """The local maxima of z above 0."""
    i = np.nonzero((z[1:-1] > z[:-2]) & (z[1:-1] >= z[2:]) & (z[1:-1] > 0))[0] + 1
    return z[i]


ADAPTIVE = dict(rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("integrator", ["rk4", "bdf", "radau", "galpha", "cros"])
def test_ball_rebounds_to_e_2n_h_at_the_rigid_impact_times(integrator):
    """Steel on steel (Hertz), e = 0.8: apexes e^(2n) h and flight times 2 e^n v0 / g within 0.5 %
    (three bounces; one with the adaptive integrators, whose impacts cost many steps, and with cros,
    second order, at a step of 2.5e-6 s: 70 per impact), the first touch at sqrt(2 h / g), each
    apex e^n v0 / g after the ball leaves the floor."""
    e, fixed = 0.8, integrator in ("rk4", "galpha")
    settings = {"cros": dict(step=2.5e-6)}.get(integrator, {} if fixed else ADAPTIVE)
    res = simulate(ball_model(e, t_end=0.9 if fixed else 0.45), integrator=integrator, **settings)
    assert res.status == "completed", res.warnings
    z = res.position("ball")[:, 2] - R
    heights = apexes(z) / H
    assert len(heights) == (3 if fixed else 1)
    assert heights == pytest.approx(e ** (2 * np.arange(1, len(heights) + 1)), rel=5e-3)
    touch, leave = crossings(res.t, z, -1), crossings(res.t, z, +1)
    v0 = math.sqrt(2 * G * H)
    assert touch[0] == pytest.approx(math.sqrt(2 * H / G), rel=1e-4)
    flights = touch[1:] - leave[: len(touch) - 1]
    assert len(flights) == (2 if fixed else 0)
    assert flights == pytest.approx(2 * e ** np.arange(1, len(flights) + 1) * v0 / G, rel=5e-3)
    apex_times = res.t[1:-1][(z[1:-1] > z[:-2]) & (z[1:-1] >= z[2:]) & (z[1:-1] > 0)]
    assert apex_times[0] - leave[0] == pytest.approx(e * v0 / G, rel=5e-3)


def test_flores_law_rebounds_below_e_as_documented():
    """The Flores law's own rebound ratio (docs/contact.md: 0.789 for e = 0.8) is what a run gives."""
    assert rebound_ratio(damping_factor(0.8, 1.5, "flores"), 1.5) == pytest.approx(0.789, abs=1e-3)
    assert rebound_ratio(damping_factor(0.8, 1.5, "restitution"), 1.5) == pytest.approx(0.8, abs=1e-8)
    res = simulate(ball_model(0.8, law="flores", t_end=0.45))
    z = res.position("ball")[:, 2] - R
    assert math.sqrt(apexes(z)[0] / H) == pytest.approx(0.789, abs=2e-3)


def hertz_run(speed=1.0, step=5e-7, output_step=1e-6):
    """A steel ball hitting the steel half-space at ``speed`` without gravity."""
    m = ball_model(1.0, law="flores", t_end=4e-4, step=step, height=2e-5, speed=speed, accuracy=False)
    m.gravity = [0.0, 0.0, 0.0]
    return simulate(m, output_step=output_step)


def test_hertz_impact_peak_force_and_duration_within_2_percent():
    """Peak force K d_max^1.5, d_max = (15 m v^2 / (16 E* sqrt(R)))^(2/5), duration 2.94 d_max / v
    [Johnson] section 11.4; read from contacts.csv's columns."""
    v = 1.0
    res = hertz_run(v)
    c = res.contact("floor")
    K = 4.0 / 3.0 * E_STAR_STEEL * math.sqrt(R)
    d_max = (15 * MASS * v**2 / (16 * E_STAR_STEEL * math.sqrt(R))) ** 0.4
    assert c[:, 5].max() == pytest.approx(d_max, rel=2e-3)
    assert c[:, 3].max() == pytest.approx(K * d_max**1.5, rel=5e-3)
    assert c[:, 2].max() == pytest.approx(c[:, 3].max(), rel=1e-9)  # the force on the ball: +z, all normal
    depth = c[:, 5]
    start, end = crossings(res.t, depth - 1e-30, +1)[0], crossings(res.t, depth - 1e-30, -1)[0]
    assert end - start == pytest.approx(2.94 * d_max / v, rel=0.02)
    assert res.velocity("ball")[-1, 2] == pytest.approx(v, rel=1e-4)  # elastic: leaves at v
    assert c[:, 10].max() == pytest.approx(K * d_max**1.5, rel=5e-3)  # the peak the steps saw


def test_peak_normal_force_between_coarse_output_samples():
    """An impact of 2e-4 s sampled every 1e-4 s: the samples miss the peak, peak_normal_force has it."""
    v = 1.0
    c = hertz_run(v, output_step=1e-4).contact("floor")
    d_max = (15 * MASS * v**2 / (16 * E_STAR_STEEL * math.sqrt(R))) ** 0.4
    peak = 4.0 / 3.0 * E_STAR_STEEL * math.sqrt(R) * d_max**1.5
    assert c[:, 10].max() == pytest.approx(peak, rel=5e-3)
    assert c[:, 3].max() < 0.99 * peak


def block_model(v0=1.0, mu=0.3, integrator="rk4"):
    """A 0.1 m steel cube resting on the floor (its 8 corners against the plane), pushed at v0 along x."""
    a, m = 0.1, 1.0
    J = m * a * a / 6.0
    cube = {
        "name": "block",
        "mass": m,
        "inertia": np.diag([J, J, J]).tolist(),
        "position": [0, 0, a / 2],
        "velocity": [v0, 0, 0],
    }
    pair = {
        "name": "floor",
        "body_a": "ground",
        "body_b": "block",
        "shape_a": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
        "shape_b": {"type": "box", "center": [0, 0, 0], "size": [a, a, a]},
        "stiffness": 1e7,
        "restitution": 0.5,
        "mu_s": mu,
        "mu_k": mu,
        "slip_speed": 1e-3,
    }
    settings = {"t_end": 0.6, "step": 1e-4, "output_step": 1e-3, "integrator": integrator, "accuracy": False}
    return from_dict({"name": "block", "bodies": [cube], "contacts": [pair], "settings": settings})


@pytest.mark.parametrize("integrator", ["rk4", "galpha"])
def test_block_slides_to_rest_in_v2_over_2_mu_g(integrator):
    """Stopping distance v0^2 / (2 mu g) within 1 %, at rest after v0 / (mu g); the friction's work
    is in work_nonconservative (the energy balance holds)."""
    v0, mu = 1.0, 0.3
    res = simulate(block_model(v0, mu, integrator))
    x, vx = res.position("block")[:, 0], res.velocity("block")[:, 0]
    assert x[-1] == pytest.approx(v0**2 / (2 * mu * G), rel=0.01)
    assert abs(vx[res.t > 1.02 * v0 / (mu * G)]).max() < 1e-3
    e = res.energy()
    assert e["work_nonconservative"][-1] == pytest.approx(-0.5 * v0**2, rel=0.01)
    assert res.energy_drift() < 1e-3
    assert res.contact("floor")[-1, 3] == pytest.approx(G, rel=1e-3)  # the weight on the corners


@pytest.mark.parametrize("integrator", ["rk4", "galpha"])
def test_energy_never_grows_with_elastic_contacts(integrator):
    """e = 1: the total energy (spring in the potential) never exceeds its start by 1e-6 (with 70
    steps per impact; with 18, rk4 gains 1e-4 over three impacts; galpha's numerical damping only
    loses energy)."""
    res = simulate(ball_model(1.0, law="flores", t_end=0.9, step=2.5e-6, accuracy=False), integrator=integrator)
    e = res.energy()
    assert np.max(e["total"] - e["total"][0]) < 1e-6 * e["total"][0]
    assert apexes(res.position("ball")[:, 2] - R) / H == pytest.approx([1, 1], rel=3e-3)


def test_spheres_exchange_velocities_in_an_elastic_head_on_impact():
    """Two equal steel balls, e = 1, no gravity: the moving one stops and the other leaves at its speed."""
    J = 0.4 * MASS * R * R
    balls = [
        {"name": n, "mass": MASS, "inertia": np.diag([J] * 3).tolist(), "position": [x, 0, 0], "velocity": [v, 0, 0]}
        for n, x, v in (("a", 0.0, 1.0), ("b", 2 * R + 1e-4, 0.0))
    ]
    sphere = {"type": "sphere", "center": [0, 0, 0], "radius": R}
    pair = {"name": "ab", "body_a": "a", "body_b": "b", "shape_a": sphere, "shape_b": sphere}
    settings = {"t_end": 1e-3, "step": 5e-7, "output_step": 1e-5, "accuracy": False}
    model = from_dict({"bodies": balls, "contacts": [pair], "gravity": [0, 0, 0], "settings": settings})
    res = simulate(model)
    assert res.velocity("a")[-1, 0] == pytest.approx(0.0, abs=1e-4)
    assert res.velocity("b")[-1, 0] == pytest.approx(1.0, rel=1e-4)
    assert res.contact("ab")[:, 0].min() < 0  # the force on body_a pushes it back


def test_tunnelling_and_unresolved_impact_warnings():
    """A step that carries the ball through half its radius warns 'tunnelling'; one longer than a
    tenth of the impact's contact time 'contact_unresolved'."""
    from MBDWorkbench.solver.contact_checks import contact_warnings

    model = ball_model(0.8, step=1e-5, speed=3.0)

    def kinds(step):
        return {w.kind for w in contact_warnings(model, model.settings.__class__(step=step, output_step=1e-3))}  # noqa: E731

    assert kinds(1e-6) == set()
    assert kinds(2e-5) == {"contact_unresolved"}
    assert kinds(0.02) == {"tunnelling", "contact_unresolved"}


def test_contacts_csv_is_written_and_read_back(tmp_path):
    from MBDWorkbench.solver.results.files import CONTACTS, read_results

    res = simulate(ball_model(0.8, t_end=0.3, accuracy=False), out_dir=str(tmp_path / "run"))
    back = read_results(str(tmp_path / "run")).tables[CONTACTS]
    assert back["floor.normal_force [N]"] == pytest.approx(res.contact("floor")[:, 3], rel=1e-9, abs=1e-9)
    assert back["floor.pz [m]"][0] == pytest.approx(H / 2)  # apart: the middle of the gap
    assert back["floor.penetration [m]"][0] == 0.0


@pytest.mark.parametrize(
    "change, path, words",
    [
        ({"body_b": "nowhere"}, "contacts[0].body_b", "no body 'nowhere'"),
        (
            {
                "shape_a": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
                "shape_b": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
            },
            "contacts[0].shape_b",
            "plane-plane",
        ),
        ({"restitution": 0.0}, "contacts[0].restitution", "(0, 1]"),
        ({"material_a": "cheese"}, "contacts[0].material_a", "steel"),
        ({"mu_s": 0.2, "mu_k": 0.5}, "contacts[0].mu_k", "mu_k <= mu_s"),
        (
            {"shape_a": {"type": "sphere", "center": [0, 0, -H - 0.003], "radius": R}},
            "contacts[0].shape_a",
            "0.003 m deep",
        ),
        ({"colour": "red"}, "contacts[0].colour", "unknown field"),
    ],
)
def test_bad_contact_pairs_are_refused_naming_the_pair_and_field(change, path, words):
    d = ball_model().to_dict()
    d["contacts"][0].update(change)
    with pytest.raises(ModelError) as info:
        from_dict(d)
    assert info.value.path == path
    assert words in info.value.message
    if path != "contacts[0].colour":
        assert "contact 'floor'" in info.value.message


def test_contact_pairs_survive_to_dict_and_back():
    model = ball_model(0.7, mu_s=0.4, material_b={"young": 70e9, "poisson": 0.33})
    again = from_dict(model.to_dict())
    assert again.contacts == model.contacts


def test_report_lists_the_peak_contact_force():
    """The report's 'Contact forces' table: the peak normal force at least the block's weight, the peak
    friction within Coulomb's mu Fn_peak and at least mu m g (sliding)."""
    from MBDWorkbench.report import document
    from MBDWorkbench.report.contacts import contact_peaks
    from MBDWorkbench.report.data import from_results

    data = from_results(simulate(block_model(1.0, 0.3)))
    (peak,) = contact_peaks(data)
    assert peak["pair"] == "floor"
    assert peak["normal"] >= G
    assert 0.3 * G * 0.99 <= peak["friction"] <= 0.3 * peak["normal"] * (1 + 1e-9)
    headings = [b.text for b in document.build(data) if isinstance(b, document.Heading)]
    assert "Contact forces" in headings


def test_free_body_loads_hold_the_contact_forces():
    """The loads module's contact loads on the block at rest sum to its weight, upwards."""
    from MBDWorkbench.loads.force_loads import force_element_loads

    res = simulate(block_model(1.0, 0.3))
    loads = [ld for ld in force_element_loads(res, "block", len(res) - 1) if ld["kind"] == "contact"]
    assert len(loads) == 8 and {ld["name"] for ld in loads} == {"floor"}
    assert sum(ld["force"] for ld in loads) == pytest.approx([0, 0, G], abs=1e-3 * G)


def test_python_api_builds_a_contact_pair():
    """Model(contacts=[Contact(...)]) with Shape objects: validated like JSON, a bad one names the pair."""
    from MBDWorkbench.solver.model import Body, Contact, Model, Shape, validate

    J = 0.4 * MASS * R * R
    ball = Body("ball", MASS, np.diag([J] * 3).tolist(), position=[0, 0, R + 0.01])
    pair = Contact(
        "floor",
        "ball",
        "ground",
        Shape("sphere", center=[0, 0, 0], radius=R),
        Shape("plane", point=[0, 0, 0], normal=[0, 0, 1]),
    )
    model = Model(bodies=[ball], contacts=[pair])
    validate(model)
    res = simulate(model, t_end=0.2, step=1e-5, output_step=1e-3, accuracy=False)
    assert res.position("ball")[-1, 2] > R  # bounced, elastic (e = 1 by default)
    pair.restitution = 1.5
    with pytest.raises(ModelError, match="contact 'floor'"):
        validate(model)
