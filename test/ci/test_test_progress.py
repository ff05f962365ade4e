"""scripts/ci/_test_progress.py: a line per finished test, written as it finishes, once under pytest-xdist."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CI = Path(__file__).resolve().parents[2] / "scripts" / "ci"

SAMPLE = """
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("setup fails")

def test_passes():
    pass

def test_fails():
    assert False

@pytest.mark.skip(reason="not here")
def test_skipped():
    pass

def test_setup_errors(broken):
    pass
"""


def _lines(tmp_path: Path, *pytest_args: str) -> list[list[str]]:
    """Run the sample tests with the plugin; return the progress file's lines split into their five fields."""
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    progress = tmp_path / "progress.tsv"
    env = dict(os.environ, ISAACLAB_NEWTON_TEST_PROGRESS=str(progress))
    env["PYTHONPATH"] = os.pathsep.join([str(CI), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "pytest", "-q", "-p", "_test_progress", "-p", "no:cacheprovider", *pytest_args]
    subprocess.run([*command, "test_sample.py"], cwd=tmp_path, env=env, capture_output=True, timeout=300)
    return [line.split("\t") for line in progress.read_text().splitlines()]


def _progress(tmp_path: Path, *pytest_args: str) -> list[tuple[str, str]]:
    """Run the sample tests with the plugin; return (outcome, test name) per line of the progress file."""
    return sorted((outcome, node.split("::")[1]) for outcome, *_, node in _lines(tmp_path, *pytest_args))


EXPECTED = [
    ("error", "test_setup_errors"),
    ("failed", "test_fails"),
    ("passed", "test_passes"),
    ("skipped", "test_skipped"),
]


def test_each_test_gets_one_line_with_its_outcome(tmp_path):
    """Passed, failed, skipped and a setup error each get one line naming that outcome."""
    assert _progress(tmp_path) == EXPECTED


def test_under_xdist_only_the_controller_writes(tmp_path):
    """With two xdist workers every test still has exactly one line."""
    assert _progress(tmp_path, "-n", "2") == EXPECTED


def test_lines_say_when_and_where_each_test_finished(tmp_path):
    """Each line's finish time is non-decreasing from the session start and names the xdist worker that ran it."""
    lines = _lines(tmp_path, "-n", "2")
    finished = [float(line[2]) for line in lines]
    assert all(float(line[1]) >= 0.0 for line in lines)
    assert finished == sorted(finished) and finished[0] >= 0.0
    assert {line[3] for line in lines} <= {"gw0", "gw1"}
