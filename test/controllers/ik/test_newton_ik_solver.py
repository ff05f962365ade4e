"""Newton IK solver: reaches reachable poses, honours joint limits, rejects bad input."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from conftest import TEST_DEVICE

from isaaclab_newton.controllers.ik import (
    NewtonIKJointLimitObjectiveCfg,
    NewtonIKPoseObjectiveCfg,
    NewtonIKSolver,
    NewtonIKSolverCfg,
    build_articulation_ik_model,
)

from .arms import ARM6_GOALS, arm6_model, forward_kinematics, rotation_angle, seeds

HAND = 6
"""Index of the hand body in the arm model."""


@pytest.fixture(scope="module")
def ik_model():
    """The arm's kinematic copy (root frame = world)."""
    model = arm6_model(TEST_DEVICE)
    return build_articulation_ik_model(
        model, np.arange(model.joint_count), np.arange(model.body_count), device=TEST_DEVICE
    )


def _solver(model, objectives, *, num_envs=3, **cfg):
    return NewtonIKSolver(NewtonIKSolverCfg(**cfg), model=model, num_envs=num_envs, objectives=objectives)


def test_ik_model_keeps_joint_order_and_limits(ik_model):
    """The kinematic copy has the arm's 6 coordinates with its limits (j2: +-100 deg) and the hand at index 6."""
    assert ik_model.joint_coord_count == 6
    assert ik_model.joint_limit_upper.numpy()[1] == pytest.approx(np.deg2rad(100.0), rel=1e-6)
    assert ik_model.body_label[HAND].endswith("hand")


def test_pose_objective_reaches_reachable_poses(ik_model):
    """From the zero pose, LM (30 iterations) finds joints whose hand pose matches 3 FK targets to 1e-4 m/rad."""
    goals = forward_kinematics(ik_model, ARM6_GOALS, HAND)
    solver = _solver(ik_model, [NewtonIKPoseObjectiveCfg(body_name="hand")], iterations=30)
    pose = solver.objectives_by_name["hand"]
    pose.target_positions_torch[:] = torch.from_numpy(goals[:, :3])
    pose.target_rotations_torch[:] = torch.from_numpy(goals[:, 3:])
    reached = forward_kinematics(ik_model, solver.solve(seeds(np.zeros((3, 6)), TEST_DEVICE)).numpy(), HAND)
    assert np.abs(reached[:, :3] - goals[:, :3]).max() < 1e-4
    assert rotation_angle(reached[:, 3:], goals[:, 3:]).max() < 1e-4


def test_body_offset_frame_reaches_target(ik_model):
    """A frame 0.1 m along the hand's x axis reaches the FK position of that frame to 1e-4 m."""
    hand = forward_kinematics(ik_model, ARM6_GOALS[:1], HAND)[0]
    rot = torch.tensor(hand[3:])
    tip = hand[:3] + _rotate(rot, torch.tensor([0.1, 0.0, 0.0])).numpy()
    cfg = NewtonIKPoseObjectiveCfg(body_name="hand", body_offset_pos=(0.1, 0.0, 0.0), command_type="position")
    solver = _solver(ik_model, [cfg], num_envs=1, iterations=30)
    solver.objectives_by_name["hand"].target_positions_torch[:] = torch.from_numpy(tip[None])
    q = solver.solve(seeds(np.zeros((1, 6)), TEST_DEVICE)).numpy()
    reached = forward_kinematics(ik_model, q, HAND)[0]
    reached_tip = reached[:3] + _rotate(torch.tensor(reached[3:]), torch.tensor([0.1, 0.0, 0.0])).numpy()
    assert np.linalg.norm(reached_tip - tip) < 1e-4


def test_joint_limit_objective_keeps_joints_inside_limits():
    """j3 limited to +-0.3 rad: a target reached at j3 = 0.8 is solved inside the limit only with the limit term."""
    model = arm6_model(TEST_DEVICE)
    lower, upper = model.joint_limit_lower.numpy(), model.joint_limit_upper.numpy()
    lower[2], upper[2] = -0.3, 0.3
    model.joint_limit_lower.assign(lower)
    model.joint_limit_upper.assign(upper)
    goal = forward_kinematics(model, ARM6_GOALS[1:2], HAND)
    position = NewtonIKPoseObjectiveCfg(body_name="hand", command_type="position")
    limited = NewtonIKJointLimitObjectiveCfg(weight=10.0)
    solutions = []
    for objectives in ([position], [position, limited]):
        solver = _solver(model, objectives, num_envs=1, iterations=50)
        solver.objectives_by_name["hand"].target_positions_torch[:] = torch.from_numpy(goal[:, :3])
        solutions.append(solver.solve(seeds(np.zeros((1, 6)), TEST_DEVICE)).numpy()[0])
    assert solutions[0][2] > 0.5
    assert abs(solutions[1][2]) < 0.3 + 0.01


def test_unknown_body_name_raises(ik_model):
    """A pose objective on a body the model does not have raises ValueError listing the bodies."""
    with pytest.raises(ValueError, match=r"'gripper' matches 0 bodies of the IK model; expected one of \[.*'hand'"):
        _solver(ik_model, [NewtonIKPoseObjectiveCfg(body_name="gripper")])


def test_wrong_seed_shape_raises(ik_model):
    """Seeds of shape (2, 6) for 3 problems raise ValueError naming the expected shape."""
    solver = _solver(ik_model, [NewtonIKPoseObjectiveCfg(body_name="hand")])
    with pytest.raises(ValueError, match=r"IK seeds must be float32 of shape \(3, 6\).*\(2, 6\)"):
        solver.solve(seeds(np.zeros((2, 6)), TEST_DEVICE))


def test_duplicate_objective_names_raise(ik_model):
    """Two pose objectives on one body without distinct names raise ValueError asking for a name."""
    pose = NewtonIKPoseObjectiveCfg(body_name="hand")
    with pytest.raises(ValueError, match="names must be unique"):
        _solver(ik_model, [pose, pose])


def _rotate(quat_xyzw: torch.Tensor, vec: torch.Tensor) -> torch.Tensor:
    from isaaclab.utils.math import quat_apply

    return quat_apply(quat_xyzw[None].float(), vec[None].float())[0]
