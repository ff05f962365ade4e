"""pytest plugin: one line per finished test, written as it finishes, so that a run cut off still says what ran.

``scripts/ci/gpu_suite.sh`` loads it (``-p _test_progress``, with ``scripts/ci`` on ``PYTHONPATH``) and names the file
in ``ISAACLAB_NEWTON_TEST_PROGRESS``. Each line is ``outcome<TAB>seconds<TAB>finished<TAB>worker<TAB>node id``: the
outcome is ``passed``, ``failed`` (the test body), ``error`` (its setup or teardown) or ``skipped``; the seconds are
those of setup, call and teardown together; ``finished`` is when the test's teardown was reported, in seconds since the
session started; ``worker`` is the pytest-xdist worker that ran it (``gw0``, ...; ``main`` without xdist). Under
pytest-xdist only the controller writes (it receives every worker's reports). pytest's JUnit XML is written only when
the session ends, which a wall-clock limit can prevent.
"""

from __future__ import annotations

import os
import time

import pytest

PROGRESS_VARIABLE = "ISAACLAB_NEWTON_TEST_PROGRESS"
"""Environment variable naming the file the lines are appended to."""

_RANK = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}


class ProgressLog:
    """Appends a line per test once its teardown is reported.

    Args:
        path: File the lines are appended to (line-buffered).
    """

    def __init__(self, path: str) -> None:
        self._file = open(path, "a", buffering=1)  # noqa: SIM115 - open for the whole session, closed at unconfigure
        self._start = time.monotonic()
        self._seconds: dict[str, float] = {}
        self._outcome: dict[str, str] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Add the phase's time and outcome; write the test's line at its teardown."""
        node = report.nodeid
        self._seconds[node] = self._seconds.get(node, 0.0) + report.duration
        if report.failed:
            outcome = "failed" if report.when == "call" else "error"
        else:
            outcome = "skipped" if report.skipped else "passed"
        if _RANK[outcome] > _RANK[self._outcome.get(node, "passed")]:
            self._outcome[node] = outcome
        if report.when == "teardown":
            finished = time.monotonic() - self._start
            worker = getattr(getattr(report, "node", None), "gateway", None)
            worker_id = worker.id if worker is not None else "main"
            outcome, seconds = self._outcome.pop(node, "passed"), self._seconds.pop(node)
            self._file.write(f"{outcome}\t{seconds:.2f}\t{finished:.1f}\t{worker_id}\t{node}\n")

    def close(self) -> None:
        self._file.close()


def pytest_configure(config: pytest.Config) -> None:
    """Register the log on the controlling process when the variable names a file."""
    path = os.environ.get(PROGRESS_VARIABLE)
    if path and not hasattr(config, "workerinput"):
        config.pluginmanager.register(ProgressLog(path), "isaaclab_newton_progress_log")


def pytest_unconfigure(config: pytest.Config) -> None:
    log = config.pluginmanager.get_plugin("isaaclab_newton_progress_log")
    if log is not None:
        log.close()
