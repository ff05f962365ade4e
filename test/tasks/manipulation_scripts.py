"""Scripted Cartesian control of the manipulation tasks for tests: the arm action swapped for absolute Newton IK."""

from __future__ import annotations

import math

import torch
from conftest import TEST_DEVICE
from isaaclab.utils.math import quat_from_euler_xyz, quat_mul

from isaaclab_newton.controllers.ik.newton_ik_objectives_cfg import (
    NewtonIKJointLimitObjectiveCfg,
    NewtonIKPoseObjectiveCfg,
)
from isaaclab_newton.controllers.ik.newton_ik_solver_cfg import NewtonIKSolverCfg
from isaaclab_newton.envs.mdp.actions import NewtonInverseKinematicsActionCfg


def _quat(roll: float, pitch: float, yaw: float) -> torch.Tensor:
    one = torch.ones(1)
    return quat_from_euler_xyz(roll * one, pitch * one, yaw * one)[0]


# the finger pads close along panda0_link7's (sin 45, cos 45, 0) axis: a -45 deg turn about z lines them up with x
HAND_DOWN = quat_mul(_quat(math.pi, 0.0, 0.0)[None], _quat(0.0, 0.0, -math.pi / 4)[None])[0]
"""Hand pointing down (-z), the pads closing along world x."""

HAND_FORWARD = quat_mul(_quat(0.0, math.pi / 2, 0.0)[None], _quat(0.0, 0.0, -math.pi / 4)[None])[0]
"""Hand pointing forward (+x), the pads closing along world z."""


def scripted_env(task: str, *, episode_length_s: float = 100.0):
    """One env of ``task`` on the test device, its arm driven by absolute grasp-point poses (Newton IK), its
    startup randomization off (nominal masses, friction and gains)."""
    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env
    from isaaclab_contrib.tasks.manipulation.panda_cfg import PANDA_ARM_JOINTS, PANDA_GRASP_OFFSET, PANDA_HAND_BODY

    cfg = load_env_cfg(task)
    cfg.actions.arm_action = NewtonInverseKinematicsActionCfg(
        asset_name="robot",
        joint_names=[PANDA_ARM_JOINTS],
        controller=NewtonIKSolverCfg(optimizer="lm", jacobian_mode="analytic", iterations=8),
        objectives=[
            NewtonIKPoseObjectiveCfg(body_name=PANDA_HAND_BODY, body_offset_pos=PANDA_GRASP_OFFSET),
            NewtonIKJointLimitObjectiveCfg(weight=0.1),
        ],
    )
    for name, term in list(vars(cfg.events).items()):
        if term is not None and term.mode == "startup":
            setattr(cfg.events, name, None)
    cfg.episode_length_s = episode_length_s
    return make_env(task, cfg=cfg, num_envs=1, device=TEST_DEVICE)


def run_pose(env, position, orientation: torch.Tensor, grip: float, steps: int) -> None:
    """Hold the grasp-point target ``position`` [m] (env frame), ``orientation`` (x, y, z, w) and the gripper
    command ``grip`` (> 0 open, < 0 closed) for ``steps`` env steps."""
    action = torch.cat([torch.as_tensor(position, dtype=torch.float32), orientation, torch.tensor([grip])])
    action = action[None].to(TEST_DEVICE)
    for _ in range(steps):
        env.step(action)
