"""scripts/ci/_exit_watchdog.py: an xdist worker that does not exit after its session prints its stacks and exits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CI = Path(__file__).resolve().parents[2] / "scripts" / "ci"

SAMPLE = """
import threading
import time

def test_leaves_a_thread_running():
    threading.Thread(target=time.sleep, args=(3600.0,), name="never_joined").start()
"""


def test_a_worker_held_by_a_thread_dumps_its_stacks_and_exits(tmp_path):
    """A never-joined thread keeps the worker alive: after the wait its stacks are written and the run still ends."""
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    env = dict(os.environ, ISAACLAB_NEWTON_EXIT_STACKS=str(tmp_path), ISAACLAB_NEWTON_EXIT_WAIT_S="2")
    env["PYTHONPATH"] = os.pathsep.join([str(CI), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "pytest", "-q", "-p", "_exit_watchdog", "-p", "no:cacheprovider", "-n", "1"]
    result = subprocess.run([*command, "test_sample.py"], cwd=tmp_path, env=env, capture_output=True, timeout=120)
    assert result.returncode == 0, result.stdout[-2000:]
    stacks = (tmp_path / "exit_stacks_gw0.txt").read_text()
    assert "Timeout" in stacks and "threading.py" in stacks
