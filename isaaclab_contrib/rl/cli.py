"""Command-line arguments of the rsl-rl scripts, with Isaac Lab's names, checked where they enter."""

from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """An integer of at least 1 (argparse type)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """An integer of at least 0 (argparse type)."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def preset_token(text: str) -> tuple[str, ...]:
    """``presets=a,b`` -> ``("a", "b")`` (argparse type)."""
    key, sep, value = text.partition("=")
    names = tuple(name for name in value.split(",") if name)
    if key != "presets" or not sep or not names:
        raise argparse.ArgumentTypeError(f"expected presets=NAME[,NAME...], got {text!r}")
    return names


def add_common_args(parser: argparse.ArgumentParser) -> None:
    """``--task --num_envs --device --seed --headless --experiment_name --checkpoint --log_root`` and recording."""
    parser.add_argument("--task", required=True, help="Registered task, e.g. Isaac-Cartpole-Direct-v0.")
    parser.add_argument("--num_envs", type=positive_int, default=None, help="Environments (default: the task's).")
    parser.add_argument("--device", default=None, help="Simulation and policy device (default: cuda:0 if present).")
    parser.add_argument("--seed", type=int, default=None, help="Seed of env and agent (default: the agent cfg's).")
    parser.add_argument("--headless", action="store_true", help="No viewer window (there is none on Newton here).")
    parser.add_argument("--experiment_name", default=None, help="Folder under logs/rsl_rl (default: agent cfg's).")
    parser.add_argument("--log_root", default="logs", help="Folder that holds rsl_rl/<experiment>/ (default: logs).")
    parser.add_argument(
        "--video", action="store_true", help="Record rollouts (MP4 clips by Newton's ray tracer; no display needed)."
    )
    parser.add_argument(
        "--video_format", choices=("mp4", "usd"), default="mp4", help="mp4 (default) or animated USD (Newton's viewer)."
    )
    parser.add_argument("--video_length", type=positive_int, default=200, help="Env steps per recorded clip.")
    parser.add_argument("--video_num_envs", type=positive_int, default=4, help="Environments shown in a clip.")
    parser.add_argument(
        "presets",
        nargs="?",
        type=preset_token,
        default=(),
        metavar="presets=NAME[,NAME...]",
        help="isaaclab_tasks presets (as upstream's scripts take them), e.g. presets=depth.",
    )


def train_parser() -> argparse.ArgumentParser:
    """Arguments of ``train.py``."""
    parser = argparse.ArgumentParser(description="Train a task on Newton with rsl-rl's PPO.")
    add_common_args(parser)
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
    parser.add_argument("--verbose", action="store_true", help="Also print rsl-rl's full report per iteration.")
    return parser


def play_parser() -> argparse.ArgumentParser:
    """Arguments of ``play.py``."""
    parser = argparse.ArgumentParser(description="Run, score and export a policy trained with train.py.")
    add_common_args(parser)
    parser.add_argument(
        "--checkpoint", default="latest", help="A model_<n>.pt, a run folder, or 'latest' (default): newest run."
    )
    parser.add_argument(
        "--steps", type=positive_int, default=None, help="Env steps to run (default: one full episode)."
    )
    return parser
