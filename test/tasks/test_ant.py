"""Ant on Newton: the floating-base robot on the ground, root writes, and the Isaac-Ant-Direct-v0 task."""

from __future__ import annotations

import importlib.util

import pytest
import torch
from conftest import TEST_DEVICE, step_scene

GRAVITY = 9.81  # [m/s^2]


@pytest.fixture(scope="module")
def ants(scene_factory):
    """16 MJCF ants on a friction-1 ground plane, MuJoCo Warp, dt 1/120 s."""
    from isaaclab.assets import ArticulationCfg, AssetBaseCfg
    from isaaclab.scene import InteractiveSceneCfg
    from isaaclab.utils import configclass, replace

    from isaaclab_contrib.tasks.ant.ant_direct_env_cfg import ANT_PHYSICS
    from isaaclab_contrib.tasks.ant.robot_cfg import ANT_CFG
    from isaaclab_newton.sim import GroundPlaneCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg(static_friction=1.0))
        robot: ArticulationCfg = replace(ANT_CFG, prim_path="{ENV_REGEX_NS}/Robot")

    sim, scene = scene_factory(
        SceneCfg(num_envs=16, env_spacing=5.0), physics=ANT_PHYSICS.physics(), dt=1 / 120, device=TEST_DEVICE
    )
    return sim, scene, scene["robot"]


def test_ant_steps_300_with_random_efforts(ants):
    """300 steps of random joint efforts (15 N m gear) keep 16 ants finite and above the ground."""
    sim, scene, robot = ants
    assert not robot.is_fixed_base and robot.num_joints == 8 and robot.num_bodies == 9
    generator = torch.Generator().manual_seed(0)
    for _ in range(30):
        effort = 15.0 * (2.0 * torch.rand((16, 8), generator=generator).to(TEST_DEVICE) - 1.0)
        robot.actuators.target_command.set_effort_index(value=effort)
        step_scene(sim, scene, 10)
        assert torch.isfinite(robot.data.joint_pos.torch).all()
        assert torch.isfinite(robot.data.root_state_w.torch).all()
    assert (robot.data.root_link_pos_w.torch[:, 2] > 0.1).all()


def test_floating_root_writes_give_ballistic_flight(ants):
    """A root sent from 3 m at v_z = 1 m/s flies ballistically: z = 3 + t - g t (t + dt) / 2 (symplectic Euler)."""
    sim, scene, robot = ants
    robot.actuators.target_command.set_effort_index(value=torch.zeros(16, 8, device=TEST_DEVICE))
    robot.reset()
    pose = robot.data.default_root_pose.torch.clone()
    pose[:, :3] += scene.env_origins
    pose[:, 2] = 3.0
    vel = torch.zeros(16, 6, device=TEST_DEVICE)
    vel[:, 2] = 1.0
    robot.write_root_pose_to_sim_index(root_pose=pose)
    robot.write_root_velocity_to_sim_index(root_velocity=vel)
    torch.testing.assert_close(robot.data.root_link_pos_w.torch, pose[:, :3], atol=1e-5, rtol=0)
    steps = 24
    step_scene(sim, scene, steps)
    dt = sim.get_physics_dt()
    t = steps * dt
    expected = 3.0 + t - 0.5 * GRAVITY * t * (t + dt)
    assert robot.data.root_com_pos_w.torch[:, 2].tolist() == pytest.approx([expected] * 16, abs=1e-4)
    assert robot.data.root_com_lin_vel_w.torch[:, 2].tolist() == pytest.approx([1.0 - GRAVITY * t] * 16, abs=1e-4)


@pytest.mark.skipif(
    importlib.util.find_spec("isaaclab_newton.sensors") is None,
    reason="Isaac-Ant-Direct-v0 observes feet wrenches through isaaclab_newton.sensors.joint_wrench",
)
def test_ant_direct_env_steps_300_without_nan():
    """Isaac-Ant-Direct-v0 with 16 envs: observations (16, 60) stay finite over 300 random-action steps."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import make_env

    SimulationContext.clear_instance()
    env = make_env("Isaac-Ant-Direct-v0", num_envs=16, device=TEST_DEVICE)
    try:
        obs, _ = env.reset(seed=0)
        assert obs["policy"].shape == (16, 60)
        generator = torch.Generator().manual_seed(0)
        for _ in range(300):
            obs, reward, *_ = env.step(2.0 * torch.rand((16, 8), generator=generator).to(TEST_DEVICE) - 1.0)
            assert torch.isfinite(obs["policy"]).all() and torch.isfinite(reward).all()
    finally:
        env.close()
        SimulationContext.clear_instance()
