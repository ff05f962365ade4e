"""Asset writes reject wrong shapes and dtypes with errors naming the field, never broadcasting or asserting."""

from __future__ import annotations

import pytest
import torch
import warp as wp
from conftest import TEST_DEVICE


@pytest.fixture(scope="module")
def robot():
    """Two cartpoles (2 joints, 3 bodies each) on MuJoCo Warp, CPU."""
    from isaaclab.assets import ArticulationCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.utils import configclass, replace

    from isaaclab_contrib.tasks.cartpole.robot_cfg import CARTPOLE_CFG
    from isaaclab_newton.physics import NewtonCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        robot: ArticulationCfg = replace(CARTPOLE_CFG, prim_path="{ENV_REGEX_NS}/Robot")

    SimulationContext.clear_instance()
    sim = SimulationContext(SimulationCfg(dt=1 / 240, device=TEST_DEVICE, physics=NewtonCfg()))
    scene = InteractiveScene(SceneCfg(num_envs=2, env_spacing=3.0))
    sim.reset()
    yield scene["robot"]
    SimulationContext.clear_instance()


@pytest.mark.parametrize("shape", [(2, 1), (2,), (1, 2), (2, 2, 1)])
def test_joint_position_wrong_shape_raises(robot, shape):
    """A joint position of shape (2, 1), (2,), (1, 2) or (2, 2, 1) into (2 envs, 2 joints) raises ValueError."""
    with pytest.raises(ValueError, match=r"'position' must have shape \(2, 2\)"):
        robot.write_joint_position_to_sim_index(position=torch.zeros(shape, device=TEST_DEVICE))


def test_joint_velocity_mask_needs_full_size(robot):
    """A mask write of a (1, 2) velocity (selection-sized, not full-sized) raises ValueError naming 'velocity'."""
    mask = wp.array([True, False], dtype=wp.bool, device=TEST_DEVICE)
    with pytest.raises(ValueError, match="'velocity' must have shape"):
        robot.write_joint_velocity_to_sim_mask(velocity=torch.zeros(1, 2, device=TEST_DEVICE), env_mask=mask)


@pytest.mark.parametrize(
    "mask",
    [
        torch.tensor([True], device=TEST_DEVICE),
        torch.tensor([[True], [False]], device=TEST_DEVICE),
        torch.tensor([1, 0], dtype=torch.int32, device=TEST_DEVICE),
    ],
    ids=["short", "column", "int32"],
)
def test_root_pose_env_mask_must_be_full_size_bool(robot, mask):
    """A root-pose mask write with a (1,), (2, 1) or int32 env_mask for 2 envs raises ValueError naming env_mask."""
    pose = robot.data.root_link_pose_w.torch.clone()
    with pytest.raises(ValueError, match=r"env_mask must be a bool mask of shape \(2,\)"):
        robot.write_root_pose_to_sim_mask(root_pose=pose, env_mask=mask)


@pytest.mark.parametrize(
    "ids",
    [torch.tensor([True, False], device=TEST_DEVICE), torch.tensor([0.0, 1.0], device=TEST_DEVICE)],
    ids=["bool", "float"],
)
def test_env_ids_must_be_integers(robot, ids):
    """env_ids of dtype bool or float raise TypeError pointing to the mask variant (no silent cast to rows)."""
    with pytest.raises(TypeError, match="ids must be integer indices.*_mask variant"):
        robot.write_joint_position_to_sim_index(position=torch.zeros(2, 2, device=TEST_DEVICE), env_ids=ids)


def test_joint_mask_must_cover_every_joint(robot):
    """A joint mask of one entry for the cartpole's 2 joints raises ValueError naming joint_mask."""
    env_mask = torch.tensor([True, True], device=TEST_DEVICE)
    with pytest.raises(ValueError, match=r"joint_mask must be a bool mask of shape \(2,\)"):
        robot.write_joint_position_to_sim_mask(
            position=torch.zeros(2, 2, device=TEST_DEVICE),
            env_mask=env_mask,
            joint_mask=torch.tensor([True], device=TEST_DEVICE),
        )


def test_joint_state_float64_raises(robot):
    """A float64 joint position raises TypeError naming the dtype and the fix (.float())."""
    with pytest.raises(TypeError, match=r"'position' has dtype torch.float64.*position.float\(\)"):
        robot.write_joint_state_to_sim_index(
            position=torch.zeros(2, 2, dtype=torch.float64, device=TEST_DEVICE),
            velocity=torch.zeros(2, 2, device=TEST_DEVICE),
        )


def test_joint_property_wrong_shape_raises(robot):
    """A stiffness of shape (2,) for 2 envs x 1 joint raises ValueError naming 'stiffness'."""
    with pytest.raises(ValueError, match="'stiffness' must have shape"):
        robot.write_joint_stiffness_to_sim_index(stiffness=torch.zeros(2, device=TEST_DEVICE), joint_ids=[0])


def test_joint_position_limits_need_trailing_pair(robot):
    """Position limits of shape (2, 2) instead of (2, 2, 2) raise ValueError naming 'limits'."""
    with pytest.raises(ValueError, match=r"'limits' must have shape \(2, 2, 2\)"):
        robot.write_joint_position_limit_to_sim_index(limits=torch.zeros(2, 2, device=TEST_DEVICE))


def test_root_pose_wrong_shape_raises(robot):
    """A (2, 6) root pose raises ValueError naming 'root_pose'."""
    with pytest.raises(ValueError, match=r"'root_pose' must have shape \(2, 7\)"):
        robot.write_root_pose_to_sim_index(root_pose=torch.zeros(2, 6, device=TEST_DEVICE))


def test_root_velocity_scalar_raises(robot):
    """A scalar root velocity is refused (TypeError): root states have no scalar fill."""
    with pytest.raises(TypeError, match="'root_velocity'.*scalar"):
        robot.write_root_velocity_to_sim_index(root_velocity=0.0)


def test_root_state_wrong_width_raises(robot):
    """A (2, 12) root state raises ValueError naming 'root_state' and the required (2, 13)."""
    with pytest.raises(ValueError, match=r"'root_state' must have shape \(2, 13\)"):
        robot.write_root_state_to_sim(torch.zeros(2, 12, device=TEST_DEVICE))


def test_position_target_wrong_shape_raises(robot):
    """A (2, 1) position target for all joints raises ValueError (core's path, no assert)."""
    with pytest.raises(ValueError, match="'target' must have shape"):
        robot.actuators.target_command.set_position_index(value=torch.zeros(2, 1, device=TEST_DEVICE))


def test_effort_target_checked_without_debug(robot):
    """With core's __debug__-driven check off (as under python -O), a (2,) effort still raises ValueError."""
    robot._check_shapes = False  # private: the shape-check switch under test
    try:
        with pytest.raises(ValueError, match="'target' must have shape"):
            robot.actuators.target_command.set_effort_index(value=torch.zeros(2, device=TEST_DEVICE))
    finally:
        robot._check_shapes = True  # private: the shape-check switch under test


def test_effort_target_wrong_warp_dtype_raises(robot):
    """A float64 Warp effort target raises TypeError naming the dtype."""
    with pytest.raises(TypeError, match="float64"):
        robot.actuators.target_command.set_effort_index(value=wp.zeros((2, 2), dtype=wp.float64, device=TEST_DEVICE))


def test_wrench_wrong_shape_raises(robot):
    """Forces of shape (2, 3) instead of (2 envs, 3 bodies, 3) raise ValueError naming 'forces'."""
    with pytest.raises(ValueError, match=r"'forces' must have shape \(2, 3, 3\)"):
        robot.permanent_wrench_composer.set_forces_and_torques_index(forces=torch.zeros(2, 3, device=TEST_DEVICE))


def test_wrench_mask_needs_full_size(robot):
    """Mask-written torques of shape (1, 3, 3) raise ValueError naming 'torques'."""
    with pytest.raises(ValueError, match="'torques' must have shape"):
        robot.instantaneous_wrench_composer.add_forces_and_torques_mask(
            torques=torch.zeros(1, 3, 3, device=TEST_DEVICE)
        )
