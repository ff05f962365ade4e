"""Train a registered task with rsl-rl: ``scripts/reinforcement_learning/rsl_rl/train.py`` calls :func:`main`."""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import torch
from isaaclab.utils.io import dump_yaml

from .cli import train_parser
from .progress import attach_progress_logger, final_line, write_history_csv, write_learning_curve
from .recording import RECORDERS
from .runs import new_run_dir, resolve_checkpoint
from .session import apply_overrides, load_task_cfgs, make_env, make_runner, resolve_placement


@contextlib.contextmanager
def sigterm_as_keyboard_interrupt() -> Iterator[None]:
    """Turn SIGTERM (``timeout``, a job scheduler) into ``KeyboardInterrupt`` so an ended run keeps its results."""

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: list[str] | None = None) -> Path | None:
    """Train ``--task`` and write its run folder; returns that folder on the logging rank (``None`` elsewhere).

    The run folder ``<log_root>/rsl_rl/<experiment>/<YYYY-MM-DD_HH-MM-SS>[_<run_name>]/`` holds rsl-rl's
    checkpoints (``model_<n>.pt``) and TensorBoard summaries, ``params/env.yaml`` and ``params/agent.yaml``,
    ``progress.csv`` and ``learning_curve.png``. Ctrl-C or SIGTERM ends training early but still saves a checkpoint
    and writes the history, the curve and the final line for the iterations that ran.
    """
    args = train_parser().parse_args(argv)
    if args.checkpoint is not None and not args.resume:
        raise SystemExit("--checkpoint only applies with --resume (train.py) or to play.py.")
    placement = resolve_placement(args)
    env_cfg, agent_cfg = load_task_cfgs(args.task, args.presets)
    agent_cfg = apply_overrides(env_cfg, agent_cfg, args, placement)
    if args.max_iterations is not None:
        agent_cfg.max_iterations = args.max_iterations
    if args.run_name:
        agent_cfg.run_name = args.run_name
    resume_from = None
    if args.resume:
        spec = args.checkpoint or "latest"
        resume_from = resolve_checkpoint(spec, agent_cfg.experiment_name, log_root=args.log_root)

    run_dir = new_run_dir(agent_cfg.experiment_name, run_name=args.run_name, log_root=args.log_root)
    log_dir = str(run_dir) if placement.writes_logs else None
    env = make_env(args.task, env_cfg, verbose=args.verbose)
    if args.video and placement.writes_logs:
        env = RECORDERS[args.video_format](
            env,
            run_dir / "videos" / "train",
            length=args.video_length,
            interval=args.video_interval,
            num_worlds=args.video_num_envs,
        )
    try:
        runner = make_runner(env, agent_cfg, log_dir)
        progress = attach_progress_logger(runner, verbose=args.verbose)
        runner.add_git_repo_to_log(__file__)
        if resume_from is not None:
            print(f"[INFO] resuming from {resume_from}")
            runner.load(str(resume_from), map_location=placement.device)
        if placement.writes_logs:
            dump_yaml(str(run_dir / "params" / "env.yaml"), env_cfg)
            dump_yaml(str(run_dir / "params" / "agent.yaml"), agent_cfg)
            print(f"[INFO] logging to {run_dir}")
        start = time.perf_counter()
        try:
            with sigterm_as_keyboard_interrupt():
                runner.learn(agent_cfg.max_iterations, init_at_random_ep_len=agent_cfg.init_at_random_ep_len)
        except KeyboardInterrupt:
            print(f"[WARN] interrupted after {len(progress.history)} of {agent_cfg.max_iterations} iterations")
            if placement.writes_logs and progress.history:
                runner.save(str(run_dir / f"model_{runner.current_learning_iteration}.pt"))
                runner.logger.writer.flush()
        elapsed = time.perf_counter() - start
    finally:
        env.close()
        if torch.distributed.is_initialized():
            torch.distributed.destroy_process_group()
    if not placement.writes_logs:
        return None
    write_history_csv(progress.history, run_dir / "progress.csv")
    write_learning_curve(progress.history, run_dir / "learning_curve.png", title=f"{args.task} ({run_dir.name})")
    print(f"[INFO] trained {len(progress.history)} iterations in {elapsed:.1f} s; run folder {run_dir}")
    print(final_line(progress.history))
    return run_dir
