"""Solve's worker thread yields the CPU to FreeCAD's GUI thread (issue 36): its nice value is
raised for that thread only (Linux keeps a nice value per thread)."""

import os
import sys
import threading

import pytest

from MBDWorkbench.commands.solve_commands import lower_thread_priority


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")
def test_lower_thread_priority_is_per_thread():
    seen = {}

    def worker():
        tid = threading.get_native_id()
        seen["before"] = os.getpriority(os.PRIO_PROCESS, tid)
        lower_thread_priority(3)
        seen["after"] = os.getpriority(os.PRIO_PROCESS, tid)

    main_before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen["after"] == min(19, seen["before"] + 3)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == main_before


def test_the_interpreted_start_yields_to_other_threads(monkeypatch):
    """While interpreting, each kernel call from Python checks ``done`` through ``yielding``:
    it returns done()'s answer and, when other threads run, sleeps YIELD_SLEEP_S once every
    YIELD_EVERY_S (so a waiting GUI thread gets Python's lock)."""
    import time

    from MBDWorkbench.solver.numerics import cold_start

    slept, answers = [], iter([False, False, True])
    monkeypatch.setattr(cold_start.time, "sleep", slept.append)
    check = cold_start.yielding(lambda: next(answers))
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert check() is False and slept == []  # not due yet
        due = time.perf_counter() + 1.5 * cold_start.YIELD_EVERY_S
        while time.perf_counter() < due:  # time.sleep is the recorder here
            pass
        assert check() is False and slept == [cold_start.YIELD_SLEEP_S]
        assert check() is True and len(slept) == 1  # due again only YIELD_EVERY_S later
    finally:
        stop.set()
        other.join()
