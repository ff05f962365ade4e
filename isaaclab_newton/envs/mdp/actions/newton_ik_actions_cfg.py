"""Configuration of the Newton inverse-kinematics action term."""

from __future__ import annotations

from dataclasses import MISSING
from typing import Any

from isaaclab.managers import ActionTermCfg
from isaaclab.utils import configclass

from ....controllers.ik.newton_ik_objectives_cfg import NewtonIKJointLimitObjectiveCfg, NewtonIKPoseObjectiveCfg
from ....controllers.ik.newton_ik_solver_cfg import NewtonIKSolverCfg


@configclass
class NewtonInverseKinematicsActionCfg(ActionTermCfg):
    """Task-space action solved to joint position targets by Newton's batched IK.

    The action is the concatenation of the command slices of the pose objectives, in order: 3 values for a
    ``"position"`` command, 6 (position delta [m], axis-angle delta [rad]) for a relative ``"pose"`` command and
    7 (position [m], quaternion ``(x, y, z, w)``) for an absolute one, all in the robot's root frame. Each
    slice is scaled and offset by its objective's ``scale``/``offset``. See
    :class:`~isaaclab_newton.envs.mdp.actions.NewtonInverseKinematicsAction`.
    """

    class_type: Any = "{DIR}.newton_ik_actions:NewtonInverseKinematicsAction"

    joint_names: list[str] = MISSING
    """Joint names or regex expressions the IK may move and the action writes position targets to."""

    controller: NewtonIKSolverCfg = NewtonIKSolverCfg()
    """Settings of the batched IK solver."""

    objectives: list[NewtonIKPoseObjectiveCfg | NewtonIKJointLimitObjectiveCfg] = MISSING
    """Objectives of the IK problem; at least one :class:`NewtonIKPoseObjectiveCfg` (it defines the action)."""
