"""Training-run behaviour that needs no environment."""

from __future__ import annotations

import os
import signal

import pytest

from isaaclab_contrib.rl.train import main, sigterm_as_keyboard_interrupt


def test_sigterm_ends_training_like_ctrl_c():
    """SIGTERM inside the training block raises KeyboardInterrupt, and the old handler is restored after."""
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), sigterm_as_keyboard_interrupt():
        os.kill(os.getpid(), signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) is before


def test_checkpoint_without_resume_is_refused():
    """--checkpoint on train.py without --resume is an error naming --resume."""
    with pytest.raises(SystemExit, match="--resume"):
        main(["--task", "Isaac-Cartpole-Direct-v0", "--checkpoint", "latest"])


def test_unknown_task_lists_registered_tasks():
    """An unknown --task exits with the list of registered tasks."""
    with pytest.raises(SystemExit, match="Isaac-Cartpole-Direct-v0"):
        main(["--task", "Isaac-Nope-v0", "--device", "cpu"])


def test_distributed_outside_torchrun_is_refused(monkeypatch):
    """--distributed without torchrun's LOCAL_RANK says to launch with torchrun."""
    monkeypatch.delenv("LOCAL_RANK", raising=False)
    with pytest.raises(SystemExit, match="torchrun"):
        main(["--task", "Isaac-Cartpole-Direct-v0", "--distributed"])


@pytest.mark.parametrize("arg", [["--num_envs", "0"], ["--max_iterations", "-5"]])
def test_non_positive_counts_are_refused(arg, capsys):
    """--num_envs 0 or --max_iterations -5 stop at argument parsing with 'must be at least 1'."""
    with pytest.raises(SystemExit):
        main(["--task", "Isaac-Cartpole-Direct-v0", *arg])
    assert "must be at least 1" in capsys.readouterr().err
