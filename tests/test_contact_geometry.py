"""Analytic contact pairs against closed forms and against brute-force sampling of the surfaces."""

import numpy as np
import pytest

from MBDWorkbench.solver.numerics import contact_geometry as cg

RNG = np.random.default_rng(33)


def _rotation(rng):
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return q * np.sign(np.linalg.det(q))


def _check_witnesses(contact):
    assert np.linalg.norm(contact.normal) == pytest.approx(1.0)
    np.testing.assert_allclose(contact.point_b - contact.point_a, contact.distance * contact.normal, atol=1e-12)


@pytest.mark.parametrize("height", [0.3, 0.05, -0.02])
def test_sphere_on_tilted_plane(height):
    n = np.array([1.0, 2.0, 2.0]) / 3.0
    p = np.array([0.1, -0.2, 0.4])
    radius = 0.05
    centre = p + (radius + height) * n + np.array([2.0, -1.0, 0.0])  # tangential shift, n . (2,-1,0) = 0
    contact = cg.sphere_plane(centre, radius, p, n)
    assert contact.distance == pytest.approx(height)
    np.testing.assert_allclose(contact.normal, -n)
    assert np.dot(contact.point_b - p, n) == pytest.approx(0.0, abs=1e-15)
    assert np.linalg.norm(contact.point_a - centre) == pytest.approx(radius)
    _check_witnesses(contact)


def test_sphere_sphere_gap_and_overlap():
    for separation in (0.5, 0.3, 0.25):
        a, b = np.zeros(3), np.array([0.0, separation, 0.0])
        contact = cg.sphere_sphere(a, 0.1, b, 0.2)
        assert contact.distance == pytest.approx(separation - 0.3)
        np.testing.assert_allclose(contact.normal, [0, 1, 0])
        np.testing.assert_allclose(contact.point_a, [0, 0.1, 0])
        _check_witnesses(contact)
    coincident = cg.sphere_sphere(np.ones(3), 0.1, np.ones(3), 0.2)
    assert coincident.distance == pytest.approx(-0.3)


def test_sphere_cylinder_side_matches_the_line_distance():
    axis_point, axis = np.array([0.0, 0.0, 1.0]), np.array([0.0, 0.0, 2.0])
    centre = np.array([0.3, 0.4, 7.0])  # 0.5 from the axis
    contact = cg.sphere_cylinder_side(centre, 0.1, axis_point, axis, 0.2)
    assert contact.distance == pytest.approx(0.5 - 0.3)
    np.testing.assert_allclose(contact.point_b, [0.12, 0.16, 7.0])
    np.testing.assert_allclose(contact.normal, [-0.6, -0.8, 0.0])
    _check_witnesses(contact)


def test_roller_on_circular_cam_and_pin_in_hole():
    axis = np.array([0.0, 0.0, 1.0])
    cam_centre, roller_centre = np.array([0.01, 0.0, 0.0]), np.array([0.01, 0.07, 0.3])
    outside = cg.parallel_cylinders(cam_centre, 0.05, roller_centre, 0.015, axis)
    assert outside.distance == pytest.approx(0.07 - 0.065)
    np.testing.assert_allclose(outside.point_a, [0.01, 0.05, 0.3])
    _check_witnesses(outside)
    pin = cg.parallel_cylinders(np.zeros(3), 0.010, np.array([0.0003, -0.0004, 0.2]), 0.0096, axis, inside=True)
    assert pin.distance == pytest.approx(0.0004 - 0.0005)  # clearance 0.4 mm, eccentricity 0.5 mm
    np.testing.assert_allclose(pin.point_a, np.array([0.006, -0.008, 0.2]), atol=1e-15)
    _check_witnesses(pin)


def test_cylinder_lying_on_a_plane_has_two_equal_line_ends():
    first, second = cg.cylinder_plane(
        np.array([0.0, 0.0, 0.049]), np.array([1.0, 0.0, 0.0]), 0.05, 0.2, np.zeros(3), np.array([0.0, 0.0, 1.0])
    )
    assert first.distance == pytest.approx(-0.001) and second.distance == pytest.approx(-0.001)
    assert sorted([first.point_a[0], second.point_a[0]]) == pytest.approx([-0.2, 0.2])


def _sampled_cylinder_lowest_height(centre, axis, radius, half_length, n, samples=20000):
    e1 = np.cross(axis, [0.3, 0.1, 0.9])
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(axis, e1)
    phi = np.linspace(0, 2 * np.pi, samples)
    rim = np.cos(phi)[:, None] * e1 + np.sin(phi)[:, None] * e2
    ends = [centre + s * half_length * axis + radius * rim for s in (1, -1)]
    return min(float(np.min(end @ n)) for end in ends)


def test_tilted_cylinder_deepest_rim_point_matches_sampling():
    for _ in range(5):
        axis = _rotation(RNG)[:, 0]
        centre = RNG.normal(size=3) * 0.1
        n = np.array([0.0, 0.0, 1.0])
        first, second = cg.cylinder_plane(centre, axis, 0.04, 0.1, np.zeros(3), n)
        assert first.distance <= second.distance
        assert first.distance == pytest.approx(_sampled_cylinder_lowest_height(centre, axis, 0.04, 0.1, n), abs=1e-9)
        _check_witnesses(first)


def _box_surface_samples(centre, rotation, half, per_side=60):
    grid = np.linspace(-1, 1, per_side)
    u, v = np.meshgrid(grid, grid)
    faces = []
    for k in range(3):
        i, j = [m for m in range(3) if m != k]
        for sign in (-1, 1):
            local = np.zeros((u.size, 3))
            local[:, i], local[:, j], local[:, k] = u.ravel() * half[i], v.ravel() * half[j], sign * half[k]
            faces.append(local)
    return centre + np.vstack(faces) @ rotation.T


@pytest.mark.parametrize("case", range(6))
def test_sphere_box_against_sampled_box_surface(case):
    rng = np.random.default_rng(case)
    rotation, half = _rotation(rng), np.array([0.1, 0.05, 0.2])
    box_centre = rng.normal(size=3)
    centre = box_centre + rotation @ (rng.uniform(-1.6, 1.6, size=3) * half)
    contact = cg.sphere_box(centre, 0.02, box_centre, rotation, half)
    surface = _box_surface_samples(box_centre, rotation, half)
    to_surface = float(np.min(np.linalg.norm(surface - centre, axis=1)))
    inside = np.all(np.abs(rotation.T @ (centre - box_centre)) <= half)
    expected = (-to_surface if inside else to_surface) - 0.02
    assert contact.distance == pytest.approx(expected, abs=2e-3)  # sampling spacing 3.4 mm / 2
    _check_witnesses(contact)
    assert np.min(np.linalg.norm(surface - contact.point_b, axis=1)) < 4e-3


def test_sphere_torus_against_sampled_torus_surface():
    rng = np.random.default_rng(7)
    for _ in range(4):
        rotation = _rotation(rng)
        torus_centre, axis = rng.normal(size=3), rotation[:, 2]
        centre = torus_centre + rotation @ rng.uniform(-0.06, 0.06, size=3)
        contact = cg.sphere_torus(centre, 0.005, torus_centre, axis, 0.03, 0.008)
        phi, theta = np.meshgrid(np.linspace(0, 2 * np.pi, 800), np.linspace(0, 2 * np.pi, 400))
        ring = 0.03 + 0.008 * np.cos(theta)
        local = np.stack([ring * np.cos(phi), ring * np.sin(phi), 0.008 * np.sin(theta)], axis=-1).reshape(-1, 3)
        to_surface = float(np.min(np.linalg.norm(torus_centre + local @ rotation.T - centre, axis=1)))
        circle = torus_centre + 0.03 * (lambda w: w / np.linalg.norm(w))(
            (centre - torus_centre) - np.dot(centre - torus_centre, axis) * axis
        )
        inside = np.linalg.norm(centre - circle) < 0.008
        expected = (-to_surface if inside else to_surface) - 0.005
        assert contact.distance == pytest.approx(expected, abs=4e-4)  # sampling spacing 0.24 mm
        _check_witnesses(contact)


def test_points_plane_heights_and_bad_normal():
    heights = cg.points_plane(np.array([[0, 0, 1.0], [0, 0, -0.5]]), np.zeros(3), np.array([0, 0, 2.0]))
    np.testing.assert_allclose(heights, [1.0, -0.5])
    with pytest.raises(ValueError, match="plane normal"):
        cg.sphere_plane(np.zeros(3), 0.1, np.zeros(3), np.zeros(3))
