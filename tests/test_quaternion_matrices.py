"""quaternion.matrices: the compiled path of (k, 4) arrays against its NumPy path (the same
arithmetic, so the same bits) and against a rotation's closed form."""

import math

import numpy as np

from MBDWorkbench.solver.numerics import quaternion


def test_compiled_rows_give_the_numpy_paths_bits():
    """(k, 4) rows (compiled) against the same rows as a (1, k, 4) array (NumPy), near-unit and
    far from unit, and the strided rows of a state vector as the event functions pass them."""
    rng = np.random.default_rng(7)
    for scale in (1.0, 1e-3, 1e3):
        Y = rng.normal(size=(5000, 7)) * scale
        Q = Y[:, 3:]  # a strided view
        assert np.array_equal(quaternion.matrices(Q), quaternion.matrices(Q[None])[0])
        unit = Q / np.linalg.norm(Q, axis=1)[:, None] * (1 + 1e-9 * rng.normal(size=(5000, 1)))
        assert np.array_equal(quaternion.matrices(unit), quaternion.matrices(unit[None])[0])
    single = Y[0].reshape(1, 7)[:, 3:]
    assert np.array_equal(quaternion.matrices(single), quaternion.matrices(single[None])[0])


def test_rotation_about_z_by_a_quarter_turn():
    q = [[math.cos(math.pi / 4), 0.0, 0.0, math.sin(math.pi / 4)]]
    np.testing.assert_allclose(quaternion.matrices(q)[0], [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-15)
    assert quaternion.matrices(np.zeros((0, 4))).shape == (0, 3, 3)
