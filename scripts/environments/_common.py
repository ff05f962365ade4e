"""Shared argument parsing and environment construction of the environment scripts."""

from __future__ import annotations

import argparse

import gymnasium as gym
import torch


def positive_int(text: str) -> int:
    """``argparse`` type: an integer >= 1 (argparse names the flag in its error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {value}")
    return value


def make_parser(description: str) -> argparse.ArgumentParser:
    """Isaac Lab's script arguments: ``--task``, ``--num_envs``, ``--device``, ``--headless``, ``--seed``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--task", type=str, required=True, help="Task name, e.g. Isaac-Cartpole-Direct-v0.")
    parser.add_argument(
        "--num_envs", type=positive_int, default=None, help="Number of environments (default: the task's)."
    )
    default_device = "cuda:0" if torch.cuda.is_available() else "cpu"
    parser.add_argument("--device", type=str, default=default_device, help="Simulation device, e.g. cpu or cuda:0.")
    parser.add_argument("--headless", action="store_true", help="Run without a viewer (always true here).")
    parser.add_argument("--seed", type=int, default=None, help="Environment seed.")
    parser.add_argument("--steps", type=positive_int, default=500, help="Environment steps to run.")
    parser.add_argument(
        "--physics",
        type=str,
        default="newton_mjwarp",
        help="Physics preset of an isaaclab_tasks config (newton_mjwarp, newton_kamino, ...); ours have none.",
    )
    return parser


def make_env(args: argparse.Namespace) -> gym.Env:
    """Load the task's cfg (ours, else Isaac Lab's ``isaaclab_tasks``), apply the CLI overrides and build the env.

    Presets of an ``isaaclab_tasks`` config are resolved with ``args.physics`` (e.g. ``newton_mjwarp``).
    """
    import isaaclab_contrib.tasks  # noqa: F401  (registers the tasks)
    from isaaclab_contrib.tasks.registry import load_env_cfg

    if args.task in gym.registry:
        cfg = load_env_cfg(args.task)
    else:
        _register_isaaclab_tasks()
        if args.task not in gym.registry:
            raise SystemExit(f"Unknown task {args.task!r}; see scripts/environments/list_envs.py.")
        from isaaclab_tasks.utils.hydra import resolve_presets

        cfg = resolve_presets(load_env_cfg(args.task), (args.physics,))
    if args.num_envs is not None:
        cfg.scene.num_envs = args.num_envs
    cfg.sim.device = args.device
    if args.seed is not None:
        cfg.seed = args.seed
    return gym.make(args.task, cfg=cfg)


def _register_isaaclab_tasks() -> None:
    """Register Isaac Lab's own tasks (``isaaclab_tasks``) in place of ours.

    Our ids (``Isaac-Cartpole-Direct-v0``, ...) are versions of the unversioned upstream ids
    (``Isaac-Cartpole-Direct``), which gymnasium refuses to register next to them; ours are dropped first.
    """
    for task in [t for t, spec in gym.registry.items() if str(spec.entry_point).startswith("isaaclab_contrib.tasks")]:
        del gym.registry[task]
    import isaaclab_tasks  # noqa: F401  (registers the tasks)
