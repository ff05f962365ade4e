"""Newton IK objectives built from their configurations, with target buffers the caller writes in place."""

from __future__ import annotations

import newton
import newton.ik
import numpy as np
import warp as wp

from .newton_ik_objectives_cfg import NewtonIKJointLimitObjectiveCfg, NewtonIKPoseObjectiveCfg


class NewtonIKPoseObjective:
    """Position (and, for pose commands, rotation) objective on a frame fixed to one body.

    Args:
        cfg: The objective's configuration.
        link_index: Index of ``cfg.body_name`` in the IK model.
        num_envs: Number of IK problems (one target each).
        device: Device of the target buffers.
    """

    def __init__(self, cfg: NewtonIKPoseObjectiveCfg, *, link_index: int, num_envs: int, device: wp.DeviceLike):
        self.cfg = cfg
        self.name = cfg.name or cfg.body_name
        self.link_index = link_index
        self.target_positions = wp.zeros(num_envs, dtype=wp.vec3, device=device)
        """Target positions of the frame [m], shape (num_envs,)."""
        identity = np.tile(np.array([0.0, 0.0, 0.0, 1.0], dtype=np.float32), (num_envs, 1))
        self.target_rotations = wp.array(identity, dtype=wp.vec4, device=device)
        """Target orientations of the frame, quaternions ``(x, y, z, w)``, shape (num_envs,)."""
        self.target_positions_torch = wp.to_torch(self.target_positions)
        """Zero-copy torch view of :attr:`target_positions`, shape (num_envs, 3)."""
        self.target_rotations_torch = wp.to_torch(self.target_rotations)
        """Zero-copy torch view of :attr:`target_rotations`, shape (num_envs, 4)."""
        self.position_objective = newton.ik.IKObjectivePosition(
            link_index, wp.vec3(*cfg.body_offset_pos), self.target_positions, weight=cfg.position_weight
        )
        self.rotation_objective = (
            newton.ik.IKObjectiveRotation(
                link_index, wp.quat(*cfg.body_offset_rot), self.target_rotations, weight=cfg.rotation_weight
            )
            if cfg.command_type == "pose"
            else None
        )

    @property
    def newton_objectives(self) -> list[newton.ik.IKObjective]:
        """The Newton objectives this objective adds to the solver."""
        if self.rotation_objective is None:
            return [self.position_objective]
        return [self.position_objective, self.rotation_objective]


class NewtonIKJointLimitObjective:
    """Joint-limit objective over the IK model's joint limits.

    Args:
        cfg: The objective's configuration.
        model: The IK model (its ``joint_limit_lower``/``joint_limit_upper`` are read by reference).
    """

    def __init__(self, cfg: NewtonIKJointLimitObjectiveCfg, *, model: newton.Model):
        self.cfg = cfg
        self.name = cfg.name
        self.limit_objective = newton.ik.IKObjectiveJointLimit(
            model.joint_limit_lower, model.joint_limit_upper, weight=cfg.weight
        )

    @property
    def newton_objectives(self) -> list[newton.ik.IKObjective]:
        """The Newton objectives this objective adds to the solver."""
        return [self.limit_objective]
