"""The contact pairs' columns of contacts.csv at one sample, computed point by point in Python: the
per-sample path of solver/results/contacts.py before its compiled kernel (contact_rows), kept as
the independent computation the kernel is checked against (tests/test_contact_samples.py)."""

import numpy as np

from MBDWorkbench.solver.model.contacts import ordered
from MBDWorkbench.solver.numerics.contact_forces import BOUND, contact_geometry, contact_loads, patch_scale
from MBDWorkbench.solver.numerics.forces import CONTACT
from MBDWorkbench.solver.numerics.joints import body_side
from MBDWorkbench.solver.results.contacts import CONTACT_COLUMNS


def contact_sample(system, Y: np.ndarray) -> np.ndarray:
    """(pairs, 11) values of CONTACT_COLUMNS at the state Y, whose rotation matrices are in
    system.work.A (system.evaluate(t, Y) just ran). A disabled pair: zeros. Reads and restarts
    the peaks the kernel keeps (numerics.contact_forces)."""
    pairs = getattr(system.model, "contacts", [])
    out = np.zeros((len(pairs), len(CONTACT_COLUMNS)))
    S = system.static
    first = int(S.force_start[CONTACT])
    Y = np.ascontiguousarray(Y, dtype=float)
    points: dict[int, list] = {}
    scale, scaled = 1.0, 0
    e = -1
    while e + 1 < len(system.contact_pair):
        e += 1
        ck, k = system.contact_pair[e], first + e
        side_i, side_j = body_side(Y, S.nb, S.force_bi[k]), body_side(Y, S.nb, S.force_bj[k])
        p = tuple(float(x) for x in S.force_par[k])
        if S.force_flag[k] == BOUND:
            skipped, peaks = _apart_points(system, Y, k, p, points.setdefault(ck, []))
            e += skipped
            out[ck, -1] += peaks
            if not skipped:  # touching: its points share the pair's law (numerics.contact_forces)
                scale, scaled = patch_scale(system.work.A, side_i, side_j, S.force_vecs, S.force_par, k), int(p[0])
            continue
        if scaled > 0:
            p, scaled = (p[0] * scale, *p[1:]), scaled - 1
        d, nrm, x, Fn, Ft, slip, _, _ = contact_loads(
            system.work.A, side_i, side_j, S.force_vecs, k, S.force_flag[k], p
        )
        points.setdefault(ck, []).append((d, np.array(nrm), np.array(x), Fn, np.array(Ft), np.linalg.norm(slip)))
        out[ck, -1] += max(S.force_vecs[k, 3, 2], Fn)
        S.force_vecs[k, 3, 2] = Fn
    for ck, rows in points.items():
        sign = 1.0 if ordered(pairs[ck])[0] == pairs[ck].body_a else -1.0
        out[ck, :-1] = _pair_values(rows, sign)
    return out


def _apart_points(system, Y: np.ndarray, k: int, p: tuple, rows: list) -> tuple[int, float]:
    """(count of the points after BOUND element k to skip, the sum of their peaks since the last
    sample [N], restarted): all of them while its bounding sphere is apart (one row for them, the
    bounding sphere's gap and witness point), else (0, 0)."""
    S = system.static
    side_i, side_j = body_side(Y, S.nb, S.force_bi[k]), body_side(Y, S.nb, S.force_bj[k])
    d, nrm, x = contact_geometry(system.work.A, side_i, side_j, S.force_vecs, k, int(p[1]), p)
    if d > 0.0:
        return 0, 0.0
    skipped = slice(k + 1, k + 1 + int(p[0]))
    peaks = float(S.force_vecs[skipped, 3, 2].sum())
    S.force_vecs[skipped, 3, 2] = 0.0
    rows.append((d, np.array(nrm), np.array(x), 0.0, np.zeros(3), 0.0))
    return int(p[0]), peaks


def _pair_values(rows: list, sign: float) -> np.ndarray:
    """CONTACT_COLUMNS of one pair from its points' (d, normal, point, Fn, Ft, slip speed)."""
    F = sum(Fn * n + Ft for _, n, _, Fn, Ft, _ in rows)
    Fn_sum = sum(Fn for _, _, _, Fn, _, _ in rows)
    Ft_sum = sum(Ft for _, _, _, _, Ft, _ in rows)
    depth = max(d for d, *_ in rows)
    if Fn_sum > 0.0:
        point = sum(Fn * x for _, _, x, Fn, _, _ in rows) / Fn_sum
    else:
        point = max(rows, key=lambda r: r[0])[2]
    slip = max((s for d, _, _, _, _, s in rows if d > 0.0), default=0.0)
    return np.array([*(sign * F), Fn_sum, np.linalg.norm(Ft_sum), max(depth, 0.0), *point, slip])
