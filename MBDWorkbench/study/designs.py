"""Designs: the list of variants of a study, each a dict {parameter path: value}.

* ``grid``: the full factorial of the parameters' values (the first parameter varies slowest);
* ``lhs``: a Latin hypercube of ``samples`` points: each parameter's range is cut into
  ``samples`` strata of equal probability, one point per stratum at a uniform position in it,
  strata paired at random; the points map through the inverse distribution function;
* ``monte_carlo``: ``samples`` independent draws from each parameter's distribution.

Both sampled designs draw from ``numpy.random.default_rng(seed)`` in a fixed order (parameter
by parameter), so a seed gives the same variants bit for bit (with the same NumPy)."""

from __future__ import annotations

import itertools

import numpy as np
from scipy.special import ndtri

from .spec import Parameter, Study


def variants(study: Study) -> list[dict]:
    """The variants of the study's design."""
    design, params = study.design, study.parameters
    if design["type"] == "grid":
        return [dict(zip((p.path for p in params), combo)) for combo in itertools.product(*(p.values for p in params))]
    rng = np.random.default_rng(design["seed"])
    n = design["samples"]
    draw = _lhs_column if design["type"] == "lhs" else _monte_carlo_column
    cols = [draw(rng, n, p) for p in params]
    return [{p.path: float(c[i]) for p, c in zip(params, cols)} for i in range(n)]


def _lhs_column(rng: np.random.Generator, n: int, p: Parameter) -> np.ndarray:
    u = (rng.permutation(n) + rng.random(n)) / n
    return _inverse_cdf(p.distribution, u)


def _monte_carlo_column(rng: np.random.Generator, n: int, p: Parameter) -> np.ndarray:
    d = p.distribution
    if d["type"] == "uniform":
        return rng.uniform(d["min"], d["max"], n)
    return rng.normal(d["mean"], d["std"], n)


def _inverse_cdf(d: dict, u: np.ndarray) -> np.ndarray:
    """Values of the distribution ``d`` at the probabilities ``u`` in (0, 1)."""
    if d["type"] == "uniform":
        return d["min"] + (d["max"] - d["min"]) * u
    return d["mean"] + d["std"] * ndtri(u)
