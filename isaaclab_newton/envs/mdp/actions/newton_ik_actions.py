"""Task-space action term: end-effector pose commands solved to joint position targets by Newton's IK."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import isaaclab.utils.math as math_utils
import numpy as np
import torch
import warp as wp
from isaaclab.managers.action_manager import ActionTerm
from isaaclab.utils import index_fill_

from ....controllers.ik import NewtonIKPoseObjective, NewtonIKSolver, build_articulation_ik_model
from ....controllers.ik.newton_ik_objectives_cfg import NewtonIKPoseObjectiveCfg
from ....physics import NewtonManager

if TYPE_CHECKING:
    from isaaclab.envs import ManagerBasedEnv

    from .newton_ik_actions_cfg import NewtonInverseKinematicsActionCfg


class NewtonInverseKinematicsAction(ActionTerm):
    """Solve end-effector pose commands to joint position targets with Newton's batched IK.

    At construction the term copies the kinematic tree of the robot (env 0's instance) into a single-articulation
    Newton model whose world frame is the robot's root frame, with the articulation's soft joint limits, and
    builds one IK problem per environment. :meth:`process_actions` turns each pose objective's slice of the
    action (scaled and offset) into a target in the root frame: relative commands move the frame's current pose
    (position delta, then the axis-angle delta applied on the left, as Isaac Lab's differential IK does), absolute
    commands replace it; it then seeds the IK with the measured joint positions and solves it, once per env step.
    :meth:`apply_actions` writes that solution of the selected joints as position targets on every physics step of
    the env step. Joints outside ``joint_names`` keep their measured positions in the IK (``optimizer="lm"``).

    Raises:
        ValueError: If a field cannot be honoured: no pose objective, a body name that matches not exactly one
            body, a ``scale``/``offset`` of the wrong length, ``clip`` set, or an ``"lbfgs"``/sampled solver with
            only some joints selected.
    """

    cfg: NewtonInverseKinematicsActionCfg

    def __init__(self, cfg: NewtonInverseKinematicsActionCfg, env: ManagerBasedEnv):
        super().__init__(cfg, env)
        if cfg.clip is not None:
            raise ValueError(
                "NewtonInverseKinematicsActionCfg.clip is not supported: bound the commands with the pose"
                " objectives' scale/offset instead."
            )
        pose_cfgs = [o for o in cfg.objectives if isinstance(o, NewtonIKPoseObjectiveCfg)]
        if not pose_cfgs:
            raise ValueError("NewtonInverseKinematicsActionCfg.objectives needs at least one NewtonIKPoseObjectiveCfg.")
        self._joint_ids, self._joint_names = self._asset.find_joints(cfg.joint_names)
        for pose in pose_cfgs:
            try:
                ids, names = self._asset.find_bodies(pose.body_name)
            except ValueError:
                ids, names = [], []
            if len(ids) != 1:
                raise ValueError(
                    f"NewtonIKPoseObjectiveCfg.body_name {pose.body_name!r} matches {len(ids)} bodies of"
                    f" {cfg.asset_name!r} ({names}); name exactly one of {self._asset.body_names}."
                )

        entities = NewtonManager.get_scene_index().find(self._asset.cfg.prim_path)
        self._ik_model = build_articulation_ik_model(
            NewtonManager.get_model(), entities.indices("joint")[0], entities.indices("body")[0], device=self.device
        )
        limits = self._asset.data.soft_joint_pos_limits.torch[0].to(torch.float32)
        self._ik_model.joint_limit_lower.assign(wp.from_torch(limits[:, 0].contiguous()))
        self._ik_model.joint_limit_upper.assign(wp.from_torch(limits[:, 1].contiguous()))
        self._solver = NewtonIKSolver(
            cfg.controller,
            model=self._ik_model,
            num_envs=self.num_envs,
            objectives=cfg.objectives,
            link_resolver=lambda name: self._asset.find_bodies(name)[0][0],
            joint_dof_mask=self._joint_dof_mask(),
        )
        self._poses: list[NewtonIKPoseObjective] = [
            o for o in self._solver.objectives if isinstance(o, NewtonIKPoseObjective)
        ]

        # body offsets as device tensors, made once: the recorded env step copies nothing from the host
        self._body_offsets = [
            (
                torch.tensor(pose.cfg.body_offset_pos, dtype=torch.float32, device=self.device),
                torch.tensor(pose.cfg.body_offset_rot, dtype=torch.float32, device=self.device),
            )
            for pose in self._poses
        ]
        dims = [_command_dim(p) for p in pose_cfgs]
        self._slices = np.cumsum([0, *dims]).tolist()
        self._raw_actions = torch.zeros(self.num_envs, self._slices[-1], device=self.device)
        self._processed_actions = torch.zeros_like(self._raw_actions)
        self._scale = torch.cat([_per_entry(p, "scale", d, self.device) for p, d in zip(pose_cfgs, dims, strict=True)])
        self._offset = torch.cat(
            [_per_entry(p, "offset", d, self.device) for p, d in zip(pose_cfgs, dims, strict=True)]
        )
        self._seed = torch.zeros(self.num_envs, self._asset.num_joints, device=self.device)
        self._seed_wp = wp.from_torch(self._seed)
        self._solution = wp.to_torch(self._solver.solution)
        self._joint_ids_t = torch.as_tensor(self._joint_ids, dtype=torch.long, device=self.device)
        self._joint_ids_i32 = self._joint_ids_t.to(torch.int32)
        self._joint_ids_wp = wp.from_torch(self._joint_ids_i32)
        self._targets = torch.zeros(self.num_envs, len(self._joint_ids), device=self.device)

    @property
    def action_dim(self) -> int:
        """Total command size over the pose objectives (3, 6 or 7 each)."""
        return self._slices[-1]

    @property
    def raw_actions(self) -> torch.Tensor:
        """Actions as received, shape (num_envs, action_dim)."""
        return self._raw_actions

    @property
    def processed_actions(self) -> torch.Tensor:
        """Scaled and offset actions, shape (num_envs, action_dim)."""
        return self._processed_actions

    @property
    def solver(self) -> NewtonIKSolver:
        """The batched IK solver (its pose objectives hold the current targets in the root frame)."""
        return self._solver

    def process_actions(self, actions: torch.Tensor) -> None:
        """Scale the actions, set each pose objective's target in the root frame and solve the IK for the env step.

        The IK runs once here, seeded with the measured joint positions, and not on each physics step of the env
        step: the targets are poses, not velocities, so a solve converged from the step's first state already names
        the joint positions the drives are to hold until the next action.

        Args:
            actions: Actions, shape (num_envs, action_dim).
        """
        self._raw_actions[:] = actions
        torch.addcmul(self._offset, self._raw_actions, self._scale, out=self._processed_actions)
        for k, pose in enumerate(self._poses):
            command = self._processed_actions[:, self._slices[k] : self._slices[k + 1]]
            pose_cfg = pose.cfg
            if pose_cfg.use_relative_mode:
                current_pos, current_quat = self._frame_pose_b(pose, *self._body_offsets[k])
                if pose_cfg.command_type == "pose":
                    target_pos, target_quat = displaced_pose(current_pos, current_quat, command)
                    pose.target_rotations_torch[:] = target_quat
                else:
                    target_pos = current_pos + command
                pose.target_positions_torch[:] = target_pos
            else:
                pose.target_positions_torch[:] = command[:, :3]
                if pose_cfg.command_type == "pose":
                    pose.target_rotations_torch[:] = math_utils.normalize(command[:, 3:7])
        self._seed[:] = self._asset.data.joint_pos.torch
        self._solver.solve(self._seed_wp)
        torch.index_select(self._solution, 1, self._joint_ids_t, out=self._targets)

    def apply_actions(self) -> None:
        """Write the env step's IK solution of the selected joints as their position targets."""
        self._asset.actuators.target_command.set_position_index(value=self._targets, joint_ids=self._joint_ids_wp)

    def reset(self, env_ids: Sequence[int] | None = None) -> None:
        """Zero the raw actions of ``env_ids`` (all environments for ``None``)."""
        index_fill_(self._raw_actions, env_ids, 0.0)

    def _frame_pose_b(
        self, pose: NewtonIKPoseObjective, offset_pos: torch.Tensor, offset_quat: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Current pose of the objective's frame in the root frame: position [m] (N, 3), quaternion (N, 4).

        Args:
            pose: The pose objective whose link frame is read.
            offset_pos: The frame's offset from its link [m], shape (3,), on the env's device.
            offset_quat: The frame's rotation from its link (``body_offset_rot``), shape (4,), on the env's device.
        """
        data = self._asset.data
        body_id = pose.link_index
        body_pos_b, body_quat_b = math_utils.subtract_frame_transforms(
            data.root_pos_w.torch,
            data.root_quat_w.torch,
            data.body_pos_w.torch[:, body_id],
            data.body_quat_w.torch[:, body_id],
        )
        return math_utils.combine_frame_transforms(
            body_pos_b, body_quat_b, offset_pos.expand_as(body_pos_b), offset_quat.expand_as(body_quat_b)
        )

    def _joint_dof_mask(self) -> wp.array | None:
        """Mask of the IK DOFs the solver may move; ``None`` when every joint is selected."""
        if len(self._joint_ids) == self._asset.num_joints:
            return None
        controller = self.cfg.controller
        if controller.optimizer != "lm" or controller.sampler != "none":
            raise ValueError(
                f"NewtonInverseKinematicsActionCfg.joint_names selects {len(self._joint_ids)} of"
                f" {self._asset.num_joints} joints; holding the others needs controller.optimizer='lm' and"
                f" controller.sampler='none' (got {controller.optimizer!r}, {controller.sampler!r})."
            )
        mask = np.zeros(self._asset.num_joints, dtype=bool)
        mask[self._joint_ids] = True
        return wp.array(mask, dtype=wp.bool, device=self.device)


def displaced_pose(
    pos: torch.Tensor, quat: torch.Tensor, delta: torch.Tensor, *, eps: float = 1.0e-6
) -> tuple[torch.Tensor, torch.Tensor]:
    """A pose moved by ``delta``: a translation [m] and a rotation vector [rad] applied before ``quat``.

    Isaac Lab's relative pose command (what ``isaaclab.utils.math.apply_delta_pose`` computes), made of device
    operations alone so that it can run inside a recorded env step (core's function builds its identity quaternion
    from a host tensor).

    Args:
        pos: Positions [m], shape (N, 3).
        quat: Orientations, quaternions (x, y, z, w), shape (N, 4).
        delta: Translations [m] then rotation vectors [rad], shape (N, 6).
        eps: Rotation angle [rad] below which ``sin(angle / 2) / angle`` is taken as its limit 0.5.

    Returns:
        The moved positions [m] (N, 3) and orientations (N, 4): ``pos + delta[:, :3]`` and ``q(delta[:, 3:]) * quat``.
    """
    rotation = delta[:, 3:6]
    angle = torch.linalg.vector_norm(rotation, dim=1, keepdim=True)
    half = 0.5 * angle
    scale = torch.where(angle > eps, torch.sin(half) / angle.clamp_min(eps), 0.5)
    turn = torch.cat((rotation * scale, torch.cos(half)), dim=-1)
    return pos + delta[:, :3], math_utils.quat_mul(turn, quat)


def _command_dim(cfg: NewtonIKPoseObjectiveCfg) -> int:
    """Number of action entries of one pose objective."""
    if cfg.command_type == "position":
        return 3
    if cfg.command_type == "pose":
        return 6 if cfg.use_relative_mode else 7
    raise ValueError(f"NewtonIKPoseObjectiveCfg.command_type must be 'position' or 'pose'; got {cfg.command_type!r}.")


def _per_entry(cfg: NewtonIKPoseObjectiveCfg, field: str, dim: int, device: str) -> torch.Tensor:
    """``scale`` or ``offset`` of a pose objective as one value per command entry."""
    value = getattr(cfg, field)
    values = [float(value)] * dim if isinstance(value, (int, float)) else [float(v) for v in value]
    if len(values) != dim:
        raise ValueError(
            f"NewtonIKPoseObjectiveCfg.{field} of {cfg.body_name!r} has {len(values)} entries; its"
            f" {cfg.command_type!r} command (use_relative_mode={cfg.use_relative_mode}) has {dim}."
        )
    return torch.tensor(values, device=device)
