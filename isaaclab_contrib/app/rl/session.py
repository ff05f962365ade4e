"""Build what a training or playback run needs: the task's configs with CLI overrides, the env, the runner."""

from __future__ import annotations

import argparse
import re

import gymnasium as gym
from isaaclab_rl.rsl_rl import (
    RslRlOnPolicyRunnerCfg,
    RslRlVecEnvWrapper,
    check_rsl_rl_version,
    create_rsl_rl_runner,
    handle_deprecated_rsl_rl_cfg,
)
from rsl_rl.runners import OnPolicyRunner

from ..console import held_prints
from .cli import Placement


def load_task_cfgs(task: str, presets: tuple[str, ...] = ()) -> tuple[object, RslRlOnPolicyRunnerCfg]:
    """Env and rsl-rl agent cfgs of ``task``: versioned ids from :mod:`isaaclab_contrib.tasks`, others upstream's.

    Raises:
        SystemExit: If presets are given for a task of :mod:`isaaclab_contrib.tasks`, or a cfg is missing.
    """
    if re.search(r"-v[0-9]+$", task) is None:
        return _load_upstream_task_cfgs(task, presets)
    if presets:
        raise SystemExit(f"presets={','.join(presets)} apply to isaaclab_tasks tasks (ids without -v0), not {task!r}.")
    import isaaclab_contrib.tasks  # noqa: F401  (registers the tasks)
    from isaaclab_contrib.upstream.registry import load_agent_cfg, load_env_cfg

    try:
        return load_env_cfg(task), load_agent_cfg(task, "rsl_rl")
    except KeyError as err:
        raise SystemExit(str(err.args[0])) from err


def _load_upstream_task_cfgs(task: str, presets: tuple[str, ...]) -> tuple[object, RslRlOnPolicyRunnerCfg]:
    """Env and rsl-rl agent cfgs of an ``isaaclab_tasks`` task, with ``presets`` resolved."""
    from isaaclab_contrib.upstream.registry import load_isaaclab_task_cfgs

    try:
        return load_isaaclab_task_cfgs(task, presets)
    except KeyError as err:
        raise SystemExit(str(err.args[0])) from err
    except ValueError as err:
        raise SystemExit(f"{task!r}: {err}") from err


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
    agent_cfg.experiment_name = experiment_name(agent_cfg, args)
    return handle_deprecated_rsl_rl_cfg(agent_cfg, check_rsl_rl_version())


def experiment_name(agent_cfg: RslRlOnPolicyRunnerCfg, args: argparse.Namespace) -> str:
    """``--experiment_name``, else the agent cfg's."""
    return args.experiment_name or agent_cfg.experiment_name


def make_env(task: str, env_cfg, *, verbose: bool = False) -> gym.Env:
    """Build the registered env ``task`` with ``env_cfg``; Isaac Lab's setup prints only with ``verbose``.

    ``isaaclab_tasks``' own ids get the graph-stepped form of their env class where one exists
    (:func:`isaaclab_contrib.upstream.graph_stepped.graph_stepped_spec`).
    """
    spec = task
    if re.search(r"-v[0-9]+$", task) is None:
        from ...upstream.graph_stepped import graph_stepped_spec

        spec = graph_stepped_spec(task)
    with held_prints(verbose=verbose):
        return gym.make(spec, cfg=env_cfg)


def make_runner(
    env: gym.Env, agent_cfg: RslRlOnPolicyRunnerCfg, log_dir: str | None, *, verbose: bool = False
) -> OnPolicyRunner:
    """Wrap ``env`` for rsl-rl (Isaac Lab's wrapper, actions clipped as the agent cfg says) and build its runner.

    rsl-rl's printout of the models is held back unless ``verbose``.
    """
    wrapped = RslRlVecEnvWrapper(env, clip_actions=agent_cfg.clip_actions)
    with held_prints(verbose=verbose):
        return create_rsl_rl_runner(wrapped, agent_cfg, log_dir=log_dir)
