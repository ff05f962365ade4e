"""Checkpoints a run can be resumed from at any point, and the iteration a resumed run continues at.

rsl-rl saves ``model_<n>.pt`` after iteration ``n`` finished (its ``iter`` entry is ``n``), and its runner starts
again at ``iter`` on load, so a resumed run would repeat iteration ``n``. Checkpoints written here also record
``next_iteration`` (in rsl-rl's ``infos``), which is the only way to tell "interrupted before iteration 0
finished" from "iteration 0 finished". :func:`load_resumable` sets the runner to the iteration after the last
finished one either way.
"""

from __future__ import annotations

import csv
from pathlib import Path

from rsl_rl.runners import OnPolicyRunner

NEXT_ITERATION = "next_iteration"
"""Key in a checkpoint's ``infos``: the first iteration a resumed run trains."""


def save_resumable(runner: OnPolicyRunner, run_dir: Path, *, next_iteration: int) -> Path:
    """Save ``runner``'s current policy, optimizer and normalizers for a resume at ``next_iteration``.

    The file is ``model_<n>.pt`` with ``n`` the last finished iteration (``model_0.pt`` when none finished, its
    ``next_iteration`` then 0). The partial rollout or update of an interrupted iteration is not kept: the resumed
    run trains that iteration again from the saved state.

    Returns:
        The checkpoint's path.
    """
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / f"model_{max(next_iteration - 1, 0)}.pt"
    runner.current_learning_iteration = max(next_iteration - 1, 0)
    runner.save(str(path), infos={NEXT_ITERATION: next_iteration})
    return path


def load_resumable(runner: OnPolicyRunner, path: Path, *, device: str) -> int:
    """Load ``path`` into ``runner`` and set it to start at the iteration after the checkpoint's last finished one.

    Returns:
        The first iteration the resumed run trains (0-based, as rsl-rl counts).
    """
    infos = runner.load(str(path), map_location=device)
    if isinstance(infos, dict) and NEXT_ITERATION in infos:
        runner.current_learning_iteration = int(infos[NEXT_ITERATION])
    else:
        runner.current_learning_iteration += 1
    return runner.current_learning_iteration


def resumed_totals(checkpoint: Path, *, next_iteration: int) -> tuple[float, int] | None:
    """Training time [s] and env-steps the checkpoint's run had reached when it saved ``checkpoint``.

    Read from the row of iteration ``next_iteration - 1`` in the run's ``progress.csv`` (its ``training_s`` and
    ``env_steps``), so that a resumed run's TensorBoard time tags and step totals continue without repeats.

    Returns:
        ``(training_s, env_steps)``; ``(0.0, 0)`` when no iteration had finished; ``None`` when the run folder has
        no such row (a run killed without its ``progress.csv``, or one written before these columns existed).
    """
    if next_iteration == 0:
        return 0.0, 0
    path = checkpoint.parent / "progress.csv"
    if not path.is_file():
        return None
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if int(row["iteration"]) == next_iteration - 1 and row.get("training_s") and row.get("env_steps"):
                return float(row["training_s"]), int(row["env_steps"])
    return None
