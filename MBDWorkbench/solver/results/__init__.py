"""Results of a run: samples in memory, result files and output folders, run status and warnings."""

from .results import Results

__all__ = ["Results"]
