"""Nodal loads, 3-2-1 support and CalculiX file handling of the structural check
(MBDWorkbench.loads.nodal), against closed forms and independent quadrature."""

import itertools

import numpy as np
import pytest

from MBDWorkbench.loads.nodal import (
    bearing_forces,
    body_force_loads,
    inp_additions,
    printed_forces,
    rbe3_forces,
    resultant,
    support_321,
    support_reactions,
)
from MBDWorkbench.report.structural import structural_blocks

RNG = np.random.default_rng(7)
CORNERS = np.array([[0.0, 0.0, 0.0], [2.0, 0.1, 0.0], [0.3, 1.5, 0.2], [0.2, 0.4, 1.7]])
PAIRS = [(0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3)]  # SMESH's 10-node tetrahedron order


def tet10():
    coords = {k + 1: c for k, c in enumerate(CORNERS)}
    for m, (i, j) in enumerate(PAIRS):
        coords[5 + m] = 0.5 * (CORNERS[i] + CORNERS[j])
    return coords, [tuple(range(1, 11))]


def test_rbe3_forces_carry_the_wrench():
    nodes = RNG.normal(size=(40, 3))
    P, F, M = np.array([0.5, -1.0, 2.0]), np.array([3.0, -2.0, 7.0]), np.array([0.4, 1.1, -0.3])
    f = rbe3_forces(nodes, P, F, M)
    sF, sM = resultant(nodes, f, P)
    assert np.allclose(sF, F, atol=1e-12) and np.allclose(sM, M, atol=1e-12)


def bore_grid(d=0.02, t=0.01, n_theta=72, n_z=5):
    """Nodes on a bore of diameter d, length t (axis z, evenly spaced) and the solid's outward
    normals there (towards the axis: the material is outside the hole)."""
    theta = np.arange(n_theta) * 2 * np.pi / n_theta
    z = np.linspace(0, t, n_z)
    T, Z = np.meshgrid(theta, z)
    radial = np.stack([np.cos(T.ravel()), np.sin(T.ravel()), np.zeros(T.size)], axis=1)
    return np.column_stack([0.5 * d * radial[:, :2], Z.ravel()]), -radial


def test_bearing_pressure_is_the_cosine_over_the_loaded_half():
    """A pin pulling a lug with P along +x: the pressure is p0 cos(theta) on the half facing +x,
    zero on the other half, and p0 = 4 P / (pi d t) (the resultant of p0 cos^2 over the half is
    p0 d t pi / 4): each node carries p0 cos(theta) times its area pi d t / n."""
    d, t, P = 0.02, 0.01, 1000.0
    nodes, normals = bore_grid(d, t)
    f = bearing_forces(nodes, normals, np.array([0, 0, t / 2]), np.array([P, 0, 0]), np.zeros(3))
    sF, sM = resultant(nodes, f, np.array([0, 0, t / 2]))
    assert np.allclose(sF, [P, 0, 0], atol=1e-9 * P) and np.allclose(sM, 0, atol=1e-9 * P)
    theta = np.arctan2(nodes[:, 1], nodes[:, 0])
    pressure = (f * -normals).sum(axis=1) / (np.pi * d * t / len(nodes))
    p0 = 4 * P / (np.pi * d * t)
    assert np.allclose(pressure, p0 * np.clip(np.cos(theta), 0, None), atol=1e-9 * p0)
    assert np.allclose(np.cross(f, normals), 0, atol=1e-9 * P)  # purely radial: no friction


def test_bearing_carries_axial_force_and_moment_exactly():
    """What a pressure cannot carry (the axial force, moments) is still applied: exact resultant."""
    nodes, normals = bore_grid()
    P, F, M = np.array([0.001, 0.002, 0.004]), np.array([300.0, -400.0, 50.0]), np.array([2.0, -1.0, 0.7])
    f = bearing_forces(nodes, normals, P, F, M)
    sF, sM = resultant(nodes, f, P)
    assert np.allclose(sF, F, atol=1e-9) and np.allclose(sM, M, atol=1e-9)
    unloaded = normals @ F > 0  # the half facing away from the force
    assert np.all(np.abs(f[unloaded, 2]) > 0)  # the axial share reaches every node


def test_rbe3_on_a_ring_without_moment_is_uniform():
    """A pure force through the centroid of a ring of nodes: every node gets F / n."""
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    nodes = np.c_[np.cos(a), np.sin(a), np.zeros_like(a)]
    f = rbe3_forces(nodes, np.zeros(3), np.array([0.0, 24.0, 0.0]), np.zeros(3))
    assert np.allclose(f, [0.0, 1.0, 0.0])


def test_constant_body_force_on_tet10_is_the_textbook_split():
    """Constant b on a straight 10-node tet: corners -V/20 b, midside nodes V/5 b."""
    coords, els = tet10()
    V = abs(np.linalg.det(CORNERS[1:] - CORNERS[0])) / 6
    b = np.array([0.0, 0.0, -3.0])
    loads, corr = body_force_loads(
        coords, els, lambda x: b, V * b, np.cross(CORNERS.mean(0) - CORNERS[0], V * b), CORNERS[0]
    )
    assert corr < 1e-12
    for n in range(1, 5):
        assert np.allclose(loads[n], -V / 20 * b)
    for n in range(5, 11):
        assert np.allclose(loads[n], V / 5 * b)


def _quadrature_loads(coords, b, n=60):
    """Consistent loads of a linear field by a fine sum over barycentric sample points (independent)."""
    out = np.zeros((10, 3))
    V = abs(np.linalg.det(CORNERS[1:] - CORNERS[0])) / 6
    pts = [(i, j, k) for i in range(n) for j in range(n - i) for k in range(n - i - j)]
    total = 0.0
    for i, j, k in pts:
        L = (np.array([i, j, k, 0.0]) + 0.25) / (n + 0.0)
        L[3] = 1 - L[:3].sum()
        if L[3] <= 0:
            continue
        x = L @ CORNERS
        N = [L[a] * (2 * L[a] - 1) for a in range(4)] + [4 * L[a] * L[c] for a, c in PAIRS]
        out += np.outer(N, b(x))
        total += 1
    return out * V / total


def test_linear_body_force_matches_independent_quadrature():
    coords, els = tet10()
    omega, alpha, c = np.array([0.3, -1.0, 2.0]), np.array([1.0, 0.5, -0.2]), np.array([0.4, 0.3, 0.5])

    def b(x):
        r = x - c
        return -np.cross(alpha, r) - np.cross(omega, np.cross(omega, r))

    ref = _quadrature_loads(coords, b)
    X = np.array([coords[n] for n in range(1, 11)])
    F, M = resultant(X, ref, c)
    loads, corr = body_force_loads(coords, els, b, F, M, c)
    got = np.array([loads[n] for n in range(1, 11)])
    assert np.allclose(got, ref, atol=0.02 * np.abs(ref).max())  # sampling error of the reference
    assert corr < 0.02


def test_correction_makes_the_resultant_exact():
    coords, els = tet10()
    F, M = np.array([1.0, 2.0, 3.0]), np.array([-0.5, 0.2, 0.1])
    loads, corr = body_force_loads(coords, els, lambda x: np.array([0.0, 0.0, -1.0]), F, M, CORNERS[0])
    X = np.array([coords[n] for n in loads])
    sF, sM = resultant(X, np.array(list(loads.values())), CORNERS[0])
    assert np.allclose(sF, F) and np.allclose(sM, M) and corr > 0.1


def test_support_321_is_statically_determinate():
    coords = {n + 1: x for n, x in enumerate(RNG.normal(size=(50, 3)) * [10, 2, 1])}
    support = support_321(coords)
    assert len(support) == 6 and len({n for n, _ in support}) == 3
    rows = []
    for n, d in support:
        e = np.eye(3)[d - 1]
        rows.append(np.concatenate([e, np.cross(coords[n], e)]))
    assert np.linalg.matrix_rank(np.array(rows)) == 6


def test_support_321_refuses_collinear_nodes():
    with pytest.raises(ValueError, match="collinear"):
        support_321({n: np.array([float(n), 0.0, 0.0]) for n in range(1, 6)})


def test_inp_additions_and_dat_reactions():
    text = "*NODE\n1,0,0,0\n*STEP\n*STATIC\n*NODE FILE\nU\n*END STEP\n"
    out = inp_additions(text, {3: np.array([1.5, 0.0, -2.0])}, [(1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (4, 3)])
    assert out.index("*NSET,NSET=NMBDSUPPORT\n1,2,4") < out.index("*STEP")
    step = out[out.index("*STEP") : out.index("*END STEP")]
    assert "*BOUNDARY\n1,1,1,0.0" in step and "3,1,1.5" in step and "3,3,-2" in step and "3,2," not in step
    assert "*NODE PRINT,NSET=NMBDSUPPORT\nRF" in step
    dat = (
        "\n forces (fx,fy,fz) for set NMBDSUPPORT and time  0.1000000E+01\n\n"
        "         1  1.0E-03 -2.0E-03  0.0E+00\n         2  0.0E+00  5.0E-04  1.0E-06\n"
    )
    assert np.allclose(printed_forces(dat)[2], [0, 5e-4, 1e-6])
    loads = {1: np.array([1e-3, 0.0, 0.0])}  # node 1 also carries a load: not a reaction
    assert np.allclose(support_reactions(dat, loads, [(1, 1), (1, 2), (2, 3)]), [0.0, -2e-3, 1e-6])


def test_structural_section_lists_each_case():
    summary = dict(body="rod", copy="c.FCStd", youngs_modulus_MPa=2e5, poisson_ratio=0.3, cases=[])
    for t in (0.1, 0.2):
        summary["cases"].append(
            dict(time_s=t, largest_load_N=10.0, max_von_mises_MPa=3.0, max_von_mises_at_mm=[1, 2, 3],
                 max_displacement_mm=0.01, support_reaction_relative=1e-6, analysis="A%g" % t)
        )  # fmt: skip
    blocks = structural_blocks([summary])
    assert blocks[0].text == "Structural check"
    table = next(b for b in blocks if hasattr(b, "rows"))
    assert [r[2] for r in table.rows] == ["0.1", "0.2"]
    assert structural_blocks([]) == []


def test_tet_pairs_are_found_by_geometry():
    """Midside nodes in any order are matched to their edges."""
    coords, els = tet10()
    order = list(itertools.permutations(range(5, 11)))[17]
    el = tuple(range(1, 5)) + order
    b = lambda x: np.array([x[0], 0.0, 0.0])  # noqa: E731
    a, _ = body_force_loads(coords, els, b, np.zeros(3), np.zeros(3), CORNERS[0])
    c, _ = body_force_loads(coords, [el], b, np.zeros(3), np.zeros(3), CORNERS[0])
    assert all(np.allclose(a[n], c[n]) for n in a)


def test_couple_forces_sum_to_zero_with_the_moment():
    """The couple objects' forces (MBDWorkbench.cad.fem_objects.couple_forces): on a bore's two rim
    centres and its seam line's midpoint (r = 6 mm, 8 mm long) any moment is carried, the forces
    summing to zero; on the two rim centres alone (on the bore's axis) the part along the axis is not."""
    from MBDWorkbench.cad.fem_objects import couple_forces

    M = np.array([0.3, -0.2, 0.5])  # N m
    points = np.array([[0, 0, 0], [0, 0, 0.008], [0.006, 0, 0.004]])  # m
    f = couple_forces(points, M)
    assert np.allclose(f.sum(axis=0), 0, atol=1e-12)
    assert np.allclose(np.cross(points, f).sum(axis=0), M, rtol=1e-9)
    rims = couple_forces(points[:2], M)
    assert np.allclose(rims.sum(axis=0), 0, atol=1e-12)
    assert np.allclose(np.cross(points[:2], rims).sum(axis=0), [0.3, -0.2, 0], rtol=1e-9)
    assert np.allclose(np.linalg.norm(rims, axis=1), np.hypot(0.3, 0.2) / 0.008)  # |M_perp| / rim distance
