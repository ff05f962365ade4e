"""Sensors on a cloned robot scene: the ant standing on its feet under PD hold, 4 environments."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from conftest import TEST_DEVICE

G = 9.81  # [m/s^2]
NUM_ENVS = 4


@pytest.fixture(scope="module")
def standing_ants():
    """4 ants holding their default pose with stiff PD drives; contact sensor on the feet, IMU on the torso."""
    from isaaclab.actuators import ImplicitActuatorCfg
    from isaaclab.assets import ArticulationCfg, AssetBaseCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sensors import ContactSensorCfg, ImuCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.utils import configclass, replace

    from isaaclab_contrib.tasks.ant.ant_direct_env_cfg import ANT_PHYSICS
    from isaaclab_contrib.tasks.ant.robot_cfg import ANT_CFG
    from isaaclab_newton.sim import GroundPlaneCfg

    hold = {"hold": ImplicitActuatorCfg(joint_names_expr=[".*"], stiffness=200.0, damping=10.0)}

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg(static_friction=1.0))
        robot: ArticulationCfg = replace(ANT_CFG, prim_path="{ENV_REGEX_NS}/Robot", actuators=hold)
        feet = ContactSensorCfg(prim_path="{ENV_REGEX_NS}/Robot/.*_foot")
        imu = ImuCfg(prim_path="{ENV_REGEX_NS}/Robot/torso")

    SimulationContext.clear_instance()
    sim = SimulationContext(SimulationCfg(dt=1 / 120, device=TEST_DEVICE, physics=ANT_PHYSICS.physics()))
    scene = InteractiveScene(SceneCfg(num_envs=NUM_ENVS, env_spacing=5.0))
    sim.reset()
    robot = scene["robot"]
    feet_force, imu_acc = 0.0, 0.0
    steps, averaged = 360, 120
    for i in range(steps):
        robot.actuators.target_command.set_position_index(value=robot.data.default_joint_pos.torch)
        scene.write_data_to_sim()
        sim.step(render=False)
        scene.update(sim.get_physics_dt())
        if i >= steps - averaged:
            feet_force = feet_force + scene["feet"].data.net_forces_w.torch.cpu().numpy()
            imu_acc = imu_acc + scene["imu"].data.lin_acc_b.torch.cpu().numpy()
    from isaaclab_newton.physics import NewtonManager

    masses = NewtonManager.get_model().body_mass.numpy()
    yield scene, feet_force / averaged, imu_acc / averaged, float(masses.sum()) / NUM_ENVS
    SimulationContext.clear_instance()


def test_feet_contact_forces_sum_to_weight(standing_ants):
    """The four feet carry the ant's whole weight: sum of vertical foot forces = m*g within 2%."""
    scene, feet_force, _, mass = standing_ants
    assert scene["feet"].num_sensors == 4
    vertical = feet_force[:, :, 2].sum(axis=1)
    np.testing.assert_allclose(vertical, mass * G, rtol=0.02)


def test_torso_imu_reads_gravity_reaction(standing_ants):
    """The IMU of the standing torso reads the +g reaction, |a| = g within 2%, mostly along its z axis."""
    _, _, imu_acc, _ = standing_ants
    np.testing.assert_allclose(np.linalg.norm(imu_acc, axis=1), G, rtol=0.02)
    assert (imu_acc[:, 2] > 0.95 * G).all()


def test_contact_data_cleared_on_env_reset(standing_ants):
    """scene.reset(env_ids) clears that environment's foot forces."""
    scene, *_ = standing_ants
    scene["feet"].reset(env_ids=[2])
    forces = scene["feet"]._data._net[0].numpy()  # private: raw buffers: .data would refresh the reset env
    assert np.abs(forces[2]).max() == 0.0 and np.abs(forces[0]).max() > 0.0
    assert torch.isfinite(scene["robot"].data.joint_pos.torch).all()


def _step(scene, steps: int) -> None:
    from isaaclab.sim import SimulationContext

    sim = SimulationContext.instance()
    robot = scene["robot"]
    for _ in range(steps):
        robot.actuators.target_command.set_position_index(value=robot.data.default_joint_pos.torch)
        scene.write_data_to_sim()
        sim.step(render=False)
        scene.update(sim.get_physics_dt())


def test_imu_reading_cleared_by_scene_reset(standing_ants):
    """After scene.reset(env_ids=[1]) the IMU of env 1 reads zero (not its pre-reset +g); env 0 keeps its reading."""
    scene, *_ = standing_ants
    _step(scene, 2)
    before = scene["imu"].data.lin_acc_b.torch.clone()
    assert before[1, 2] > 0.5 * G
    scene.reset(env_ids=[1])
    after = scene["imu"].data.lin_acc_b.torch
    assert after[1].abs().max() == 0.0
    assert torch.equal(after[0], before[0])


def test_contact_forces_read_after_reset_are_cleared(standing_ants):
    """Reading net_forces_w (public data) after scene.reset(env_ids=[3]) gives zeros for env 3, not stale contacts."""
    scene, *_ = standing_ants
    _step(scene, 2)
    assert scene["feet"].data.net_forces_w.torch[3, :, 2].sum() > 0.0
    scene.reset(env_ids=[3])
    assert scene["feet"].data.net_forces_w.torch[3].abs().max() == 0.0
    assert scene["feet"].data.net_forces_w_history.torch[3].abs().max() == 0.0


def test_sensors_read_fresh_state_after_next_step(standing_ants):
    """One physics step after a reset, the reset env's IMU and feet read its new state again (finite, +g, load)."""
    scene, *_ = standing_ants
    scene.reset(env_ids=[0])
    _step(scene, 1)
    imu = scene["imu"].data.lin_acc_b.torch[0]
    assert torch.isfinite(imu).all() and imu.norm() > 0.0
    assert torch.isfinite(scene["feet"].data.net_forces_w.torch[0]).all()
