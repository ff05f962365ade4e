"""NewtonInverseKinematicsAction in a manager-based env: pose commands in the root frame become joint targets."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from conftest import TEST_DEVICE
from controllers.ik.arms import ARM6_GOALS, ARM6_MJCF, arm6_model, forward_kinematics, rotation_angle

HAND = 6
"""Index of the hand body in the arm (and in its IK model)."""

START = {"j1": 0.2, "j2": 0.3, "j3": -0.8, "j4": 0.1, "j5": 0.4, "j6": 0.0}
"""Initial joint positions [rad]: a bent, non-singular arm."""


def _env_cfg(asset_path: str, *, objective=None, controller=None, joint_names=("j.*",)):
    """Two arms 2 m apart without gravity, PD 400 N m/rad / 40 N m s/rad, driven by the IK action."""
    from isaaclab.actuators import ImplicitActuatorCfg
    from isaaclab.assets import ArticulationCfg
    from isaaclab.envs import ManagerBasedEnvCfg
    from isaaclab.envs import mdp as core_mdp
    from isaaclab.managers import ObservationGroupCfg, ObservationTermCfg
    from isaaclab.scene import InteractiveSceneCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.controllers.ik import (
        NewtonIKJointLimitObjectiveCfg,
        NewtonIKPoseObjectiveCfg,
        NewtonIKSolverCfg,
    )
    from isaaclab_newton.envs.mdp.actions import NewtonInverseKinematicsActionCfg
    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg
    from isaaclab_newton.sim import MjcfFileCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        robot = ArticulationCfg(
            prim_path="{ENV_REGEX_NS}/Robot",
            spawn=MjcfFileCfg(asset_path=asset_path),
            init_state=ArticulationCfg.InitialStateCfg(joint_pos=START),
            actuators={"arm": ImplicitActuatorCfg(joint_names_expr=["j.*"], stiffness=400.0, damping=40.0)},
        )

    @configclass
    class ActionsCfg:
        arm = NewtonInverseKinematicsActionCfg(
            asset_name="robot",
            joint_names=list(joint_names),
            controller=controller or NewtonIKSolverCfg(iterations=20),
            objectives=[
                objective or NewtonIKPoseObjectiveCfg(body_name="hand"),
                NewtonIKJointLimitObjectiveCfg(weight=0.1),
            ],
        )

    @configclass
    class ObservationsCfg:
        @configclass
        class PolicyCfg(ObservationGroupCfg):
            joint_pos = ObservationTermCfg(func=core_mdp.joint_pos)

        policy: PolicyCfg = PolicyCfg()

    @configclass
    class EnvCfg(ManagerBasedEnvCfg):
        scene = SceneCfg(num_envs=2, env_spacing=2.0)
        actions = ActionsCfg()
        observations = ObservationsCfg()

        def __post_init__(self):
            self.decimation = 2
            self.sim.dt = 1.0 / 120.0
            self.sim.device = TEST_DEVICE
            self.sim.gravity = (0.0, 0.0, 0.0)
            self.sim.physics = NewtonCfg(solver_cfg=MJWarpSolverCfg())

    return EnvCfg()


@pytest.fixture(scope="module")
def arm_file(tmp_path_factory):
    """The 6-DOF arm MJCF on disk."""
    path = tmp_path_factory.mktemp("arm") / "arm6.xml"
    path.write_text(ARM6_MJCF)
    return str(path)


@pytest.fixture
def make_env(arm_file):
    """Factory for the two-arm env; closed after the test."""
    from isaaclab.envs import ManagerBasedEnv

    envs = []

    def factory(**kwargs):
        envs.append(ManagerBasedEnv(_env_cfg(arm_file, **kwargs)))
        return envs[-1]

    yield factory
    for env in envs:
        env.close()


def _hand_pose_b(robot) -> torch.Tensor:
    from isaaclab.utils.math import subtract_frame_transforms

    data = robot.data
    pos, quat = subtract_frame_transforms(
        data.root_pos_w.torch, data.root_quat_w.torch, data.body_pos_w.torch[:, HAND], data.body_quat_w.torch[:, HAND]
    )
    return torch.cat((pos, quat), dim=-1)


def test_absolute_pose_command_brings_hand_to_target(make_env):
    """An absolute root-frame pose (FK of a known configuration) is reached in both envs to 2 mm / 0.01 rad."""
    env = make_env()
    robot = env.scene["robot"]
    goal = torch.from_numpy(forward_kinematics(arm6_model(), ARM6_GOALS[:1], HAND)).repeat(2, 1)
    env.reset()
    for _ in range(120):
        env.step(goal.to(env.device))
    hand = _hand_pose_b(robot).cpu().numpy()
    assert np.abs(hand[:, :3] - goal[:, :3].numpy()).max() < 2e-3
    assert rotation_angle(hand[:, 3:], goal[:, 3:].numpy()).max() < 1e-2
    assert not np.allclose(*robot.data.root_pos_w.torch.cpu().numpy())


def test_relative_command_targets_offset_from_current_pose(make_env):
    """A relative -5 cm x / 0.1 rad z command writes joint targets whose FK is the current pose moved by it."""
    from isaaclab.utils.math import apply_delta_pose

    from isaaclab_newton.controllers.ik import NewtonIKPoseObjectiveCfg

    env = make_env(objective=NewtonIKPoseObjectiveCfg(body_name="hand", use_relative_mode=True, scale=0.1))
    robot = env.scene["robot"]
    env.reset()
    term = env.action_manager.get_term("arm")
    current = _hand_pose_b(robot).cpu()
    action = torch.tensor([[-0.5, 0.0, 0.0, 0.0, 0.0, 1.0]]).repeat(2, 1)
    expected_pos, expected_quat = apply_delta_pose(current[:, :3], current[:, 3:], 0.1 * action)
    term.process_actions(action.to(env.device))
    term.apply_actions()
    targets = robot.actuators.target_command.position.torch.cpu().numpy()
    reached = forward_kinematics(arm6_model(), targets, HAND)
    assert np.abs(reached[:, :3] - expected_pos.numpy()).max() < 1e-4
    assert rotation_angle(reached[:, 3:], expected_quat.numpy()).max() < 1e-3


def test_unknown_body_name_raises_at_build(make_env):
    """A pose objective on a body the robot lacks raises ValueError naming the field and the robot's bodies."""
    from isaaclab_newton.controllers.ik import NewtonIKPoseObjectiveCfg

    with pytest.raises(ValueError, match=r"body_name 'gripper' matches 0 bodies of 'robot'.*'hand'"):
        make_env(objective=NewtonIKPoseObjectiveCfg(body_name="gripper"))


def test_scale_of_wrong_length_raises_at_build(make_env):
    """A 3-entry scale on a 7-entry absolute pose command raises ValueError naming both lengths."""
    from isaaclab_newton.controllers.ik import NewtonIKPoseObjectiveCfg

    with pytest.raises(ValueError, match=r"scale of 'hand' has 3 entries; its 'pose' command.*has 7"):
        make_env(objective=NewtonIKPoseObjectiveCfg(body_name="hand", scale=(1.0, 1.0, 1.0)))


def test_unselected_joints_keep_their_measured_positions(make_env):
    """With joint_names j1-j5, the LM solution holds j6 at its measured 0.0 rad and writes only j1-j5 targets."""
    env = make_env(joint_names=("j[1-5]",))
    robot = env.scene["robot"]
    env.reset()
    term = env.action_manager.get_term("arm")
    goal = torch.from_numpy(forward_kinematics(arm6_model(), ARM6_GOALS[:1], HAND)).repeat(2, 1)
    term.process_actions(goal.to(env.device))
    term.apply_actions()
    solution = term.solver.solution.numpy()
    assert np.array_equal(solution[:, 5], robot.data.joint_pos.torch[:, 5].cpu().numpy())
    assert not np.allclose(solution[:, :5], robot.data.joint_pos.torch[:, :5].cpu().numpy())
    assert term.action_dim == 7


def test_lbfgs_with_some_joints_selected_raises_at_build(make_env):
    """L-BFGS cannot hold unselected joints: selecting j1-j5 with optimizer='lbfgs' raises ValueError."""
    from isaaclab_newton.controllers.ik import NewtonIKSolverCfg

    with pytest.raises(ValueError, match=r"selects 5 of 6 joints; holding the others needs controller.optimizer='lm'"):
        make_env(joint_names=("j[1-5]",), controller=NewtonIKSolverCfg(optimizer="lbfgs"))


def test_displaced_pose_matches_core_delta_pose_including_no_rotation():
    """The device-only relative pose equals core's apply_delta_pose, zero rotation vectors included."""
    from isaaclab.utils.math import apply_delta_pose, normalize

    from isaaclab_newton.envs.mdp.actions.newton_ik_actions import displaced_pose

    generator = torch.Generator().manual_seed(0)
    pos = torch.rand((5, 3), generator=generator)
    quat = normalize(torch.rand((5, 4), generator=generator) - 0.5)
    delta = torch.rand((5, 6), generator=generator) - 0.5
    delta[0, 3:] = 0.0
    got_pos, got_quat = displaced_pose(pos, quat, delta)
    want_pos, want_quat = apply_delta_pose(pos, quat, delta)
    torch.testing.assert_close(got_pos, want_pos)
    torch.testing.assert_close(got_quat, want_quat, rtol=1e-6, atol=1e-6)


def test_ik_is_solved_once_per_env_step(make_env):
    """With decimation 2, one env step solves the IK once (in process_actions) and writes its targets twice."""
    env = make_env()
    env.reset()
    term = env.action_manager.get_term("arm")
    goal = torch.from_numpy(forward_kinematics(arm6_model(), ARM6_GOALS[:1], HAND)).repeat(2, 1).to(env.device)
    solves, solve = [], term.solver.solve
    term.solver.solve = lambda seed: solves.append(1) or solve(seed)
    writes, apply = [], term.apply_actions
    term.apply_actions = lambda: writes.append(1) or apply()
    env.step(goal)
    assert (len(solves), len(writes)) == (1, env.cfg.decimation) == (1, 2)
