"""Train a registered task with rsl-rl: ``scripts/reinforcement_learning/rsl_rl/train.py`` calls :func:`main`."""

from __future__ import annotations

import argparse
import contextlib
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import torch
from isaaclab.utils.io import dump_yaml

from ..console import configure_output
from ..entry import sigterm_as_interrupt
from .checkpoints import load_resumable, resumed_totals, save_resumable
from .cli import Placement, parse_train_args
from .progress import IterationRecord, attach_progress_logger, final_line, write_history_csv, write_learning_curve
from .recording import RECORDERS
from .runs import new_run_dir, write_task_id
from .session import configure_agent, load_task_cfgs, make_runner, make_task_env


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ignore Ctrl-C and SIGTERM in the block (the checkpoint written after an interrupt is not cut short)."""
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def main(argv: list[str] | None = None) -> Path | None:
    """Check the arguments, then train (:func:`train`); the script's entry point."""
    args, placement = parse_train_args(argv)
    return train(args, placement)


def train(args: argparse.Namespace, placement: Placement) -> Path | None:
    """Train ``--task`` and write its run folder; returns that folder on the logging rank (``None`` elsewhere).

    The run folder ``<log_root>/rsl_rl/<experiment>/<YYYY-MM-DD_HH-MM-SS>[_<run_name>]/`` holds rsl-rl's
    checkpoints (``model_<n>.pt``) and TensorBoard summaries, ``params/env.yaml`` and ``params/agent.yaml``,
    ``progress.csv`` and ``learning_curve.png``. Ctrl-C or SIGTERM at any point after the runner exists ends
    training and saves a checkpoint that ``--resume`` continues from (even before the first iteration finished),
    plus the history, the curve and the final line of the iterations that ran, then raises the interrupt again. A
    resumed run continues the iteration numbering of the checkpoint's run.

    Raises:
        KeyboardInterrupt: After saving, when Ctrl-C or SIGTERM (:class:`~isaaclab_contrib.app.entry.Terminated`)
            ended training.
    """
    notice = configure_output(verbose=args.verbose)
    resume_from = Path(args.checkpoint) if args.resume else None
    env_cfg, agent_cfg = load_task_cfgs(args)
    agent_cfg = configure_agent(agent_cfg, args, placement)
    if args.max_iterations is not None:
        agent_cfg.max_iterations = args.max_iterations
    if args.run_name:
        agent_cfg.run_name = args.run_name

    run_dir = new_run_dir(agent_cfg.experiment_name, run_name=args.run_name, log_root=args.log_root)
    log_dir = str(run_dir) if placement.writes_logs else None
    env = make_task_env(args, env_cfg, agent_cfg, placement)
    if args.video and placement.writes_logs:
        env = RECORDERS[args.video_format](
            env,
            run_dir / "videos" / "train",
            length=args.video_length,
            interval=args.video_interval,
            num_worlds=args.video_num_envs,
        )
    start = time.perf_counter()
    interrupt: KeyboardInterrupt | None = None
    try:
        with sigterm_as_interrupt():
            runner = make_runner(env, agent_cfg, log_dir, verbose=args.verbose)
            progress = attach_progress_logger(runner, verbose=args.verbose, notice=notice)
            first_iteration = runner.current_learning_iteration
            try:
                runner.add_git_repo_to_log(__file__)
                if resume_from is not None:
                    with interrupts_held():
                        first_iteration = load_resumable(runner, resume_from, device=placement.device)
                    print(f"[INFO] resuming from {resume_from} at iteration {first_iteration + 1}")
                    totals = resumed_totals(resume_from, next_iteration=first_iteration)
                    if totals is None:
                        history = resume_from.parent / "progress.csv"
                        print(
                            f"[WARN] {history} has no row with iteration={first_iteration - 1}: this run's"
                            " TensorBoard time tags and step totals start at 0"
                        )
                    else:
                        progress.continue_totals(training_s=totals[0], env_steps=totals[1])
                if placement.writes_logs:
                    dump_yaml(str(run_dir / "params" / "env.yaml"), env_cfg)
                    dump_yaml(str(run_dir / "params" / "agent.yaml"), agent_cfg)
                    write_task_id(run_dir, args.task)
                    print(f"[INFO] logging to {run_dir}")
                runner.learn(agent_cfg.max_iterations, init_at_random_ep_len=agent_cfg.init_at_random_ep_len)
            except KeyboardInterrupt as caught:
                interrupt = caught
                with interrupts_held():
                    finished = len(progress.history)
                    print(f"[WARN] interrupted after {finished} of {agent_cfg.max_iterations} iterations")
                    if placement.writes_logs:
                        saved = save_resumable(runner, run_dir, next_iteration=first_iteration + finished)
                        print(f"[INFO] saved {saved}; continue with --resume --checkpoint {saved}")
                        if runner.logger.writer is not None:
                            runner.logger.writer.flush()
        elapsed = time.perf_counter() - start
    finally:
        with interrupts_held():
            env.close()
            if torch.distributed.is_initialized():
                torch.distributed.destroy_process_group()
    notice.report()
    if placement.writes_logs:
        _summarize(progress.history, run_dir, elapsed, task=args.task)
    if interrupt is not None:
        raise interrupt  # everything is saved: the script exits 130 (Ctrl-C) or 143 (SIGTERM)
    return run_dir if placement.writes_logs else None


def _summarize(history: list[IterationRecord], run_dir: Path, elapsed: float, *, task: str) -> None:
    """Write ``progress.csv`` and the learning curve of the iterations that ran; print the final line."""
    write_history_csv(history, run_dir / "progress.csv")
    print(f"[INFO] trained {len(history)} iterations in {elapsed:.1f} s; run folder {run_dir}")
    if not history:
        print("[INFO] no iteration finished; the checkpoint holds the starting policy")
        return
    write_learning_curve(history, run_dir / "learning_curve.png", title=f"{task} ({run_dir.name})")
    print(final_line(history))
