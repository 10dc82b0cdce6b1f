"""Geometry of the contact kinds against a box, a finite cylinder's side, a torus's arcs and a
cone's rims (numerics/contact_forces.py, model/shape_points.py), each against brute-force
sampling of the surfaces: the compiled kernel's penetration, normal and contact point."""

import math

import numpy as np
import pytest

from MBDWorkbench.solver.model import shape_points as sp
from MBDWorkbench.solver.model.shape_points import ContactPoint, element_vectors, penetration
from MBDWorkbench.solver.numerics import contact_forces as cf
from MBDWorkbench.solver.numerics.contact_forces import contact_geometry

GROUND = (-1, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
RNG = np.random.default_rng(33)


def kernel(p: ContactPoint) -> tuple:
    """(d [m], normal, contact point [m]) of the compiled kernel for a point given globally."""
    same = lambda x: np.asarray(x, float)  # noqa: E731  both sides on the ground: global coordinates
    vecs, radius_j = element_vectors(p, same, same, same, same)
    par = (1.0, 1.5, 0.0, 0.0, 0.0, 1e-3, p.radius_i, radius_j)
    kind = p.bounds if p.kind == cf.BOUND else p.kind
    d, n, x = contact_geometry(np.zeros((1, 3, 3)), GROUND, GROUND, vecs[None], 0, kind, par)
    return d, np.array(n), np.array(x)


def rotation() -> np.ndarray:
    q, _ = np.linalg.qr(RNG.normal(size=(3, 3)))
    return q * np.sign(np.linalg.det(q))


KINDS = ("SPHERE_PLANE", "SPHERE_SPHERE", "DISC_PLANE", "POINT_CYLINDER", "BOUND", "POINT_BOX", "POINT_SIDE")
KINDS += ("TORUS_PLANE", "FACE", "SPHERE_TORUS", "MESH_MESH")


def test_kinds_agree_with_the_kernel():
    for name in KINDS:
        assert getattr(sp, name) == getattr(cf, name)
    assert len({getattr(cf, name) for name in KINDS}) == len(KINDS)  # each kind its own flag
    assert sp.TORUS_ARCS == cf.TORUS_ARCS


def grid(n: int) -> np.ndarray:
    """(n * n, 2) points of [-1, 1]^2."""
    s = np.linspace(-1.0, 1.0, n)
    return np.array(np.meshgrid(s, s)).reshape(2, -1).T


def box_surface(centre, R, half, n=301) -> np.ndarray:
    out = []
    for axis in range(3):
        others = [k for k in range(3) if k != axis]
        for sign in (-1.0, 1.0):
            local = np.zeros((n * n, 3))
            local[:, others] = grid(n) * half[others]
            local[:, axis] = sign * half[axis]
            out.append(centre + local @ R.T)
    return np.concatenate(out)


@pytest.mark.parametrize("radius", [0.0, 0.07])
def test_point_box_is_the_signed_distance_to_the_box(radius):
    """Points inside and outside a turned box: the penetration r - signed distance against the
    nearest of 540,000 surface samples (spacing 3 mm), the normal and the contact point."""
    R, half, centre = rotation(), np.array([0.3, 0.2, 0.45]), np.array([0.1, -0.2, 0.3])
    surface = box_surface(centre, R, half)
    for _ in range(40):
        local = RNG.uniform(-1.6, 1.6, 3) * half
        x = centre + R @ local
        p = ContactPoint(sp.POINT_BOX, "a", "b", x, centre, R[:, 0] * half[0], radius, half[2], extra=R[:, 1] * half[1])
        d, n, at = kernel(p)
        inside = np.all(np.abs(local) <= half)
        nearest = np.linalg.norm(surface - x, axis=1).min()
        assert d == pytest.approx(radius + (nearest if inside else -nearest), abs=3e-3)
        assert d == pytest.approx(penetration(p), abs=1e-14)
        on_box = R.T @ (x - (radius - d) * n - centre)  # the witness point x - (r - d) n, in the box's frame
        assert np.max(np.abs(on_box) - half) == pytest.approx(0.0, abs=1e-12)  # on its surface
        assert at == pytest.approx(x - (radius - 0.5 * d) * n, abs=1e-14)


def test_point_side_is_the_depth_below_a_finite_side_and_the_distance_beyond_it():
    """A finite cylinder (radius 0.1, length 0.6, turned): within its length the depth below the
    side r - rho (inside) or minus the distance to it; beyond an end, minus the distance to the
    solid cylinder (its side and end discs sampled every 2 mm)."""
    R, radius, half = rotation(), 0.1, 0.3
    u, centre = R[:, 2], np.array([0.2, 0.1, -0.1])
    f, s = np.meshgrid(np.linspace(0, 2 * np.pi, 315), np.linspace(-half, half, 301))
    side = centre + (radius * (np.cos(f) * R[:, 0][:, None, None] + np.sin(f) * R[:, 1][:, None, None])
                     + s * u[:, None, None]).reshape(3, -1).T  # fmt: skip
    g = grid(101) * radius
    disc = g[np.linalg.norm(g, axis=1) <= radius]
    caps = [centre + e * half * u + disc[:, :1] * R[:, 0] + disc[:, 1:] * R[:, 1] for e in (-1, 1)]
    solid = np.concatenate([side, *caps])
    for _ in range(60):
        local = RNG.uniform([-0.25, -0.25, -0.5], [0.25, 0.25, 0.5])
        x = centre + R @ local
        p = ContactPoint(sp.POINT_SIDE, "a", "b", x, centre, u, 0.0, radius, extra=np.array([half, 0.0, 0.0]))
        d, n, _ = kernel(p)
        rho = math.hypot(local[0], local[1])
        if abs(local[2]) <= half:
            assert d == pytest.approx(radius - rho, abs=1e-14)
            assert n == pytest.approx(R @ np.array([local[0], local[1], 0.0]) / rho, abs=1e-12)
        else:
            assert d == pytest.approx(-np.linalg.norm(solid - x, axis=1).min(), abs=2e-3)
        assert d == pytest.approx(penetration(p), abs=1e-14)


def circle(c, a, b, n=20000) -> np.ndarray:
    f = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)[:, None]
    return c + np.cos(f) * a + np.sin(f) * b


def torus_points(kind, c, u, R, r, q, n, r_b=0.0) -> list:
    """The TORUS_ARCS points of a torus (centre c, axis u) by model/shape_points's construction."""
    from MBDWorkbench.solver.model.contacts import Shape

    torus = Shape("torus", center=list(c), axis=list(u), major_radius=R, minor_radius=r)
    other = Shape("plane", point=list(q), normal=list(n)) if kind == sp.TORUS_PLANE else Shape("sphere", list(q), r_b)
    return sp.pair_points("t", torus, "o", other, ((np.zeros(3), np.eye(3)), (np.zeros(3), np.eye(3))))


def test_torus_plane_arcs_hold_the_exact_deepest_point_and_each_their_own():
    """A torus (R 0.2, r 0.03) turned at random against a plane: the deepest of its 8 arc points is
    the tube circle's deepest point (20,000 samples) and each arc point is the deepest of its arc;
    laid flat, all 8 are equally deep."""
    R, r, q, n = 0.2, 0.03, np.array([0.0, 0.0, 0.01]), np.array([0.0, 0.0, 1.0])
    for trial in range(12):
        u = rotation()[:, 2] if trial else np.array([0.0, 0.0, 1.0])
        c = np.array([0.1, 0.0, 0.02])
        points = torus_points(sp.TORUS_PLANE, c, u, R, r, q, n)
        depths = []
        for p in points:
            d, nrm, at = kernel(p)
            f = np.linspace(-np.pi / 8, np.pi / 8, 2001)[:, None]
            arc = c + np.cos(f) * p.axis_i + np.sin(f) * p.extra
            assert d == pytest.approx(r - ((arc - q) @ n).min(), abs=1e-7)  # the deepest of its own arc
            assert nrm == pytest.approx(n, abs=1e-15)
            depths.append(d)
        exact = r - ((circle(c, points[0].axis_i, points[0].extra) - q) @ n).min()
        assert max(depths) == pytest.approx(exact, abs=1e-8)  # the samples 3e-4 rad apart: 2.5e-9 m shallower
        assert max(depths) == pytest.approx(penetration(points[0]), abs=1e-12)
        if trial == 0:
            assert np.ptp(depths) < 1e-15


def test_sphere_torus_arcs_hold_the_nearest_point_of_the_tube():
    """A sphere about a torus (R 0.2, r 0.03): the deepest arc point's penetration is
    r + r_s - the distance from the sphere's centre to the tube circle (sampled); a sphere
    centred on the axis (a ball seated in the ring) touches all 8 arcs alike."""
    R, r, r_s, c = 0.2, 0.03, 0.25, np.zeros(3)
    for trial in range(12):
        u = rotation()[:, 2]
        q = c + u * 0.12 if trial == 0 else RNG.uniform(-0.3, 0.3, 3)
        points = torus_points(sp.SPHERE_TORUS, c, u, R, r, q, None, r_s)
        depths = [kernel(p)[0] for p in points]
        nearest = np.linalg.norm(circle(c, points[0].axis_i, points[0].extra) - q, axis=1).min()
        assert max(depths) == pytest.approx(r + r_s - nearest, abs=1e-8)  # samples 3e-4 rad apart
        assert max(depths) == pytest.approx(penetration(points[0]), abs=1e-12)
        d, nrm, at = kernel(points[int(np.argmax(depths))])
        tube = at + (r - 0.5 * d) * nrm  # back to the circle point
        assert np.linalg.norm(tube - q) == pytest.approx(r + r_s - d, abs=1e-12)
        if trial == 0:
            assert np.ptp(depths) < 1e-12


def test_cone_rims_hold_its_deepest_point_in_a_plane():
    """A cone (radii 0.1 and 0.02 or an apex, length 0.3) turned at random: the deeper of its two
    rim points is the deepest of 150,000 samples of its surface below the plane (1e-3 rad apart
    round it: at most 5.5e-8 m shallower)."""
    from MBDWorkbench.solver.model.contacts import Shape

    plane = Shape("plane", point=[0.0, 0.0, 0.0], normal=[0.0, 0.0, 1.0])
    for trial in range(12):
        r2 = 0.02 if trial % 2 else 0.0
        R = rotation()
        cone = Shape("cone", center=[0.0, 0.0, 0.05], axis=list(R[:, 2]), radius1=0.1, radius2=r2, length=0.3)
        points = sp.pair_points("c", cone, "g", plane, ((np.zeros(3), np.eye(3)), (np.zeros(3), np.eye(3))))
        f, s = np.meshgrid(np.linspace(0, 2 * np.pi, 6000), np.linspace(0.0, 1.0, 25))
        rad = 0.1 + (r2 - 0.1) * s
        z = 0.05 + (s - 0.5) * 0.3 * R[2, 2] + rad * (np.cos(f) * R[2, 0] + np.sin(f) * R[2, 1])
        deepest = max(kernel(p)[0] for p in points)
        assert 0.0 <= deepest + z.min() < 6e-8
        assert deepest == pytest.approx(max(penetration(p) for p in points), abs=1e-14)


def test_a_bounding_sphere_touches_whenever_one_of_its_points_does():
    """The BOUND of a torus's arcs, of a mesh's points against a box and a finite side: its
    penetration is at least each point's, in random poses."""
    from MBDWorkbench.solver.model.contacts import Shape

    poses = ((np.zeros(3), np.eye(3)), (np.zeros(3), np.eye(3)))
    for _ in range(20):
        R = rotation()
        torus = torus_points(sp.TORUS_PLANE, RNG.uniform(-0.1, 0.1, 3), R[:, 0], 0.2, 0.03, np.zeros(3), R[:, 1])
        mesh = RNG.uniform(-0.1, 0.1, (30, 3)) + RNG.uniform(-0.3, 0.3, 3)
        box = Shape("box", center=[0.0, 0.0, 0.0], size=[0.4, 0.3, 0.2])
        side = Shape("cylinder", center=[0.0, 0.0, 0.0], axis=list(R[:, 2]), radius=0.1, length=0.3)
        for points in (torus, sp.pair_points("m", None, "b", box, poses, mesh),
                       sp.pair_points("m", None, "b", side, poses, mesh)):  # fmt: skip
            bound = kernel(sp.bounding_sphere(points))[0]
            assert bound >= max(kernel(p)[0] for p in points) - 1e-12
