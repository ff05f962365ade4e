"""The gym entry point of the manipulation tasks: core's manager-based env on Newton, by mask and graph-stepped."""

from __future__ import annotations

from isaaclab_contrib.envs.cfg_checks import check_env_cfg


def make_manipulation_env(cfg, render_mode: str | None = None, **kwargs):
    """Build :class:`~isaaclab_contrib.envs.manager_based_env.ManagerBasedRLEnvOnNewton` with ``cfg``."""
    from isaaclab_contrib.envs.manager_based_env import ManagerBasedRLEnvOnNewton

    check_env_cfg(cfg)
    return ManagerBasedRLEnvOnNewton(cfg, render_mode, **kwargs)
