"""Where runs live: ``logs/rsl_rl/<experiment>/<YYYY-MM-DD_HH-MM-SS>[_<run_name>]/`` and the checkpoints inside."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

RUN_NAME_FORMAT = "%Y-%m-%d_%H-%M-%S"
"""Timestamp that starts every run directory's name."""

_CHECKPOINT = re.compile(r"model_(\d+)\.pt")


def experiment_dir(experiment_name: str, *, log_root: str | Path = "logs") -> Path:
    """Directory holding every run of ``experiment_name`` (``<log_root>/rsl_rl/<experiment_name>``)."""
    return Path(log_root).resolve() / "rsl_rl" / experiment_name


def new_run_dir(experiment_name: str, *, run_name: str = "", log_root: str | Path = "logs") -> Path:
    """A fresh run directory ``<experiment>/<timestamp>[_<run_name>]`` (not yet created)."""
    name = datetime.now().strftime(RUN_NAME_FORMAT)
    if run_name:
        name += f"_{run_name}"
    return experiment_dir(experiment_name, log_root=log_root) / name


def checkpoint_iteration(path: Path) -> int:
    """Training iteration a ``model_<n>.pt`` checkpoint was saved at.

    Raises:
        ValueError: If the file name is not ``model_<n>.pt``.
    """
    match = _CHECKPOINT.fullmatch(path.name)
    if match is None:
        raise ValueError(f"{path} is not an rsl-rl checkpoint (expected a file named model_<iteration>.pt).")
    return int(match.group(1))


def latest_checkpoint(run_dir: Path) -> Path:
    """The checkpoint of ``run_dir`` with the highest iteration.

    Raises:
        FileNotFoundError: If the run holds no ``model_<n>.pt``.
    """
    checkpoints = [p for p in run_dir.glob("model_*.pt") if _CHECKPOINT.fullmatch(p.name)]
    if not checkpoints:
        raise FileNotFoundError(f"No model_<n>.pt checkpoint in {run_dir}; train first or pass --checkpoint PATH.")
    return max(checkpoints, key=checkpoint_iteration)


def resolve_checkpoint(spec: str, experiment_name: str, *, log_root: str | Path = "logs") -> Path:
    """Turn ``--checkpoint`` into a file: ``latest`` (newest run's last checkpoint), a run directory or a file.

    Args:
        spec: ``"latest"``, a path to a run directory, or a path to a ``model_<n>.pt`` file.
        experiment_name: Experiment whose runs ``latest`` searches.
        log_root: Folder holding ``rsl_rl/`` (the working directory's ``logs`` by default).

    Raises:
        FileNotFoundError: If nothing matches, with the place that was searched.
    """
    if spec == "latest":
        root = experiment_dir(experiment_name, log_root=log_root)
        runs = sorted((p for p in root.glob("*") if p.is_dir() and any(p.glob("model_*.pt"))), key=lambda p: p.name)
        if not runs:
            raise FileNotFoundError(
                f"No run with a checkpoint under {root}; train the task first or pass --checkpoint PATH."
            )
        return latest_checkpoint(runs[-1])
    path = Path(spec).expanduser().resolve()
    if path.is_dir():
        return latest_checkpoint(path)
    if not path.is_file():
        raise FileNotFoundError(f"--checkpoint {spec!r}: no such file or run directory.")
    checkpoint_iteration(path)
    return path


TASK_FILE = Path("params") / "task.txt"
"""File of a run directory that names the task it trained (written by train.py)."""


def write_task_id(run_dir: Path, task: str) -> None:
    """Record in ``run_dir`` the task it trains, so that play.py can refuse another task's checkpoint by name."""
    path = run_dir / TASK_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{task}\n", encoding="utf-8")


def check_checkpoint_task(checkpoint: Path, task: str) -> None:
    """Refuse ``checkpoint`` when its run trained another task than ``task``.

    Runs written before the task was recorded pass (their checkpoint is checked when it is loaded).

    Raises:
        ValueError: Naming the task the checkpoint was trained on and how to play it.
    """
    path = checkpoint.parent / TASK_FILE
    if not path.is_file():
        return
    trained = path.read_text(encoding="utf-8").strip()
    if trained != task:
        raise ValueError(
            f"{checkpoint} was trained on {trained}, not {task}; play it with --task {trained}, or pass a"
            f" checkpoint of {task}."
        )
