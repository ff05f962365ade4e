"""Task configurations are checked where the environment is built: bad env counts name scene.num_envs."""

from __future__ import annotations

import pytest
from conftest import TEST_DEVICE


@pytest.mark.parametrize("num_envs", [0, -1, 2.0])
def test_direct_cartpole_rejects_bad_num_envs(num_envs):
    """scene.num_envs of 0, -1 or 2.0 raises ValueError naming the field (not core's ZeroDivisionError)."""
    from isaaclab_contrib.tasks.cartpole.cartpole_direct_env_cfg import CartpoleEnvCfg, make_cartpole_direct_env

    cfg = CartpoleEnvCfg()
    cfg.scene.num_envs = num_envs
    cfg.sim.device = TEST_DEVICE
    with pytest.raises(ValueError, match=r"scene.num_envs must be an integer >= 1"):
        make_cartpole_direct_env(cfg)


def test_manager_cartpole_rejects_zero_num_envs():
    """The manager-based cartpole rejects scene.num_envs = 0 the same way."""
    from isaaclab_contrib.tasks.cartpole.cartpole_manager_env_cfg import CartpoleEnvCfg, make_cartpole_manager_env

    cfg = CartpoleEnvCfg()
    cfg.scene.num_envs = 0
    with pytest.raises(ValueError, match="scene.num_envs"):
        make_cartpole_manager_env(cfg)


@pytest.mark.parametrize("task", ["Isaac-Ant-Direct-v0", "Isaac-Humanoid-Direct-v0"])
def test_locomotion_rejects_negative_num_envs(task):
    """Ant and humanoid reject scene.num_envs = -1 through gym.make."""
    import gymnasium as gym  # the env class's own check: make_env refuses the count before the class sees it

    import isaaclab_contrib.tasks  # noqa: F401
    from isaaclab_contrib.app.env_factory import load_env_cfg

    cfg = load_env_cfg(task)
    cfg.scene.num_envs = -1
    with pytest.raises(ValueError, match="scene.num_envs"):
        gym.make(task, cfg=cfg)
