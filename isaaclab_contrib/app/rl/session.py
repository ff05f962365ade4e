"""Build what a training or playback run needs: the task's configs, the env on this process's device, the runner."""

from __future__ import annotations

import argparse

import gymnasium as gym
from isaaclab_rl.rsl_rl import (
    RslRlOnPolicyRunnerCfg,
    RslRlVecEnvWrapper,
    check_rsl_rl_version,
    create_rsl_rl_runner,
    handle_deprecated_rsl_rl_cfg,
)
from rsl_rl.runners import OnPolicyRunner

from ..args import viewer_options
from ..console import held_prints
from ..env_factory import load_agent_cfg, load_env_cfg, make_env
from .cli import Placement


def load_task_cfgs(args: argparse.Namespace) -> tuple[object, RslRlOnPolicyRunnerCfg]:
    """Env and rsl-rl agent cfgs of ``--task`` on ``--solver``, upstream ``presets=...`` resolved.

    Raises:
        SystemExit: If the task does not offer the solver or presets, or a cfg is missing.
    """
    options = {"solver": args.solver, "presets": args.presets}
    try:
        return load_env_cfg(args.task, **options), load_agent_cfg(args.task, "rsl_rl", **options)
    except KeyError as err:
        raise SystemExit(str(err.args[0])) from err
    except ValueError as err:
        raise SystemExit(f"{args.task}: {err}") from err


def configure_agent(agent_cfg: RslRlOnPolicyRunnerCfg, args: argparse.Namespace, placement: Placement):
    """Put the agent on this process's device with its seed (``--seed``, else the cfg's, plus the rank).

    Returns the agent cfg migrated to the installed rsl-rl's format (Isaac Lab's ``handle_deprecated_rsl_rl_cfg``);
    its seed is the env's too (:func:`make_task_env`).
    """
    agent_cfg.device = placement.device
    if args.seed is not None:
        agent_cfg.seed = args.seed
    agent_cfg.seed += placement.rank
    agent_cfg.experiment_name = args.experiment_name or agent_cfg.experiment_name
    return handle_deprecated_rsl_rl_cfg(agent_cfg, check_rsl_rl_version())


def make_task_env(args: argparse.Namespace, env_cfg, agent_cfg: RslRlOnPolicyRunnerCfg, placement: Placement):
    """The env of ``--task`` from ``env_cfg``, on the agent's device and seed (:func:`configure_agent`).

    ``--viewer`` draws it live on rank 0 only.
    """
    return make_env(
        args.task,
        cfg=env_cfg,
        num_envs=args.num_envs,
        device=placement.device,
        seed=agent_cfg.seed,
        viewer=viewer_options(args) if placement.writes_logs else None,
        verbose=args.verbose,
    )


def make_runner(
    env: gym.Env, agent_cfg: RslRlOnPolicyRunnerCfg, log_dir: str | None, *, verbose: bool = False
) -> OnPolicyRunner:
    """Wrap ``env`` for rsl-rl (Isaac Lab's wrapper, actions clipped as the agent cfg says) and build its runner.

    rsl-rl's printout of the models is held back unless ``verbose``.
    """
    wrapped = RslRlVecEnvWrapper(env, clip_actions=agent_cfg.clip_actions)
    with held_prints(verbose=verbose):
        return create_rsl_rl_runner(wrapped, agent_cfg, log_dir=log_dir)
