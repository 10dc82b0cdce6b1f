"""Contact pairs (docs/contact.md) against closed forms: a ball dropped on a plane (rebound heights
e^(2n) h and impact times), Hertz's elastic impact (peak force and duration), a block sliding to
rest (v^2 / (2 mu g)), the energy of elastic contacts; and the model checks."""

import math

import numpy as np
import pytest

from MBDWorkbench.solver.model import from_dict
from MBDWorkbench.solver.model.contacts import MATERIALS, damping_factor, rebound_ratio
from MBDWorkbench.solver.simulate import simulate

G = 9.81
R = 0.05  # ball radius [m]
H = 0.2  # drop height of the ball's bottom [m]
MASS = 1.0
E_STAR_STEEL = 1.0 / (2 * (1 - MATERIALS["steel"][1] ** 2) / MATERIALS["steel"][0])  # [Pa]


def ball_model(e=0.8, law="restitution", t_end=0.9, step=1e-5, height=H, speed=0.0, **contact):
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
    settings = {"t_end": t_end, "step": step, "output_step": 1e-4, "integrator": "rk4"}
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


@pytest.mark.parametrize("integrator", ["rk4", "bdf", "radau", "galpha"])
def test_ball_rebounds_to_e_2n_h_at_the_rigid_impact_times(integrator):
    """Steel on steel (Hertz), e = 0.8: apexes e^(2n) h and flight times 2 e^n v0 / g within 0.5 %
    (three bounces; one with the adaptive integrators, whose impacts cost many steps), the first
    touch at sqrt(2 h / g), each apex e^n v0 / g after the ball leaves the floor."""
    e, fixed = 0.8, integrator in ("rk4", "galpha")
    res = simulate(ball_model(e, t_end=0.9 if fixed else 0.45), integrator=integrator, **({} if fixed else ADAPTIVE))
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
