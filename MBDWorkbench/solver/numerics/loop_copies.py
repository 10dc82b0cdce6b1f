"""Array copies written as loops, for kernels compiled without reference counts (jit.py): a slice
copy (``a[:] = b``) needs Numba's runtime, which such a kernel does not have."""

from __future__ import annotations

import numpy as np

from .jit import njit


@njit(cache=True, inline="always")
def copy_into(to: np.ndarray, source: np.ndarray) -> None:
    """to[:] = source (1-d arrays of the same length)."""
    for i in range(to.shape[0]):
        to[i] = source[i]


@njit(cache=True, inline="always")
def copy_flat(to: np.ndarray, source: np.ndarray) -> None:
    """to[:] = source (C-contiguous arrays of the same shape, any dimension)."""
    copy_into(to.reshape(-1), source.reshape(-1))


@njit(cache=True, inline="always")
def memory_into(memory: np.ndarray, vecs: np.ndarray) -> None:
    """memory[:] = vecs[:, 3:5] (the force elements' memory, (elements, 2, 3))."""
    for e in range(memory.shape[0]):
        for r in range(2):
            for c in range(3):
                memory[e, r, c] = vecs[e, 3 + r, c]


@njit(cache=True, inline="always")
def put_memory(vecs: np.ndarray, memory: np.ndarray) -> None:
    """vecs[:, 3:5] = memory (:func:`memory_into` back)."""
    for e in range(memory.shape[0]):
        for r in range(2):
            for c in range(3):
                vecs[e, 3 + r, c] = memory[e, r, c]
