"""Signed distance of a point to a closed triangle mesh (docs/contact.md, "Mesh against mesh"), the
compiled query of the MESH_MESH contact points (numerics/contact_forces.py).

A mesh is stored in contact elements after its pair's points (model/mesh_pairs.py packs them), in
its side's kernel coordinates [m]: a sphere tree (each NODE element: vecs[0] the centre, vecs[1] =
(radius, offset of its first child, offset of its second child), vecs[2, 0] the offset of its
triangle (a leaf) or 0; offsets relative to the element) and three elements per triangle: the
first vecs[0..2] its vertices a, b, c, vecs[4] its outward unit normal, vecs[5], vecs[6] the
pseudonormals of its edges ab, bc; the second vecs[0] that of edge ca, vecs[1], vecs[2], vecs[4]
those of its vertices a, b, c (angle weighted); the third vecs[0..2] its corners' unit normals
(its vertices' normals over the faces within the crease angle of its own: model/mesh_pairs.py).
Slot 3 is left to the contact element's state.

The nearest triangle is found on the real parts (a depth-first search that skips a node whose
sphere lies farther than the best distance so far, or than the ``cutoff``); the distance to it is
then evaluated in the arguments' own type (real or complex: the complex-step Jacobians), by the
region of the triangle that holds the nearest point. Its sign is that of the region's
pseudonormal (Baerentzen and Aanaes 2005: exact for a closed, consistently oriented mesh); the
normal is the vertices' normals interpolated at the nearest point (:func:`smooth_normal`).
"""

import numpy as np

from .jit import njit
from .vec3 import Vec3, add, dot, scale, sub

STACK = 96  # the search's stack of nodes: above twice the depth of a median-split tree of 2^40 triangles
FACE, EDGE_AB, EDGE_BC, EDGE_CA, VERTEX_A, VERTEX_B, VERTEX_C = 0, 1, 2, 3, 4, 5, 6


@njit(cache=True)
def _slot(vecs: np.ndarray, k: int, i: int) -> Vec3:
    return (vecs[k, i, 0], vecs[k, i, 1], vecs[k, i, 2])


@njit(cache=True)
def _real(x: Vec3) -> Vec3:
    return (x[0].real, x[1].real, x[2].real)


@njit(cache=True)
def triangle_region(x: Vec3, a: Vec3, b: Vec3, c: Vec3) -> tuple:
    """(squared distance [m^2], region) of the point x nearest on triangle abc (real arguments;
    Ericson, Real-Time Collision Detection, 5.1.5)."""
    ab, ac, ap = sub(b, a), sub(c, a), sub(x, a)
    d1, d2 = dot(ab, ap), dot(ac, ap)
    if d1 <= 0.0 and d2 <= 0.0:
        return dot(ap, ap), VERTEX_A
    bp = sub(x, b)
    d3, d4 = dot(ab, bp), dot(ac, bp)
    if d3 >= 0.0 and d4 <= d3:
        return dot(bp, bp), VERTEX_B
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        g = sub(ap, scale(d1 / (d1 - d3), ab))
        return dot(g, g), EDGE_AB
    cp = sub(x, c)
    d5, d6 = dot(ab, cp), dot(ac, cp)
    if d6 >= 0.0 and d5 <= d6:
        return dot(cp, cp), VERTEX_C
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        g = sub(ap, scale(d2 / (d2 - d6), ac))
        return dot(g, g), EDGE_CA
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and d4 - d3 >= 0.0 and d5 - d6 >= 0.0:
        bc = sub(c, b)
        g = sub(bp, scale((d4 - d3) / ((d4 - d3) + (d5 - d6)), bc))
        return dot(g, g), EDGE_BC
    denom = 1.0 / (va + vb + vc)
    g = sub(ap, add(scale(vb * denom, ab), scale(vc * denom, ac)))
    return dot(g, g), FACE


@njit(cache=True)
def nearest_triangle(vecs: np.ndarray, root: int, x: Vec3, cutoff: float, hint: int) -> tuple:
    """(element of the triangle nearest the real point x [m, the mesh's coordinates], its region,
    squared distance [m^2]); (-1, 0, cutoff^2) if none lies within ``cutoff`` [m]. ``hint`` > 0: a
    triangle (root + hint) to start from (the point's last nearest: the search then skips more)."""
    best, best_t, best_region = cutoff * cutoff, -1, 0
    if hint > 0:
        t = root + hint
        d2, region = triangle_region(x, _slot(vecs, t, 0), _slot(vecs, t, 1), _slot(vecs, t, 2))
        if d2 < best:
            best, best_t, best_region = d2, t, region
    g = sub(x, _slot(vecs, root, 0))
    reach = np.sqrt(dot(g, g)) - vecs[root, 1, 0]
    if reach > 0.0 and reach * reach >= best:  # (the common case, made cheap: no stack)
        return best_t, best_region, best
    stack = np.empty(STACK, dtype=np.int64)
    stack[0], top = root, 1
    while top > 0:
        top -= 1
        node = stack[top]
        g = sub(x, _slot(vecs, node, 0))
        reach = np.sqrt(dot(g, g)) - vecs[node, 1, 0]
        if reach > 0.0 and reach * reach >= best:
            continue
        t = node + int(vecs[node, 2, 0])
        if t != node:  # a leaf
            d2, region = triangle_region(x, _slot(vecs, t, 0), _slot(vecs, t, 1), _slot(vecs, t, 2))
            if d2 < best:
                best, best_t, best_region = d2, t, region
            continue
        first, second = node + int(vecs[node, 1, 1]), node + int(vecs[node, 1, 2])
        g1, g2 = sub(x, _slot(vecs, first, 0)), sub(x, _slot(vecs, second, 0))
        if dot(g1, g1) - vecs[first, 1, 0] ** 2 < dot(g2, g2) - vecs[second, 1, 0] ** 2:
            first, second = second, first  # the nearer child on top
        stack[top], stack[top + 1] = first, second
        top += 2
    return best_t, best_region, best


@njit(cache=True)
def smooth_normal(vecs: np.ndarray, t: int, q: Vec3) -> Vec3:
    """The unit normal at the point q [m] of triangle element t: its corners' normals weighted by
    q's barycentric coordinates (Phong), continuous across the mesh's smooth edges (a tessellated
    sphere: about its radial direction, where the facets' normals err by their angle); a flat face
    that meets its neighbours at a crease (a box's): its own normal."""
    a = _slot(vecs, t, 0)
    v0, v1, v2 = sub(_slot(vecs, t, 1), a), sub(_slot(vecs, t, 2), a), sub(q, a)
    d00, d01, d11, d20, d21 = dot(v0, v0), dot(v0, v1), dot(v1, v1), dot(v2, v0), dot(v2, v1)
    den = d00 * d11 - d01 * d01
    wb, wc = (d11 * d20 - d01 * d21) / den, (d00 * d21 - d01 * d20) / den
    n = add(scale(wb, _slot(vecs, t + 2, 1)), scale(wc, _slot(vecs, t + 2, 2)))
    n = add(scale(1.0 - wb - wc, _slot(vecs, t + 2, 0)), n)
    return scale(1.0 / np.sqrt(dot(n, n)), n)


@njit(cache=True)
def region_distance(vecs: np.ndarray, t: int, region: int, x: Vec3) -> tuple:
    """(signed distance [m], outward unit normal: :func:`smooth_normal` at the nearest point) of the
    point x (real or complex) to triangle element t by its nearest ``region`` (negative inside the
    mesh; the sign by the region's pseudonormal)."""
    a, b, c = _slot(vecs, t, 0), _slot(vecs, t, 1), _slot(vecs, t, 2)
    if region == FACE:
        s = dot(sub(x, a), _slot(vecs, t, 4))
        return s, smooth_normal(vecs, t, sub(x, scale(s, _slot(vecs, t, 4))))
    if region == VERTEX_A or region == VERTEX_B or region == VERTEX_C:
        q = a if region == VERTEX_A else (b if region == VERTEX_B else c)
        q = (q[0] + 0.0 * x[0], q[1] + 0.0 * x[0], q[2] + 0.0 * x[0])
        pseudo = _slot(vecs, t + 1, (1, 2, 4)[region - VERTEX_A])
    else:
        edge = region - EDGE_AB  # 0: ab, 1: bc, 2: ca
        p0 = a if edge == 0 else (b if edge == 1 else c)
        p1 = b if edge == 0 else (c if edge == 1 else a)
        e = sub(p1, p0)
        q = add(p0, scale(dot(sub(x, p0), e) / dot(e, e), e))
        pseudo = _slot(vecs, t + edge // 2, (5, 6, 0)[edge])
    g = sub(x, q)
    sign = 1.0 if dot(_real(g), pseudo) >= 0.0 else -1.0
    return sign * np.sqrt(dot(g, g)), smooth_normal(vecs, t, q)


@njit(cache=True)
def signed_distance(vecs: np.ndarray, root: int, x: Vec3, cutoff: float, hint: int) -> tuple:
    """(signed distance [m], outward unit normal, the nearest triangle's offset from ``root``) of the
    point x [m, the mesh's coordinates; real or complex] to the mesh whose sphere tree starts at
    element ``root`` (``hint``: :func:`nearest_triangle`'s); farther than ``cutoff`` [m] from its
    surface: (cutoff, +z, 0)."""
    t, region, _ = nearest_triangle(vecs, root, _real(x), cutoff, hint)
    if t < 0:
        zero = 0.0 * x[0]
        return cutoff + zero, (zero, zero, 1.0 + zero), 0
    s, n = region_distance(vecs, t, region, x)
    return s, n, t - root


@njit(cache=True)
def signed_distances(vecs: np.ndarray, root: int, points: np.ndarray, cutoff: float) -> np.ndarray:
    """The signed distances [m] of points (n, 3) [m, the mesh's coordinates] to the mesh at ``root``
    (``cutoff`` for a point farther than it from the surface)."""
    out = np.empty(points.shape[0])
    for i in range(points.shape[0]):
        out[i] = signed_distance(vecs, root, (points[i, 0], points[i, 1], points[i, 2]), cutoff, 0)[0]
    return out
