"""Make the repository importable and the oracles package reachable from every test."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "tests")):
    if p not in sys.path:
        sys.path.insert(0, p)

# The suite compiles its kernels in process, as a benchmark does: no background compile processes
# from the command-line tests (tests/test_cold_start.py asks for the interpreted start itself).
os.environ.setdefault("MBD_COLD_START", "compile")

# Runs make no accuracy estimate (a companion run in a second process each) unless a test asks for
# it: tests/test_accuracy.py covers the default path.
os.environ.setdefault("MBD_ACCURACY", "off")
