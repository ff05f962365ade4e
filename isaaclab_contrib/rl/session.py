"""Build what a training or playback run needs: the task's configs with CLI overrides, the env, the runner."""

from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass

import gymnasium as gym
import torch
import warp as wp
from isaaclab_rl.rsl_rl import (
    RslRlOnPolicyRunnerCfg,
    RslRlVecEnvWrapper,
    check_rsl_rl_version,
    create_rsl_rl_runner,
    handle_deprecated_rsl_rl_cfg,
)
from rsl_rl.runners import OnPolicyRunner


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


def resolve_placement(args: argparse.Namespace) -> Placement:
    """Device and rank from ``--device`` / ``--distributed`` (one process per GPU, ``cuda:$LOCAL_RANK``).

    Raises:
        SystemExit: If ``--distributed`` is given without CUDA or outside ``torchrun``, or with a ``--device``
            other than the rank's GPU.
    """
    if not getattr(args, "distributed", False):
        return Placement(device=args.device or ("cuda:0" if torch.cuda.is_available() else "cpu"))
    if "LOCAL_RANK" not in os.environ:
        raise SystemExit("--distributed needs torchrun: torchrun --nproc_per_node <gpus> train.py ... --distributed")
    if not torch.cuda.is_available():
        raise SystemExit("--distributed trains one process per GPU through NCCL (rsl-rl multi-GPU); no CUDA here.")
    local_rank = int(os.environ["LOCAL_RANK"])
    device = f"cuda:{local_rank}"
    if args.device not in (None, device):
        raise SystemExit(f"--distributed puts rank {local_rank} on {device}; drop --device {args.device}.")
    return Placement(device=device, rank=int(os.environ.get("RANK", "0")), world_size=int(os.environ["WORLD_SIZE"]))


def load_task_cfgs(task: str, presets: tuple[str, ...] = ()) -> tuple[object, RslRlOnPolicyRunnerCfg]:
    """The env cfg and rsl-rl agent cfg ``task`` registers (``env_cfg_entry_point``, ``rsl_rl_cfg_entry_point``).

    Versioned ids (``Isaac-Ant-Direct-v0``) come from :mod:`isaaclab_contrib.tasks`; other ids from upstream's
    ``isaaclab_tasks`` (one registry per process), whose configs resolve ``presets`` (e.g. ``("depth",)``) the way
    upstream's scripts do.

    Raises:
        SystemExit: If the task is unknown or registers no rsl-rl agent, naming the registered tasks; if presets
            are given for a task of :mod:`isaaclab_contrib.tasks`.
    """
    if re.search(r"-v[0-9]+$", task) is None:
        return _load_upstream_task_cfgs(task, presets)
    if presets:
        raise SystemExit(f"presets={','.join(presets)} apply to isaaclab_tasks tasks (ids without -v0), not {task!r}.")
    import isaaclab_contrib.tasks  # noqa: F401  (registers the tasks)
    from isaaclab_contrib.tasks.registry import load_agent_cfg, load_env_cfg

    if task not in gym.registry:
        ours = sorted(name for name in gym.registry if name.startswith("Isaac-"))
        raise SystemExit(f"Unknown task {task!r}; registered tasks: {ours}.")
    try:
        return load_env_cfg(task), load_agent_cfg(task, "rsl_rl")
    except KeyError as err:
        raise SystemExit(str(err.args[0])) from err


def _load_upstream_task_cfgs(task: str, presets: tuple[str, ...]) -> tuple[object, RslRlOnPolicyRunnerCfg]:
    """Env and rsl-rl agent cfgs of an ``isaaclab_tasks`` task, with ``presets`` resolved."""
    import isaaclab_tasks  # noqa: F401  (registers upstream's tasks)
    from isaaclab_tasks.utils.hydra import resolve_presets
    from isaaclab_tasks.utils.parse_cfg import load_cfg_from_registry

    if task not in gym.registry:
        raise SystemExit(f"Unknown task {task!r}; isaaclab_tasks registers e.g. Isaac-Cartpole-Camera-Direct.")
    try:
        env_cfg = load_cfg_from_registry(task, "env_cfg_entry_point")
        agent_cfg = load_cfg_from_registry(task, "rsl_rl_cfg_entry_point")
    except ValueError as err:
        raise SystemExit(f"{task!r}: {err}") from err
    return resolve_presets(env_cfg, presets), resolve_presets(agent_cfg, presets)


def apply_overrides(env_cfg, agent_cfg: RslRlOnPolicyRunnerCfg, args: argparse.Namespace, placement: Placement):
    """Apply the CLI's env count, device and seed to both cfgs (each rank gets its own seed); returns ``agent_cfg``.

    The agent cfg is migrated to the installed rsl-rl's format (Isaac Lab's ``handle_deprecated_rsl_rl_cfg``).
    """
    if args.num_envs is not None:
        env_cfg.scene.num_envs = args.num_envs
    env_cfg.sim.device = placement.device
    agent_cfg.device = placement.device
    if args.seed is not None:
        agent_cfg.seed = args.seed
    agent_cfg.seed += placement.rank
    env_cfg.seed = agent_cfg.seed
    if getattr(args, "experiment_name", None):
        agent_cfg.experiment_name = args.experiment_name
    return handle_deprecated_rsl_rl_cfg(agent_cfg, check_rsl_rl_version())


def make_env(task: str, env_cfg, *, verbose: bool = False) -> gym.Env:
    """Build the registered env ``task`` with ``env_cfg``; Warp's per-module load lines only with ``verbose``."""
    wp.config.quiet = not verbose
    return gym.make(task, cfg=env_cfg)


def make_runner(env: gym.Env, agent_cfg: RslRlOnPolicyRunnerCfg, log_dir: str | None) -> OnPolicyRunner:
    """Wrap ``env`` for rsl-rl (Isaac Lab's wrapper, actions clipped as the agent cfg says) and build its runner."""
    wrapped = RslRlVecEnvWrapper(env, clip_actions=agent_cfg.clip_actions)
    return create_rsl_rl_runner(wrapped, agent_cfg, log_dir=log_dir)
