"""The task panels, one module per panel (:mod:`..task_panels` opens them)."""
