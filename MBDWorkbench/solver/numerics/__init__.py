"""Numba building blocks of the kernels: decorators and the interpreted start, 3-vector and quaternion
algebra, constraint rows, the profile evaluator, forces, constraints and the banded Schur solve."""
