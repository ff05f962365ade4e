"""Actuator groups reset by env mask: delayed PD groups redraw delays and clear history only where the mask is set."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE

NUM_ENVS = 4
MAX_DELAY = 6


@pytest.fixture(scope="module")
def delayed_cartpoles():
    """Four cartpoles: the cart on a delayed PD actuator (1-6 steps), the pole on an index-only custom PD group."""
    from isaaclab.actuators import DelayedPDActuatorCfg, IdealPDActuator, IdealPDActuatorCfg
    from isaaclab.assets import ArticulationCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.utils import configclass, replace

    from isaaclab_contrib.tasks.cartpole.robot_cfg import CARTPOLE_CFG
    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg

    class CountingPD(IdealPDActuator):
        """An ideal PD group with per-env state of its own: resets counted per env."""

        def reset(self, env_ids):
            if not hasattr(self, "resets"):
                self.resets = torch.zeros(self._num_envs, dtype=torch.int64, device=TEST_DEVICE)
            self.resets[env_ids] += 1

    robot_cfg = replace(CARTPOLE_CFG, prim_path="{ENV_REGEX_NS}/Robot")
    robot_cfg.actuators = {
        "cart": DelayedPDActuatorCfg(
            joint_names_expr=["slider_to_cart"], stiffness=0.0, damping=10.0, min_delay=1, max_delay=MAX_DELAY
        ),
        "pole": IdealPDActuatorCfg(
            class_type=CountingPD, joint_names_expr=["cart_to_pole"], stiffness=0.0, damping=0.0
        ),
    }

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        robot: ArticulationCfg = robot_cfg

    SimulationContext.clear_instance()
    sim_cfg = SimulationCfg(
        dt=1 / 240, device=TEST_DEVICE, physics=NewtonCfg(solver_cfg=MJWarpSolverCfg()), use_newton_actuators=False
    )
    sim = SimulationContext(sim_cfg)
    scene = InteractiveScene(SceneCfg(num_envs=NUM_ENVS, env_spacing=3.0))
    sim.reset()
    yield sim, scene, scene["robot"]
    SimulationContext.clear_instance()


def test_index_only_groups_are_named(delayed_cartpoles):
    """The custom group with its own reset is reported as index-only; the delayed PD group is not."""
    _, _, robot = delayed_cartpoles
    assert robot.actuator_groups_reset_by_index() == ["pole"]


def test_mask_reset_of_env_2_redraws_its_delay_and_keeps_the_others(delayed_cartpoles, monkeypatch):
    """A mask reset of env 2 redraws its delays in [1, 6] and clears its history, by mask; envs 0, 1, 3 keep theirs."""
    sim, scene, robot = delayed_cartpoles
    cart = robot.actuators["cart"]
    for _ in range(3):
        scene.write_data_to_sim()
        sim.step(render=False)
        scene.update(sim.get_physics_dt())
    buffers = cart._delay_buffers  # private: the delay buffers under test
    lags_before = [b.time_lags.clone() for b in buffers]
    pushes_before = [b.num_pushes.clone() for b in buffers]
    assert all((p > 0).all() for p in pushes_before)
    mask = torch.tensor([False, False, True, False], device=TEST_DEVICE)
    torch.manual_seed(3)
    monkeypatch.setattr(cart, "reset", lambda env_ids: pytest.fail(f"delayed group reset by index {env_ids}"))
    robot.reset(env_mask=mask)
    keep = ~mask
    for b, lags, pushes in zip(buffers, lags_before, pushes_before, strict=True):
        assert torch.equal(b.time_lags[keep], lags[keep]) and torch.equal(b.num_pushes[keep], pushes[keep])
        assert b.num_pushes[2] == 0 and 1 <= int(b.time_lags[2]) <= MAX_DELAY
    assert len({int(b.time_lags[2]) for b in buffers}) == 1, "one delay per env for the three command buffers"
    assert robot.actuators["pole"].resets.tolist() == [0, 0, 1, 0]


def test_mlp_groups_are_named_as_rebinding_their_state(delayed_cartpoles):
    """An MLP actuator network group (its compute rolls its history into new tensors) is named; PD groups are not."""
    from types import SimpleNamespace

    from isaaclab.actuators import ActuatorNetMLP

    from isaaclab_newton.assets.articulation.actuator_resets import groups_rebinding_state

    _, _, robot = delayed_cartpoles
    assert robot.actuator_groups_rebinding_state() == []
    mlp = object.__new__(ActuatorNetMLP)  # the class is what is looked at; no network file needed
    # private: the actuator groups under test
    collection = SimpleNamespace(_groups={**robot.actuators._groups, "legs": mlp})
    assert groups_rebinding_state(collection) == ["legs"]
