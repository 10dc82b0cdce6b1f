"""CPU cost per output sample of Results.record (one sample a call) and Results.record_many (K
samples in one compiled loop) on the states of the scenes of bench/peers_events.py (issue 33 item
7): K = 1000 samples of each run (its output step t_end / K), recorded again into fresh Results,
time.process_time, best of REPEATS. Also checks that both store the same columns (bitwise).
Runs in .venv-bench like bench/sample_cost.py (the scenes' models); prints a markdown table
(bench/results/record_cost.md).

    .venv-bench/bin/python bench/record_cost.py
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bench import peers_events as scenes  # noqa: E402
from bench.sample_cost import captured  # noqa: E402
from MBDWorkbench.solver import from_dict, simulate  # noqa: E402
from MBDWorkbench.solver.results.results import Results  # noqa: E402
from MBDWorkbench.solver.system.system import System  # noqa: E402

K = 1000
REPEATS = 5
SCENES = {
    "hertz (one contact)": lambda: scenes.ours_hertz(5e-7),
    "ball (one contact)": lambda: scenes.ours_ball(0.9, 1e-5),
    "stop, rigid (revolute + stop)": lambda: scenes.ours_stop("rigid", 1e-4, 1.5),
    "stop, compliant (revolute + stop)": lambda: scenes.ours_stop("compliant", 1e-4, 1.5),
    "block (8 corner points)": lambda: scenes.ours_block(1e-4, 0.6),
}


def states(model, overrides: dict) -> tuple[Results, np.ndarray, np.ndarray, np.ndarray]:
    """(the run's Results, t, Y, acc) of the K + 1 samples of a run with output step t_end / K."""
    calls = []
    record = Results.record

    def spy(self, t, Y, acc, lam=None, Ydot=None):
        calls.append((float(t), np.array(Y, dtype=float), np.array(acc, dtype=float)))
        return record(self, t, Y, acc, lam, Ydot)

    Results.record = spy
    try:
        res = simulate(model, **{**overrides, "output_step": model.settings.t_end / K})
    finally:
        Results.record = record
    t, Y, acc = (np.array(v) for v in zip(*calls))
    return res, t, Y, acc


def cpu_per_sample(res: Results, t, Y, acc, many: bool) -> tuple[float, Results]:
    """Best CPU time [us] per sample of recording (t, Y, acc) into fresh Results, and those Results."""
    best, out = np.inf, None
    for _ in range(REPEATS):
        out = Results(System(res.model, res.system.dropped), res.settings)
        start = time.process_time()
        if many:
            out.record_many(t, Y, acc)
        else:
            for k in range(len(t)):
                out.record(t[k], Y[k], acc[k])
        best = min(best, time.process_time() - start)
    return best / len(t) * 1e6, out


def main() -> None:
    print(f"load average (1 min) {os.getloadavg()[0]:.1f}; CPU us per output sample, K = {len(range(K + 1))} samples")
    print("| scene | record | record_many | ratio | same columns |")
    print("|---|---|---|---|---|")
    for scene, build in SCENES.items():
        model, overrides = captured(build)
        res, t, Y, acc = states(from_dict(model), overrides)
        cpu_per_sample(res, t[:2], Y[:2], acc[:2], True)  # compiled
        one, a = cpu_per_sample(res, t, Y, acc, False)
        many, b = cpu_per_sample(res, t, Y, acc, True)
        same = all(np.array_equal(a._samples.column(key), b._samples.column(key)) for key in a._samples.keys())
        print(f"| {scene} | {one:.1f} | {many:.2f} | {one / many:.0f}x | {'yes' if same else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
