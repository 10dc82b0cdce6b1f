"""The shortcuts of the contact force loop against the general code they stand for, bit for bit:
contact_element (a sphere-plane element's gap looked at inline) against contact, the loop of a
contacts-only model (contact_range, called by force_elements) against contact element by element,
and the compiled check of the recorded samples (first_bad_sample) against its NumPy definition."""

import numpy as np
import pytest

from MBDWorkbench.solver import from_dict
from MBDWorkbench.solver.kernels import update_rotations_arrays
from MBDWorkbench.solver.numerics import forces
from MBDWorkbench.solver.numerics.contact_forces import SPHERE_PLANE, contact, contact_element
from MBDWorkbench.solver.numerics.joints import body_side
from MBDWorkbench.solver.results.sample_kernels import first_bad_sample
from MBDWorkbench.solver.system.system import System

SPHERE = {"type": "sphere", "center": [0.01, -0.02, 0.0], "radius": 0.05}


def _body(name, z, **extra):
    return {"name": name, "mass": 1.0, "inertia": [1e-3, 1.2e-3, 0.9e-3], "position": [0.0, 0.0, z], **extra}


def contacts_only_system() -> System:
    """A ball on a tilted plate (both moving, the plate's plane a body's), a ball on the ground plane,
    two balls on each other and a roller (a line contact: DISC_PLANE slices) on the ground plane."""
    plane = {"type": "plane", "point": [0.0, 0.0, 0.0], "normal": [0.1, 0.0, 1.0]}
    ground = {"type": "plane", "point": [0.0, 0.0, 0.0], "normal": [0.0, 0.0, 1.0]}
    roller = {"type": "cylinder", "center": [0.0, 0.0, 0.0], "axis": [1.0, 0.0, 0.0], "radius": 0.02, "length": 0.05}
    pairs = [
        ("ball", "plate", SPHERE, plane),
        ("ball", "ground", SPHERE, ground),
        ("ball", "top", SPHERE, SPHERE),
        ("roller", "ground", roller, ground),
    ]
    return System(
        from_dict(
            {
                "gravity": [0, 0, -9.81],
                "bodies": [_body("ball", 0.2), _body("plate", 0.0), _body("top", 0.4), _body("roller", 0.5)],
                "contacts": [
                    {
                        "name": f"c{k}",
                        "body_a": a,
                        "body_b": b,
                        "shape_a": sa,
                        "shape_b": sb,
                        "stiffness": 1e7,
                        "restitution": 0.5,
                        "mu_s": 0.4,
                        "mu_k": 0.3,
                    }
                    for k, (a, b, sa, sb) in enumerate(pairs)
                ],
                "settings": {"t_end": 0.01, "step": 1e-4},
            }
        )
    )


def random_states(system: System, count: int, seed: int) -> list[np.ndarray]:
    """States about the initial one: positions moved by up to 0.3 m (some pairs pressed, some apart),
    random orientations and velocities."""
    rng = np.random.default_rng(seed)
    nb, states = system.nb, []
    for _ in range(count):
        Y = system.Y0.copy()
        for b in range(nb):
            Y[7 * b : 7 * b + 3] += rng.uniform(-0.3, 0.3, 3) * np.array([0.2, 0.2, 1.0])
            q = rng.normal(size=4)
            Y[7 * b + 3 : 7 * b + 7] = q / np.linalg.norm(q)
        Y[7 * nb :] = rng.normal(size=6 * nb)
        states.append(Y)
    return states


def test_contact_element_is_contact():
    """Apart or pressed, with and without an impact under way (v- set), contact_element returns,
    applies and remembers exactly what contact does."""
    system = contacts_only_system()
    S = system.static
    first = int(S.force_start[forces.CONTACT])
    checked = {True: 0, False: 0}
    for i, Y in enumerate(random_states(system, 300, seed=1)):
        A = np.zeros((system.nb, 3, 3))
        update_rotations_arrays(system.nb, Y, A)
        for k in range(first, len(S.force_flag)):
            if S.force_flag[k] != SPHERE_PLANE:
                continue
            sides = body_side(Y, system.nb, S.force_bi[k]), body_side(Y, system.nb, S.force_bj[k])
            p = tuple(float(x) for x in S.force_par[k])
            vecs = S.force_vecs.copy()
            vecs[k, 3, 0] = 0.7 if (i + k) % 2 else np.nan  # an impact under way, or none
            out, Q_out, vecs_out = [], [], []
            for f in (contact, contact_element):
                Q, v = np.zeros(6 * system.nb), vecs.copy()
                out.append(f(Q, A, *sides, v, k, SPHERE_PLANE, p))
                Q_out.append(Q)
                vecs_out.append(v)
            assert out[0] == out[1]
            np.testing.assert_array_equal(Q_out[0], Q_out[1])
            np.testing.assert_array_equal(vecs_out[0], vecs_out[1])
            checked[bool(np.any(Q_out[0]))] += 1
    assert checked[True] > 20 and checked[False] > 20  # both pressed and apart elements seen


def test_contact_loop_is_contact_element_by_element():
    """force_elements sums a contacts-only model's elements in contact_range's loop (called directly,
    not through force_elements_arrays): the same generalized forces and remembered impact speeds as contact called
    element by element in their order, and the potential and power summed in that order."""
    system = contacts_only_system()
    S, W = system.static, system.work
    first = int(S.force_start[forces.CONTACT])
    assert first == 0 and not len(S.bp_key) and forces.BOUND not in S.force_flag  # elements only, no skips
    pressed = 0
    for Y in random_states(system, 100, seed=2):
        update_rotations_arrays(system.nb, Y, W.A)
        vecs = S.force_vecs.copy()
        Q1 = np.zeros(6 * system.nb)
        V1, P1 = forces.force_elements(0.0, 0, Y, S, W, Q1, 1.5)
        Q2, V2, P2 = np.zeros(6 * system.nb), 0.0, 0.0
        for k in range(first, len(S.force_flag)):
            sides = body_side(Y, system.nb, S.force_bi[k]), body_side(Y, system.nb, S.force_bj[k])
            p = tuple(float(x) for x in S.force_par[k])
            dV, dP = contact(Q2, W.A, *sides, vecs, k, int(S.force_flag[k]), p)
            V2, P2 = V2 + dV, P2 + dP
        assert (V1, P1) == (1.5 + V2, 0.0 + P2)
        np.testing.assert_array_equal(Q1, Q2)
        np.testing.assert_array_equal(vecs, S.force_vecs)
        pressed += bool(np.any(Q1))
    assert pressed > 5


def _numpy_first_bad(Y, lam, phi, limit):
    """simulate._check_samples' NumPy test before it was compiled."""
    not_finite = ~(np.isfinite(Y).all(axis=1) & np.isfinite(lam).all(axis=1))
    blown = np.abs(phi).max(axis=1) > limit if phi.shape[1] else np.zeros(len(Y), bool)
    bad = np.flatnonzero(not_finite | blown)
    if not len(bad):
        return -1, 0
    k = int(bad[0])
    return k, 1 if not_finite[k] else 2


@pytest.mark.parametrize("m", [0, 4])
def test_first_bad_sample_is_the_numpy_test(m):
    rng = np.random.default_rng(m)
    reasons = set()
    for _ in range(400):
        K = int(rng.integers(1, 6))
        Y, lam, phi = rng.normal(size=(K, 13)), rng.normal(size=(K, m)), rng.normal(size=(K, m)) * 100
        for a in (Y, lam, phi):
            if a.size and rng.random() < 0.3:
                a.flat[rng.integers(a.size)] = rng.choice([np.nan, np.inf, -np.inf, 5e3, -2e3])
        expected = _numpy_first_bad(Y, lam, phi, 1e3)
        assert first_bad_sample(Y, lam, phi, 1e3) == expected
        reasons.add(expected[1])
    assert reasons == ({0, 1, 2} if m else {0, 1})
