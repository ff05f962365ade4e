"""Shared argument parsing and environment construction of the environment scripts."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from isaaclab_contrib.app.args import check_task, default_device, device_arg, positive_int

if TYPE_CHECKING:
    import gymnasium as gym

    from isaaclab_contrib.app.console import CompileNotice


def make_parser(description: str) -> argparse.ArgumentParser:
    """Isaac Lab's script arguments: ``--task``, ``--num_envs``, ``--device``, ``--headless``, ``--seed``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--task", type=str, required=True, help="Task name, e.g. Isaac-Cartpole-Direct-v0.")
    parser.add_argument(
        "--num_envs", type=positive_int, default=None, help="Number of environments (default: the task's)."
    )
    parser.add_argument(
        "--device", type=device_arg, default=None, help="cpu or cuda:<index> (default: cuda:0 if present)."
    )
    parser.add_argument("--headless", action="store_true", help="Run without a viewer (always true here).")
    parser.add_argument("--seed", type=int, default=42, help="Environment seed (default: 42).")
    parser.add_argument("--steps", type=positive_int, default=500, help="Environment steps to run.")
    parser.add_argument(
        "--physics",
        type=str,
        default="newton_mjwarp",
        help="Physics preset of an isaaclab_tasks config (newton_mjwarp, newton_kamino, ...); ours have none.",
    )
    parser.add_argument("--verbose", action="store_true", help="Also print Warp's module loads and Isaac Lab's setup.")
    return parser


def parse_args(description: str) -> argparse.Namespace:
    """Parse and check the arguments (task name included) before torch, Warp or Newton are imported."""
    args = make_parser(description).parse_args()
    check_task(args.task, upstream=True)
    args.device = args.device or default_device()
    return args


def make_env(args: argparse.Namespace) -> tuple[gym.Env, CompileNotice]:
    """Load the task's cfg (ours, else Isaac Lab's ``isaaclab_tasks``), apply the CLI overrides and build the env.

    Returns the env and the compile notice (:func:`~isaaclab_contrib.app.console.configure_output`) to report after
    the first step.

    Presets of an ``isaaclab_tasks`` config are resolved with ``args.physics`` (e.g. ``newton_mjwarp``).
    """
    import gymnasium as gym

    import isaaclab_contrib.tasks  # noqa: F401  (registers the tasks)
    from isaaclab_contrib.app.console import configure_output, held_prints

    notice = configure_output(verbose=args.verbose)
    from isaaclab_contrib.upstream.registry import load_env_cfg, register_isaaclab_tasks

    spec = args.task
    if args.task in gym.registry:
        cfg = load_env_cfg(args.task)
    else:
        register_isaaclab_tasks()
        from isaaclab_tasks.utils.hydra import resolve_presets

        from isaaclab_contrib.upstream.offline_assets import check_offline_assets

        cfg = resolve_presets(load_env_cfg(args.task), (args.physics,))
        check_offline_assets(args.task, cfg)
        from isaaclab_contrib.upstream.graph_stepped import graph_stepped_spec

        spec = graph_stepped_spec(args.task)
    if args.num_envs is not None:
        cfg.scene.num_envs = args.num_envs
    cfg.sim.device = args.device
    cfg.seed = args.seed
    with held_prints(verbose=args.verbose):
        return gym.make(spec, cfg=cfg), notice
