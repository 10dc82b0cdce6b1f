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
