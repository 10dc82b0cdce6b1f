"""Study plots as PNG (matplotlib, Agg): KPI vs parameter for a 1-D study, a heat map per KPI
for a 2-D grid, and for sampled designs (LHS, Monte Carlo) histograms of the KPIs and their
sensitivity ranking by standardised regression coefficients (SRC)."""

from __future__ import annotations

import os

import numpy as np

from . import kpis
from .engine import StudyRun
from .spec import Study
from .units import axis_label

MAX_KPIS = 12  # KPIs shown per figure


def kpi_matrix(run: StudyRun) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(KPI columns, X parameters (n, p), Y KPIs (n, k)) of the variants with KPIs (failed ones left out)."""
    study = run.study
    names = kpis.columns(study.outputs, study.model)
    ok = [r for r in run.rows if r.kpis]
    X = np.array([[float(r.values[p.path]) for p in study.parameters] for r in ok], float)
    Y = np.array([r.kpis for r in ok], float)
    return names, X.reshape(len(ok), len(study.parameters)), Y.reshape(len(ok), len(names))


def standardised_regression_coefficients(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """SRC of a linear least-squares fit of y on the columns of X: b_i std(x_i) / std(y)
    (zero where y or x_i does not vary)."""
    sx, sy = X.std(axis=0), y.std()
    if sy == 0 or len(y) <= X.shape[1]:
        return np.zeros(X.shape[1])
    A = np.column_stack([np.ones(len(y)), X])
    b = np.linalg.lstsq(A, y, rcond=None)[0][1:]
    return b * sx / sy


def write_plots(run: StudyRun, folder: str) -> list[str]:
    """Write the plots of the study's design into ``folder`` (created); returns the files."""
    import matplotlib

    matplotlib.use("Agg")
    os.makedirs(folder, exist_ok=True)
    names, X, Y = kpi_matrix(run)
    if not len(Y):
        return []
    study = run.study
    keep = [k for k, n in enumerate(names) if not n.endswith("_time [s]")][:MAX_KPIS]
    if study.design["type"] == "grid" and len(study.parameters) == 1:
        return [_kpi_vs_parameter(study, X[:, 0], Y[:, keep], [names[k] for k in keep], folder)]
    if study.design["type"] == "grid" and len(study.parameters) == 2:
        return [_heat_map(study, X, Y[:, k], names[k], folder, i) for i, k in enumerate(keep)]
    return [
        _histograms(Y[:, keep], [names[k] for k in keep], folder),
        _sensitivity(study, X, Y[:, keep], [names[k] for k in keep], folder),
    ]


def _grid_axes(n: int):
    import matplotlib.pyplot as plt

    cols = 2 if n == 4 else min(3, n)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def _save(fig, path: str) -> str:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _kpi_vs_parameter(study: Study, x: np.ndarray, Y: np.ndarray, names: list[str], folder: str) -> str:
    fig = kpi_vs_parameter_figure(study, x, Y, names)
    return _save(fig, os.path.join(folder, "kpi_vs_parameter.png"))


def kpi_vs_parameter_figure(study: Study, x: np.ndarray, Y: np.ndarray, names: list[str]):
    """The figure of each KPI (columns of Y) vs the one parameter ``x``, its unit on the x axes."""
    fig, axes = _grid_axes(len(names))
    order = np.argsort(x)
    label = axis_label(study.model, study.parameters[0].path)
    for ax, y, name in zip(axes, Y.T, names):
        ax.plot(x[order], y[order], "o-", ms=4)
        ax.set_xlabel(label)
        ax.set_ylabel(name)
        ax.grid(alpha=0.3)
    fig.suptitle(f"{study.name}: KPIs vs {study.parameters[0].path}")
    return fig


def _heat_map(study: Study, X: np.ndarray, y: np.ndarray, name: str, folder: str, index: int) -> str:
    import matplotlib.pyplot as plt

    xs, ys = (np.array(p.values, float) for p in study.parameters[:2])
    Z = np.full((len(ys), len(xs)), np.nan)
    for (a, b), v in zip(X, y):
        Z[list(ys).index(b), list(xs).index(a)] = v
    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    image = ax.imshow(Z, origin="lower", aspect="auto", cmap="viridis")
    ax.set_xticks(range(len(xs)), [f"{v:.4g}" for v in xs], rotation=45)
    ax.set_yticks(range(len(ys)), [f"{v:.4g}" for v in ys])
    ax.set_xlabel(axis_label(study.model, study.parameters[0].path))
    ax.set_ylabel(axis_label(study.model, study.parameters[1].path))
    fig.colorbar(image, ax=ax, label=name)
    ax.set_title(name)
    return _save(fig, os.path.join(folder, f"heat_map_{index:02d}.png"))


def _histograms(Y: np.ndarray, names: list[str], folder: str) -> str:
    fig, axes = _grid_axes(len(names))
    for ax, y, name in zip(axes, Y.T, names):
        ax.hist(y[np.isfinite(y)], bins=max(5, min(30, int(np.sqrt(len(y))) + 1)))
        ax.set_xlabel(name)
        ax.set_ylabel("variants")
    return _save(fig, os.path.join(folder, "histograms.png"))


def _sensitivity(study: Study, X: np.ndarray, Y: np.ndarray, names: list[str], folder: str) -> str:
    fig, axes = _grid_axes(len(names))
    labels = [p.path for p in study.parameters]
    for ax, y, name in zip(axes, Y.T, names):
        src = standardised_regression_coefficients(X, y)
        order = np.argsort(np.abs(src))
        ax.barh([labels[i] for i in order], src[order])
        ax.set_xlabel("standardised regression coefficient")
        ax.set_title(name, fontsize=9)
    return _save(fig, os.path.join(folder, "sensitivity.png"))
