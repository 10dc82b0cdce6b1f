"""Helpers shared by the command-line subcommands (:mod:`.cli`, :mod:`.analysis_cli`):
loading a model, the progress line, the output folder, reporting a stopped run."""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

from .solver.errors import ModelError, SimulationError
from .solver.model import Model, load
from .solver.results_files import ResultsWriteError


def load_model(path: str) -> Model:
    """Load a JSON model or a FreeCAD document (.FCStd) into a Model."""
    if not os.path.exists(path):
        raise ModelError(path, "file not found")
    if path.lower().endswith(".fcstd"):
        from .cad.document_model import model_from_document_file

        return model_from_document_file(path)
    return load(path)


def out_dir(out: str | None, model_path: str, suffix: str) -> str:
    """``out``, or ``<model file name without extension><suffix>`` in the working directory."""
    return out or os.path.splitext(os.path.basename(model_path))[0] + suffix


class Progress:
    """A one-line progress indicator on stderr: ``progress(t, t_end)`` with times in s."""

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream = stream
        self.start = time.perf_counter()
        self.last = -1.0

    def __call__(self, t: float, t_end: float) -> None:
        now = time.perf_counter()
        if now - self.last < 0.2 and t < t_end:
            return
        self.last = now
        frac = min(1.0, t / t_end)
        bar = "#" * int(30 * frac)
        self.stream.write(f"\r[{bar:<30}] {100 * frac:5.1f}%  t = {t:.4g} s  ({now - self.start:.1f} s)")
        if t >= t_end:
            self.stream.write("\n")
        self.stream.flush()


def report_stopped_run(error: SimulationError, out: str) -> int:
    """Print why a run stopped and where its partial results are; returns exit code 1."""
    sys.stderr.write("\n")
    print(f"error: {error}", file=sys.stderr)
    if error.results is not None and len(error.results) and not isinstance(error, ResultsWriteError):
        print(f"results up to t = {error.results.t[-1]:.6g} s written to {out}", file=sys.stderr)
    return 1
