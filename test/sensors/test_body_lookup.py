"""Sensors and assets on the same prim resolve through the scene index and agree on bodies and their order."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import TEST_DEVICE

NUM_ENVS = 3


@pytest.fixture(scope="module")
def ant_with_sensors():
    """3 ants (importer-nested body labels) with a joint wrench sensor, foot contact sensor and torso IMU."""
    from isaaclab.assets import ArticulationCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sensors import ContactSensorCfg, ImuCfg, JointWrenchSensorCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.utils import configclass, replace

    from isaaclab_contrib.tasks.ant.ant_direct_env_cfg import ANT_PHYSICS
    from isaaclab_contrib.tasks.ant.robot_cfg import ANT_CFG

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        robot: ArticulationCfg = replace(ANT_CFG, prim_path="{ENV_REGEX_NS}/Robot")
        wrench = JointWrenchSensorCfg(prim_path="{ENV_REGEX_NS}/Robot")
        feet = ContactSensorCfg(prim_path="{ENV_REGEX_NS}/Robot/.*_foot")
        imu = ImuCfg(prim_path="{ENV_REGEX_NS}/Robot/torso")

    SimulationContext.clear_instance()
    sim = SimulationContext(SimulationCfg(dt=1 / 120, device=TEST_DEVICE, physics=ANT_PHYSICS.physics()))
    scene = InteractiveScene(SceneCfg(num_envs=NUM_ENVS, env_spacing=5.0))
    sim.reset()
    yield scene
    SimulationContext.clear_instance()


def _asset_bodies(robot) -> np.ndarray:
    return robot._binding.body_indices.cpu().numpy()  # private: the asset's rows in Newton's model, no public read


def test_subtree_sensor_reads_the_asset_bodies_in_asset_order(ant_with_sensors):
    """The joint wrench sensor on the robot prim reports the articulation's bodies, same names, same order."""
    scene = ant_with_sensors
    robot, wrench = scene["robot"], scene["wrench"]
    assert wrench.body_names == robot.body_names
    np.testing.assert_array_equal(wrench._bodies.numpy(), _asset_bodies(robot))  # private: the body lookup under test


def test_contact_sensor_feet_are_the_asset_feet(ant_with_sensors):
    """The contact sensor's feet are the articulation's ``.*_foot`` bodies, in the articulation's order."""
    scene = ant_with_sensors
    robot, feet = scene["robot"], scene["feet"]
    ids, names = robot.find_bodies(".*_foot")
    assert len(ids) == 4
    assert feet.body_names == names
    # private: the body lookup under test
    np.testing.assert_array_equal(feet._bodies.numpy(), _asset_bodies(robot)[:, ids])


def test_imu_body_is_the_asset_torso(ant_with_sensors):
    """The IMU on ``Robot/torso`` sits on the articulation's torso body in every env."""
    scene = ant_with_sensors
    robot, imu = scene["robot"], scene["imu"]
    ids, _ = robot.find_bodies("torso")
    # private: the body lookup under test
    np.testing.assert_array_equal(imu._bodies.numpy(), _asset_bodies(robot)[:, ids[0]])
