"""Configurations of the objectives a Newton IK problem minimizes."""

from __future__ import annotations

from dataclasses import MISSING
from typing import Literal

from isaaclab.utils import configclass


@configclass
class NewtonIKPoseObjectiveCfg:
    """Track the pose (or only the position) of a frame fixed to one body.

    The solver gets a position objective and, for ``command_type="pose"``, a rotation objective on the frame
    ``body_offset_pos``/``body_offset_rot`` in the body ``body_name``. Targets are expressed in the IK model's
    frame, which for :class:`~isaaclab_newton.envs.mdp.actions.NewtonInverseKinematicsAction` is the robot's
    root frame. The command fields (``command_type``, ``use_relative_mode``, ``scale``, ``offset``) define how
    the action term turns its slice of the action into a target.
    """

    body_name: str = MISSING
    """Name of the body carrying the tracked frame."""

    name: str | None = None
    """Key of the objective in :attr:`NewtonIKSolver.objectives_by_name`; ``None`` uses :attr:`body_name`."""

    body_offset_pos: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Position of the tracked frame in the body frame [m]."""

    body_offset_rot: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)
    """Orientation of the tracked frame in the body frame, quaternion ``(x, y, z, w)``."""

    position_weight: float = 1.0
    """Weight of the position residual [1/m] (the residual is ``weight * error``)."""

    rotation_weight: float = 1.0
    """Weight of the rotation residual [1/rad]; unused for ``command_type="position"``."""

    command_type: Literal["position", "pose"] = "pose"
    """Target kind: ``"position"`` (orientation free) or ``"pose"`` (position and orientation)."""

    use_relative_mode: bool = False
    """Commands are deltas from the frame's current pose (position [m], axis-angle [rad]) instead of absolute
    targets (position [m], quaternion ``(x, y, z, w)``)."""

    scale: float | tuple[float, ...] = 1.0
    """Scale applied to this objective's slice of the action (one value, or one per command entry)."""

    offset: float | tuple[float, ...] = 0.0
    """Offset added to the scaled slice of the action, in command units."""


@configclass
class NewtonIKJointLimitObjectiveCfg:
    """Penalize joint positions outside their limits (zero inside, linear outside)."""

    weight: float = 0.1
    """Weight of each limit-violation residual [1/m or 1/rad]."""

    name: str = "joint_limits"
    """Key of the objective in :attr:`NewtonIKSolver.objectives_by_name`."""
