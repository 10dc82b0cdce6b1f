"""The accuracy estimate of runs with contact pairs (docs/solver.md, "Contact runs").

An impact breaks the smoothness Richardson's formula at 2h needs: the onset is located, but the
separation is not, so each impact adds an error C h^k whose factor C changes with where the
separation falls within a step, in size and in sign. A ball dropped on a plate with rk4 (20 steps
per impact at h = 1e-5 s) has the errors +7.7e-5, +1.1e-5, -6.7e-6, +4.4e-7 and +3.0e-8 m at
h = 2e-5 ... 1.25e-6 s: order 4 from h/2 on, but not from h to 2h, and a companion at 2h or 4h
resolves the impact less (10 or 5 steps) or not at all. A fixed-step contact run is therefore
compared with a companion at h/r = h/2, assumed no worse than the run by the factor r (order >= 1)
but of either sign: |y_h - y_h/r| is between (1 - 1/r) and (1 + 1/r) times the run's error, and
its geometric middle, |y_h - y_h/r| / sqrt(1 - 1/r^2) (:func:`half_step_factor`), is within a
factor sqrt(3) of the error for r = 2 (on the series above: 0.98-1.83 x).

The companion must see the same contacts: :func:`sequence_difference` compares the number of
located onsets of every contact point (a grazing touch that one run makes and the other does not
makes the difference of the two runs meaningless). The estimate also gives the error of each
pair's peak normal force (the peak the steps evaluated, contacts.csv's ``peak_normal_force``, with
the fixed-step integrators; the sampled one with the adaptive ones) and of the onset times. Pure
numerics: no FreeCAD.
"""

from __future__ import annotations

import math

import numpy as np

FIXED_STEP = ("euler", "symplectic_euler", "rk4", "rk4_tree", "cros")  # each evaluation on a step taken
SAMPLES_PER_IMPACT = 3  # the samples in contact an adaptive run's sampled peak of an impact needs
NORMAL, PEAK = 3, 10  # columns of contacts.csv (results.contacts.CONTACT_COLUMNS): normal force, peak since the last


def half_step_factor(r: float) -> float:
    """The factor turning |y_h - y_h/r| into the estimate of a contact run's error (above)."""
    return 1.0 / math.sqrt(1.0 - 1.0 / (r * r))


def describe_plan(step: float) -> str:
    """The plan's sentence (summary.json's ``description``) for a companion at ``step`` [s]."""
    return f"comparison with a companion run at half the step ({step:g} s; contact pairs: impacts)"


def contact_samples(res) -> dict[str, np.ndarray]:
    """What the estimate compares of a Results' contacts: each pair's peak normal force over the
    run [N] (``contact_peak``, (pairs,); ``contact_peak_excess``: :func:`sampled_peak_excess`), and
    its located onsets: time [s] (``onset_t``), pair index (``onset_pair``) and contact point
    (``onset_point``) in time order. The peak is the largest the steps evaluated (contacts.csv's
    ``peak_normal_force``) with the fixed-step integrators, the largest sampled with the others
    (the run and its companion take their accepted steps at different times)."""
    names = list(getattr(res, "contact_names", []))
    events = [e for e in res.contact_events if e["contact"] in names]
    peak, excess = np.zeros(len(names)), np.zeros(len(names))
    if names and len(res):
        values = np.stack([res.contact(name) for name in names], axis=1)  # (K, pairs, columns)
        peak = values[:, :, NORMAL].max(axis=0)
        if res.settings.integrator in FIXED_STEP:
            peak = np.maximum(peak, values[:, :, PEAK].max(axis=0))
        else:
            excess = sampled_peak_excess(np.asarray(res.t), values[:, :, NORMAL], names, events)
    return dict(
        contact_peak=peak,
        contact_peak_excess=excess,
        onset_t=np.array([e["t"] for e in events], dtype=float),
        onset_pair=np.array([names.index(e["contact"]) for e in events], dtype=int),
        onset_point=np.array([e["point"] for e in events], dtype=int),
    )


def sampled_peak_excess(t: np.ndarray, force: np.ndarray, names: list[str], events: list[dict]) -> np.ndarray:
    """Per pair (``names``), the :func:`sampling_excess` [N] of its sampled normal ``force`` (K,
    pairs) at the times ``t`` [s], or NaN (not estimated) where an impact from one of its onsets
    (``events``) holds too few samples (:func:`impacts_sampled`)."""
    excess = np.zeros(len(names))
    for i, name in enumerate(names):
        onsets = [e["t"] for e in events if e["contact"] == name]
        excess[i] = sampling_excess(force[:, i]) if impacts_sampled(t, force[:, i], onsets) else math.nan
    return excess


def sampling_excess(force: np.ndarray) -> float:
    """How far [N] the peak of the parabola through the largest sample of ``force`` (K,) and its
    two neighbours lies above that sample: the sampled peak's error from the sampling alone (a
    companion sampled at the same output times cannot see it); 0 at an end or a flat top."""
    k = int(np.argmax(force)) if len(force) else 0
    if k == 0 or k >= len(force) - 1:
        return 0.0
    before, top, after = force[k - 1], force[k], force[k + 1]
    curvature = 2.0 * top - before - after
    return float((after - before) ** 2 / (8.0 * curvature)) if curvature > 0.0 else 0.0


def impacts_sampled(t: np.ndarray, force: np.ndarray, onsets: list[float]) -> bool:
    """Whether each contact from an onset (times [s]) holds at least :data:`SAMPLES_PER_IMPACT`
    output samples (times ``t`` [s]) in contact (normal ``force`` > 0) among the next ones (one
    more: a sample at the onset itself may be apart): else the sampled peak may miss the impact's
    (not estimated: None in the record)."""
    for t0 in onsets:
        k = int(np.searchsorted(t, t0, side="right"))
        if np.count_nonzero(force[k : k + SAMPLES_PER_IMPACT + 1] > 0.0) < SAMPLES_PER_IMPACT:
            return False
    return True


def onsets_by_point(samples: dict) -> dict[tuple[int, int], np.ndarray]:
    """The onset times [s] of each (pair index, contact point) of ``samples``, in time order."""
    found: dict[tuple[int, int], list[float]] = {}
    for t, pair, point in zip(
        samples.get("onset_t", ()), samples.get("onset_pair", ()), samples.get("onset_point", ())
    ):
        found.setdefault((int(pair), int(point)), []).append(float(t))
    return {key: np.sort(np.array(times)) for key, times in found.items()}


def sequence_difference(main: dict, companion: dict, names: list[str]) -> tuple[str, str]:
    """How the contacts of the run (``main``) and its companion differ: ('', '') when every contact
    point has as many located onsets in both; ('grazing', why) when a pair touched in one run and
    never in the other (the two runs' difference is then no error estimate); ('repeated', why) when
    every pair touched in both but a point's number of touches differs (a bouncing contact's
    ever smaller rebounds end after a number of touches that depends on the step: the estimate
    stands, the onset times cannot be matched). ``why`` names the pair, the counts and the time of
    the first onset the other run did not have; ``names``: the pairs in index order."""
    ours, theirs = onsets_by_point(main), onsets_by_point(companion)
    first = None
    for key in sorted(set(ours) | set(theirs)):
        a, b = ours.get(key, np.zeros(0)), theirs.get(key, np.zeros(0))
        if len(a) != len(b):
            longer = a if len(a) > len(b) else b
            t = float(longer[min(len(a), len(b))])
            if first is None or t < first[0]:
                first = (t, key, len(a), len(b))
    if first is None:
        return "", ""
    t, (pair, point), n_run, n_companion = first
    counts = f"{n_run} times in the run and {n_companion} times in the companion, the first difference at t = {t:.6g} s"
    pairs_ours, pairs_theirs = ({k[0] for k in found} for found in (ours, theirs))
    only = sorted(pairs_ours ^ pairs_theirs)
    if only:
        where = "the run" if only[0] in pairs_ours else "the companion"
        t_only = min(float(v[0]) for k, v in {**ours, **theirs}.items() if k[0] == only[0])
        return "grazing", (
            f"contact '{names[only[0]]}' touched in {where} only (first at t = {t_only:.6g} s; "
            f"a grazing touch): the run and its companion differ by that touch, not by the integration "
            f"error; a smaller --step (or tighter --rtol) decides whether it touches"
        )
    return "repeated", f"contact '{names[pair]}' (point {point}) touched {counts}"


def onset_time_error(main: dict, companion: dict, factor: float) -> float:
    """``factor`` x the largest difference [s] between the matching onsets (the k-th of each
    contact point) of the run and its companion; 0 without onsets."""
    ours, theirs = onsets_by_point(main), onsets_by_point(companion)
    largest = 0.0
    for key, a in ours.items():
        b = theirs.get(key, np.zeros(0))
        n = min(len(a), len(b))
        if n:
            largest = max(largest, float(np.abs(a[:n] - b[:n]).max()))
    return factor * largest


def peak_force_errors(main: dict, companion: dict, factor: float) -> np.ndarray:
    """``factor`` x |peak normal force of the run - the companion's| [N] of each pair, plus the
    run's :func:`sampling_excess` where its peak is a sampled one."""
    a, b = main.get("contact_peak", np.zeros(0)), companion.get("contact_peak", np.zeros(0))
    if a.shape != b.shape:
        raise ValueError("the companion's contact pairs differ from the run's")
    return factor * np.abs(a - b) + main.get("contact_peak_excess", np.zeros(a.shape))


def contacts_record(names: list[str], main: dict, errors: np.ndarray) -> dict:
    """The ``contacts`` part of the accuracy record: per pair its peak normal force [N] and that
    peak's estimated error [N] (None: not estimated, :func:`impacts_sampled`)."""
    peaks = main.get("contact_peak", np.zeros(len(names)))
    return {
        name: {
            "peak_normal_force_N": float(peaks[i]),
            "peak_force_error_N": None if math.isnan(errors[i]) else float(errors[i]),
        }
        for i, name in enumerate(names)
    }


def peak_errors(rec: dict) -> tuple[list[float], bool]:
    """(the pairs' estimated peak force errors [N], whether a pair's was not estimated) of an accuracy record."""
    found = [c["peak_force_error_N"] for c in rec.get("contacts", {}).values()]
    return [e for e in found if e is not None], None in found
