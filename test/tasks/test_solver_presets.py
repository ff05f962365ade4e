"""Every solver preset a task offers stays finite and bounded under random actions (16 envs, 300 steps, CPU)."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE

from isaaclab_contrib.tasks.ant.ant_direct_env_cfg import ANT_PHYSICS
from isaaclab_contrib.tasks.cartpole.physics_cfg import CARTPOLE_PHYSICS
from isaaclab_contrib.tasks.humanoid.humanoid_direct_env_cfg import HUMANOID_PHYSICS

TASKS = {
    "cartpole": "Isaac-Cartpole-Direct-v0",
    "ant": "Isaac-Ant-Direct-v0",
    "humanoid": "Isaac-Humanoid-Direct-v0",
}
PRESETS = {"cartpole": CARTPOLE_PHYSICS, "ant": ANT_PHYSICS, "humanoid": HUMANOID_PHYSICS}
MAX_ABS_OBS = 100.0
"""Bound on every observation entry: MuJoCo Warp peaks at 39 (humanoid feet wrenches), Featherstone at 63 (ant feet
wrenches from penalty-contact impacts); kinematic entries stay below 20 on both."""
MAX_TORSO_HEIGHT = {"ant": 1.5, "humanoid": 2.0}
"""Torso height [m] (observation 0) no locomotion robot reaches unless thrown by its contacts."""

PAIRS = [(family, solver) for family, presets in PRESETS.items() for solver in presets.names]


@pytest.mark.parametrize(("family", "solver"), PAIRS, ids=[f"{f}-{s}" for f, s in PAIRS])
def test_preset_stays_finite_and_bounded(family, solver):
    """300 random-action steps in [-1, 1] on 16 envs: no non-finite world, |obs| < 100, torso below its bound."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import make_env

    SimulationContext.clear_instance()
    env = make_env(TASKS[family], num_envs=16, device=TEST_DEVICE, solver=solver)
    try:
        env.reset(seed=0)
        num_actions = env.unwrapped.single_action_space.shape[0]
        generator = torch.Generator().manual_seed(0)
        worst = 0.0
        for step in range(300):
            action = 2.0 * torch.rand((16, num_actions), generator=generator).to(TEST_DEVICE) - 1.0
            obs, reward, _, _, extras = env.step(action)
            policy = obs["policy"]
            assert int(extras["nan_envs"]) == 0, f"non-finite world at step {step}"
            assert torch.isfinite(policy).all() and torch.isfinite(reward).all()
            worst = max(worst, float(policy.abs().max()))
            if family in MAX_TORSO_HEIGHT:
                assert policy[:, 0].max() < MAX_TORSO_HEIGHT[family], f"robot thrown up at step {step}"
        assert worst < MAX_ABS_OBS
    finally:
        env.close()
        SimulationContext.clear_instance()


@pytest.mark.parametrize("family", ["ant", "humanoid"])
def test_xpbd_not_offered_for_locomotion(family):
    """Asking the ant or humanoid for XPBD raises ValueError naming the reason and the offered solvers."""
    from isaaclab_contrib.app.env_factory import load_env_cfg

    with pytest.raises(ValueError, match=r"not offered for the .* tasks: .*armature.*\['mjwarp', 'featherstone'\]"):
        load_env_cfg(TASKS[family], solver="xpbd")
