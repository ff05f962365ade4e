"""One progress line per training iteration, the run's history as CSV, and its learning-curve picture."""

from __future__ import annotations

import csv
import datetime
import math
import statistics
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from rsl_rl.runners import OnPolicyRunner
from rsl_rl.utils.logger import Logger

from ..console import CompileNotice, held_prints


@dataclass(frozen=True)
class IterationRecord:
    """What one training iteration reached.

    Attributes:
        iteration: Learning iteration (rsl-rl's counter, continued across resumes).
        mean_reward: Mean return of the last 100 finished episodes (NaN before the first one ends).
        mean_episode_length: Mean length [env steps] of the last 100 finished episodes (NaN before the first).
        env_steps_per_s: Env-steps (all envs, all ranks) collected per second of the whole iteration.
        collection_s: Wall time of the rollout [s].
        learning_s: Wall time of the policy update [s].
        training_s: Rollout and update time [s] of every iteration up to this one, the runs this one resumed
            included (rsl-rl's ``tot_time``, the step of TensorBoard's ``.../time`` tags).
        env_steps: Env-steps (all envs, all ranks) of every iteration up to this one, resumed runs included.
    """

    iteration: int
    mean_reward: float
    mean_episode_length: float
    env_steps_per_s: float
    collection_s: float
    learning_s: float
    training_s: float
    env_steps: int


class ProgressLogger(Logger):
    """rsl-rl's logger (TensorBoard summaries, checkpoints) that prints one line per iteration and keeps a history.

    rsl-rl's multi-line report per iteration is kept for ``verbose=True``. Only the process that writes logs
    (rank 0) prints and records. Before the first line, ``notice`` reports the kernels compiled during the first
    rollout and update (on a cold Warp cache).
    """

    def __init__(self, *args, verbose: bool = False, notice: CompileNotice | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.verbose = verbose
        self.notice = notice
        self.history: list[IterationRecord] = []

    def continue_totals(self, *, training_s: float, env_steps: int) -> None:
        """Start the run's totals (time tags, step count) where the resumed run's left them (before ``learn``)."""
        self.tot_time = training_s
        self.tot_timesteps = env_steps

    def init_logging_writer(self) -> None:
        """rsl-rl's writer and git-diff snapshot; its lines about the snapshot only with ``verbose``."""
        with held_prints(verbose=self.verbose):
            super().init_logging_writer()

    def log(self, it: int, start_it: int, total_it: int, collect_time: float, learn_time: float, **kwargs) -> None:
        """Write rsl-rl's summaries, then print ``it``'s progress line and append it to :attr:`history`."""
        with held_prints(verbose=self.verbose):
            super().log(it, start_it, total_it, collect_time, learn_time, **kwargs)
        if self.writer is None:
            return
        iteration_s = collect_time + learn_time
        steps = self.cfg["num_steps_per_env"] * self.num_envs * self.gpu_world_size
        record = IterationRecord(
            iteration=it,
            mean_reward=statistics.mean(self.rewbuffer) if self.rewbuffer else math.nan,
            mean_episode_length=statistics.mean(self.lenbuffer) if self.lenbuffer else math.nan,
            env_steps_per_s=steps / iteration_s,
            collection_s=collect_time,
            learning_s=learn_time,
            training_s=self.tot_time,
            env_steps=self.tot_timesteps,
        )
        self.history.append(record)
        if self.notice is not None:
            self.notice.report()
        done = it + 1 - start_it
        this_run_s = sum(r.collection_s + r.learning_s for r in self.history)
        eta = datetime.timedelta(seconds=round(this_run_s / done * (total_it - start_it - done)))
        print(
            f"iteration {it + 1}/{total_it}  mean_reward {record.mean_reward:.2f}"
            f"  mean_episode_length {record.mean_episode_length:.1f}"
            f"  env_steps/s {record.env_steps_per_s:,.0f}  eta {eta}",
            flush=True,
        )


def attach_progress_logger(
    runner: OnPolicyRunner, *, verbose: bool = False, notice: CompileNotice | None = None
) -> ProgressLogger:
    """Replace ``runner``'s logger by a :class:`ProgressLogger` with the same settings (before ``learn``)."""
    old = runner.logger
    logger = ProgressLogger(
        log_dir=old.log_dir,
        cfg=runner.cfg,
        env_cfg=old.env_cfg,
        num_envs=old.num_envs,
        is_distributed=runner.is_distributed,
        gpu_world_size=runner.gpu_world_size,
        gpu_global_rank=runner.gpu_global_rank,
        device=old.device,
        verbose=verbose,
        notice=notice,
    )
    logger.git_status_repos = list(old.git_status_repos)
    runner.logger = logger
    return logger


def write_history_csv(history: list[IterationRecord], path: Path) -> None:
    """Write one row per iteration with the :class:`IterationRecord` fields as columns."""
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=[field.name for field in fields(IterationRecord)])
        writer.writeheader()
        writer.writerows(asdict(record) for record in history)


def write_learning_curve(history: list[IterationRecord], path: Path, *, title: str) -> None:
    """Draw mean reward and mean episode length against iteration into a PNG at ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    iterations = [r.iteration + 1 for r in history]
    fig, (ax_reward, ax_length) = plt.subplots(2, 1, sharex=True, figsize=(7, 5.5))
    ax_reward.plot(iterations, [r.mean_reward for r in history], color="tab:blue")
    ax_reward.set_ylabel("mean reward")
    ax_reward.grid(alpha=0.3)
    ax_length.plot(iterations, [r.mean_episode_length for r in history], color="tab:orange")
    ax_length.set_ylabel("mean episode length [steps]")
    ax_length.set_xlabel("iteration")
    ax_length.grid(alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def final_line(history: list[IterationRecord]) -> str:
    """The last line a training run prints: ``final mean_reward=<v> mean_episode_length=<v> iterations=<n>``.

    Raises:
        ValueError: If no iteration ran.
    """
    if not history:
        raise ValueError("No training iteration ran; nothing to report.")
    last = history[-1]
    return (
        f"final mean_reward={last.mean_reward:.3f} mean_episode_length={last.mean_episode_length:.1f}"
        f" iterations={len(history)}"
    )
