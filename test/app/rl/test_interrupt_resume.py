"""Ctrl-C / SIGTERM before, during and after the first training iteration leave a run that --resume continues."""

from __future__ import annotations

import csv
import os
import signal

import pytest
from conftest import TEST_DEVICE

TASK = "Isaac-Cartpole-Direct-v0"
STEPS_PER_ITERATION = 32
"""``num_steps_per_env`` of the cartpole agent cfg: env steps of one iteration's rollout."""


@pytest.fixture(autouse=True)
def _sigint_raises():
    """SIGINT raises KeyboardInterrupt, as in a terminal, also when a background shell started the suite with it
    ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _train(log_root, run_name: str, *extra: str):
    from isaaclab_contrib.app.rl.train import main

    args = [
        "--task",
        TASK,
        "--num_envs",
        "4",
        "--device",
        TEST_DEVICE,
        "--log_root",
        str(log_root),
        "--run_name",
        run_name,
    ]
    return main([*args, *extra])


def _iterations(run_dir) -> list[int]:
    return [int(row["iteration"]) for row in _rows(run_dir)]


def _rows(run_dir) -> list[dict[str, str]]:
    with open(run_dir / "progress.csv") as f:
        return list(csv.DictReader(f))


def _tensorboard_steps(run_dir, tag: str = "Loss/learning_rate") -> list[int]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(run_dir))
    events.Reload()
    return [event.step for event in events.Scalars(tag)]


def _signal_at_env_step(monkeypatch, step: int, signum: int) -> None:
    """Send ``signum`` to this process when the rsl-rl wrapper takes env step ``step`` (0-based)."""
    from isaaclab_rl.rsl_rl import RslRlVecEnvWrapper

    original = RslRlVecEnvWrapper.step
    calls = [0]

    def step_then_signal(self, actions):
        if calls[0] == step:
            os.kill(os.getpid(), signum)
        calls[0] += 1
        return original(self, actions)

    monkeypatch.setattr(RslRlVecEnvWrapper, "step", step_then_signal)


def _signal_before_rollout(monkeypatch, signum: int) -> None:
    """Send ``signum`` while train.py writes the run's configs (the runner exists, no env step has run)."""
    import isaaclab_contrib.app.rl.train as train_module

    def dump_then_signal(path, data):
        os.kill(os.getpid(), signum)

    monkeypatch.setattr(train_module, "dump_yaml", dump_then_signal)


@pytest.mark.parametrize(
    ("point", "finished"),
    [("before", 0), ("during", 0), ("after", 1)],
    ids=["before-first-iteration", "during-first-iteration", "after-first-iteration"],
)
def test_interrupted_run_resumes_where_it_stopped(point, finished, tmp_path, monkeypatch):
    """An interrupt leaves a checkpoint; --resume trains the next unfinished iteration, numbered after the last."""
    if point == "before":
        _signal_before_rollout(monkeypatch, signal.SIGTERM)
    elif point == "during":
        _signal_at_env_step(monkeypatch, 5, signal.SIGINT)
    else:
        _signal_at_env_step(monkeypatch, STEPS_PER_ITERATION + 5, signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):  # raised again once the checkpoint is saved: the script exits 130/143
        _train(tmp_path, "first", "--max_iterations", "3")
    monkeypatch.undo()
    (first,) = (tmp_path / "rsl_rl").glob("*/*_first")
    checkpoints = sorted(first.glob("model_*.pt"))
    assert checkpoints == [first / f"model_{max(finished - 1, 0)}.pt"]
    assert (_iterations(first) if (first / "progress.csv").is_file() else []) == list(range(finished))

    resumed = _train(tmp_path, "resumed", "--max_iterations", "1", "--resume", "--checkpoint", str(checkpoints[0]))
    assert _iterations(resumed) == [finished]
    assert (resumed / f"model_{finished}.pt").is_file()


def test_resume_from_final_checkpoint_continues_numbering(tmp_path, capsys):
    """A run resumed from rsl-rl's final model_1.pt numbers rows, TensorBoard steps and lines from iteration 2 on.

    Its step and time totals (rsl-rl's ``tot_timesteps`` / ``tot_time``, the step of TensorBoard's ``.../time``
    tags) continue from the first run's last row.
    """
    first = _train(tmp_path, "first", "--max_iterations", "2")
    assert _iterations(first) == [0, 1] and _tensorboard_steps(first) == [0, 1]
    capsys.readouterr()
    resumed = _train(
        tmp_path, "resumed", "--max_iterations", "2", "--resume", "--checkpoint", str(first / "model_1.pt")
    )
    assert _iterations(resumed) == [2, 3]
    assert _tensorboard_steps(resumed) == [2, 3]
    assert (resumed / "model_3.pt").is_file()
    steps = 4 * STEPS_PER_ITERATION
    assert [int(row["env_steps"]) for row in _rows(first)] == [steps, 2 * steps]
    assert [int(row["env_steps"]) for row in _rows(resumed)] == [3 * steps, 4 * steps]
    first_s = float(_rows(first)[-1]["training_s"])
    assert float(_rows(resumed)[0]["training_s"]) > first_s
    out = capsys.readouterr().out
    assert "iteration 3/4" in out and "iteration 4/4" in out and "iteration 1/" not in out
