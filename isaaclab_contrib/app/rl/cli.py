"""Command-line arguments of the rsl-rl scripts, with Isaac Lab's names, checked before anything heavy is imported.

:func:`parse_train_args` and :func:`parse_play_args` refuse a bad ``--task``, count, ``--device``,
``--checkpoint`` path or ``--distributed`` launch in well under 2 s (standard library and gymnasium's registry only);
the scripts import torch, Warp and Newton after them.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

from ..args import non_negative_int, parse_args, positive_int, shared_parser, video_parser, viewer_parser
from ..devices import cuda_device_count
from .runs import check_checkpoint_task, experiment_dir, resolve_checkpoint


@dataclass(frozen=True)
class Placement:
    """Where this process runs: its device and, under ``torchrun``, its rank among ``world_size`` processes."""

    device: str
    rank: int = 0
    world_size: int = 1

    @property
    def writes_logs(self) -> bool:
        """Only rank 0 writes logs, checkpoints, curves and recordings."""
        return self.rank == 0


def train_parser() -> argparse.ArgumentParser:
    """Arguments of ``train.py``: the shared ones, recording, the live viewer, and its own."""
    parser = argparse.ArgumentParser(
        description="Train a task on Newton with rsl-rl's PPO.",
        parents=[shared_parser(), video_parser(), viewer_parser(), _run_parser()],
    )
    parser.add_argument("--max_iterations", type=positive_int, default=None, help="Iterations (default: agent's).")
    parser.add_argument("--run_name", default="", help="Suffix of the run folder's timestamp.")
    parser.add_argument("--resume", action="store_true", help="Start from --checkpoint (default: latest).")
    parser.add_argument(
        "--checkpoint", default=None, help="With --resume: a model_<n>.pt, a run folder, or 'latest' (default)."
    )
    parser.add_argument(
        "--distributed", action="store_true", help="One process per GPU under torchrun (rsl-rl's multi-GPU mode)."
    )
    parser.add_argument(
        "--video_interval", type=non_negative_int, default=2000, help="Env steps between recorded clips (0: one)."
    )
    return parser


def play_parser() -> argparse.ArgumentParser:
    """Arguments of ``play.py``: the shared ones, recording, the live viewer, and its own."""
    parser = argparse.ArgumentParser(
        description="Run, score and export a policy trained with train.py.",
        parents=[shared_parser(), video_parser(), viewer_parser(), _run_parser()],
    )
    parser.add_argument(
        "--checkpoint", default="latest", help="A model_<n>.pt, a run folder, or 'latest' (default): newest run."
    )
    parser.add_argument(
        "--steps", type=positive_int, default=None, help="Env steps to run (default: one full episode)."
    )
    return parser


def _run_parser() -> argparse.ArgumentParser:
    """Where runs live: ``--experiment_name`` and ``--log_root`` (train and play)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--experiment_name", default=None, help="Folder under logs/rsl_rl (default: agent cfg's).")
    parser.add_argument("--log_root", default="logs", help="Folder that holds rsl_rl/<experiment>/ (default: logs).")
    return parser


def place_rank(args: argparse.Namespace) -> None:
    """Under ``--distributed``, put this process on its rank's GPU: ``args.device`` becomes ``cuda:$LOCAL_RANK``.

    The one place a distributed run chooses devices; ``train.py``'s checks run it inside
    :func:`~isaaclab_contrib.app.args.parse_args`, before the default device is filled in. Without ``--distributed``
    it leaves ``args`` as they are.

    Raises:
        SystemExit: If ``--distributed`` is given outside ``torchrun`` or without CUDA, or with a ``--device`` other
            than the rank's GPU.
    """
    if not args.distributed:
        return
    if "LOCAL_RANK" not in os.environ:
        raise SystemExit("--distributed needs torchrun: torchrun --nproc_per_node <gpus> train.py ... --distributed")
    if not cuda_device_count():
        raise SystemExit("--distributed trains one process per GPU through NCCL (rsl-rl multi-GPU); no CUDA here.")
    local_rank = int(os.environ["LOCAL_RANK"])
    device = f"cuda:{local_rank}"
    if args.device not in (None, device):
        raise SystemExit(f"--distributed puts rank {local_rank} on {device}; drop --device {args.device}.")
    args.device = device


def placement(args: argparse.Namespace) -> Placement:
    """This process's :class:`Placement`: the device parse_args resolved, torchrun's rank under ``--distributed``."""
    if not getattr(args, "distributed", False):
        return Placement(device=args.device)
    rank, world_size = int(os.environ.get("RANK", "0")), int(os.environ["WORLD_SIZE"])
    return Placement(device=args.device, rank=rank, world_size=world_size)


def _resolve_checkpoint_arg(args: argparse.Namespace) -> None:
    """Turn ``args.checkpoint`` into the checkpoint file it names, or exit naming what is missing.

    ``latest`` needs the experiment's name: ``--experiment_name``, else the task's agent cfg.
    """
    experiment = args.experiment_name
    runs = experiment_dir("", log_root=args.log_root)
    if args.checkpoint == "latest" and not any(runs.glob("*/*/model_*.pt")):
        raise SystemExit(f"No run with a checkpoint under {runs}; train the task first or pass --checkpoint PATH.")
    if args.checkpoint == "latest" and experiment is None:
        experiment = _agent_experiment_name(args)
    try:
        checkpoint = resolve_checkpoint(args.checkpoint, experiment or "", log_root=args.log_root)
        check_checkpoint_task(checkpoint, args.task)
    except (FileNotFoundError, ValueError) as err:
        raise SystemExit(str(err)) from None
    args.checkpoint = str(checkpoint)


def _agent_experiment_name(args: argparse.Namespace) -> str:
    """The experiment name of the task's rsl-rl agent cfg.

    Ours load only the agent cfg (its config class imports torch and Warp, about a second; nothing of the env).
    ``isaaclab_tasks``' ids load upstream's cfgs with the presets (``import isaaclab_tasks`` takes seconds).
    """
    from ..env_factory import load_agent_cfg

    try:
        return load_agent_cfg(args.task, "rsl_rl", solver=args.solver, presets=args.presets).experiment_name
    except (KeyError, ValueError) as err:
        raise SystemExit(f"{args.task!r}: {err}") from err


def parse_train_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, Placement]:
    """``train.py``'s arguments and placement, every light check done (see the module docstring).

    With ``--resume``, ``args.checkpoint`` becomes the checkpoint file to resume from.

    Raises:
        SystemExit: On any bad argument, with a message that names the fix.
    """
    args = parse_args(train_parser(), argv, agent="rsl_rl", check=_check_train_args)
    return args, placement(args)


def parse_play_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, Placement]:
    """``play.py``'s arguments and placement, every light check done; ``args.checkpoint`` becomes the file to load.

    Raises:
        SystemExit: On any bad argument, with a message that names the fix.
    """
    args = parse_args(play_parser(), argv, agent="rsl_rl", check=_check_play_args)
    return args, placement(args)


def _check_train_args(args: argparse.Namespace) -> None:
    if args.checkpoint is not None and not args.resume:
        raise SystemExit("--checkpoint only applies with --resume (train.py) or to play.py.")
    place_rank(args)
    if args.resume:
        args.checkpoint = args.checkpoint or "latest"
        _resolve_checkpoint_arg(args)


def _check_play_args(args: argparse.Namespace) -> None:
    _resolve_checkpoint_arg(args)
