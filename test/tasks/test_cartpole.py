"""Cartpole tasks on Newton: 16 envs step 300 times without NaN, with Isaac Lab's observation shape."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE


@pytest.mark.parametrize("task", ["Isaac-Cartpole-Direct-v0", "Isaac-Cartpole-v0"])
def test_cartpole_steps_300_without_nan(task):
    """300 env steps with random actions keep observations finite and shaped (16, 4)."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import make_env

    SimulationContext.clear_instance()
    env = make_env(task, num_envs=16, device=TEST_DEVICE)
    try:
        obs, _ = env.reset(seed=0)
        assert obs["policy"].shape == (16, 4)
        assert (obs["policy"].std(dim=0) > 0.05).all(), "reset must randomize cart/pole positions and velocities"
        generator = torch.Generator().manual_seed(0)
        for _ in range(300):
            action = 2.0 * torch.rand((16, 1), generator=generator).to(TEST_DEVICE) - 1.0
            obs, reward, terminated, truncated, _ = env.step(action)
            assert torch.isfinite(obs["policy"]).all()
            assert torch.isfinite(reward).all()
        assert obs["policy"].shape == (16, 4)
    finally:
        env.close()
        SimulationContext.clear_instance()


@pytest.mark.parametrize(
    ("solver", "manager"), [("xpbd", "NewtonXPBDManager"), ("featherstone", "NewtonFeatherstoneManager")]
)
def test_cartpole_direct_runs_on_selected_solver(solver, manager):
    """make_env's solver selects that preset's manager; 50 steps stay finite."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import make_env

    SimulationContext.clear_instance()
    env = make_env("Isaac-Cartpole-Direct-v0", num_envs=4, device=TEST_DEVICE, solver=solver)
    try:
        assert SimulationContext.instance().physics_manager.__name__ == manager
        env.reset()
        for _ in range(50):
            obs, *_ = env.step(torch.zeros(4, 1, device=TEST_DEVICE))
        assert torch.isfinite(obs["policy"]).all()
    finally:
        env.close()
        SimulationContext.clear_instance()


def test_unknown_solver_is_rejected():
    """An unknown solver name fails with the offered ones in the message."""
    from isaaclab_contrib.tasks.cartpole.physics_cfg import CARTPOLE_PHYSICS

    with pytest.raises(ValueError, match=r"'bullet' is not offered.*\['mjwarp', 'xpbd', 'featherstone'\]"):
        CARTPOLE_PHYSICS.physics("bullet")
