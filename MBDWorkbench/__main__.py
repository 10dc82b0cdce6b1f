"""``python -m MBDWorkbench ...``: the command-line interface."""

import sys

from .cli import main
from .cli_common import exit_at_once
from .solver.results.status import CANCELLED, EXIT_CODES

if __name__ == "__main__":
    code = main()
    if code == EXIT_CODES[CANCELLED]:  # within a second of the signal: no interpreter teardown
        exit_at_once(code)
    sys.exit(code)
