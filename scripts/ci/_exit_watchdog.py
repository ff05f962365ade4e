"""pytest plugin: an xdist worker still alive a while after its session ended prints its threads' stacks and exits.

``scripts/ci/gpu_suite.sh`` loads it (``-p _exit_watchdog``, with ``scripts/ci`` on ``PYTHONPATH``) and names a
folder in ``ISAACLAB_NEWTON_EXIT_STACKS``. When a worker's session finishes (its tests have all reported), it arms
:func:`faulthandler.dump_traceback_later`: if the process has not exited ``ISAACLAB_NEWTON_EXIT_WAIT_S`` seconds later
(default :data:`EXIT_WAIT_S`; a thread that is never joined, a teardown or an exit handler that blocks), every
thread's Python stack goes to ``exit_stacks_<worker>.txt`` in that folder and the worker exits, so the controller is
not left waiting on it. Workers that exit in time leave that file empty. The controller itself is not watched.
"""

from __future__ import annotations

import faulthandler
import os
from pathlib import Path

import pytest

EXIT_STACKS_VARIABLE = "ISAACLAB_NEWTON_EXIT_STACKS"
"""Environment variable naming the folder the stack files go to."""

EXIT_WAIT_VARIABLE = "ISAACLAB_NEWTON_EXIT_WAIT_S"
"""Environment variable overriding :data:`EXIT_WAIT_S`."""

EXIT_WAIT_S = 60.0
"""Seconds a worker may take from the end of its session to its exit, by default [s]."""


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """On an xdist worker, arm the exit watchdog before session-scoped teardown runs."""
    folder = os.environ.get(EXIT_STACKS_VARIABLE)
    worker = getattr(session.config, "workerinput", None)
    if not folder or worker is None:
        return
    stacks = open(Path(folder) / f"exit_stacks_{worker['workerid']}.txt", "w")  # noqa: SIM115 - faulthandler keeps it
    wait = float(os.environ.get(EXIT_WAIT_VARIABLE, EXIT_WAIT_S))
    faulthandler.dump_traceback_later(wait, exit=True, file=stacks)
