"""Scripts end on Ctrl-C or SIGTERM with 130 or 143 and no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from isaaclab_contrib.app.entry import Terminated, sigterm_as_interrupt

_SCRIPT = """
import time
from isaaclab_contrib.app.entry import run_script

def main():
    print("ready", flush=True)
    time.sleep(60)

run_script(main)
"""


def _as_in_a_terminal() -> None:
    """SIGINT's default disposition, as a foreground job has (a shell's background jobs inherit it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupted(signum: int) -> subprocess.CompletedProcess:
    process = subprocess.Popen(
        [sys.executable, "-c", _SCRIPT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_as_in_a_terminal,
    )
    assert process.stdout.readline().strip() == "ready"
    time.sleep(0.2)
    process.send_signal(signum)
    out, err = process.communicate(timeout=30)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_ctrl_c_exits_130_without_a_traceback():
    """SIGINT ends the script with 130 and one line."""
    result = _interrupted(signal.SIGINT)
    assert result.returncode == 130 and "Traceback" not in result.stderr and "interrupted" in result.stderr


def test_sigterm_exits_143_without_a_traceback():
    """SIGTERM ends the script with 143 and one line."""
    result = _interrupted(signal.SIGTERM)
    assert result.returncode == 143 and "Traceback" not in result.stderr and "terminated" in result.stderr


def test_sigterm_inside_the_block_raises_terminated_and_restores_the_handler():
    """sigterm_as_interrupt turns SIGTERM into Terminated (a KeyboardInterrupt) and puts the old handler back."""
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated), sigterm_as_interrupt():
        os.kill(os.getpid(), signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) is before
