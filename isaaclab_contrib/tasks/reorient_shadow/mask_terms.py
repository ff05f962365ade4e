"""Mask forms of the upstream reorientation terms that reset by env indices, for the sync-free manager step.

:class:`~isaaclab_contrib.envs.manager_based_env.ManagerBasedRLEnvOnNewton` resets done envs by a bool mask and, on
CUDA, records whole steps into one CUDA graph, but only where every reset path has a mask form. Upstream's Shadow
config has four without one; the config (:mod:`.reorient_shadow_manager_cfg`) swaps in these, which behave the
same:

- :class:`MaskedReorientCommand`: upstream's goal orientation command (resampled on success, success counting by
  its ``SuccessTracker``) with :class:`ReorientCommandMask` as its mask form;
- :class:`MaskedEMAJointPositionToLimitsAction`: core's EMA joint action whose reset also takes a bool mask;
- :func:`reset_hand_joints` and :func:`reset_object_random_orientation`: upstream's hand reset and core's random
  orientation root reset (called as they are on the index path), with mask forms.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import isaaclab.envs.mdp as mdp
import isaaclab.utils.math as math_utils
import torch
import warp as wp
from isaaclab.envs.mdp.actions.joint_actions_to_limits import EMAJointPositionToLimitsAction
from isaaclab.managers import SceneEntityCfg

from isaaclab_contrib.envs.mask_commands import CommandMaskForm
from isaaclab_contrib.upstream.modules import import_isaaclab_tasks_submodule

_REORIENT_MDP = import_isaaclab_tasks_submodule("core.reorient.mdp")


class ReorientCommandMask(CommandMaskForm):
    """Mask form of upstream's ``ReorientCommand``: uniform SO(3) goals, a new one each time the goal is reached.

    The success rate of a finished episode (``goals / (goals + 1)``: its last goal is still outstanding) is logged
    as ``Metrics/success_rate``, as upstream's reset does.
    """

    def __init__(self, term: Any):
        super().__init__(term)
        self.env_log["Metrics/success_rate"] = self.log.pop("success_rate")

    def finish_episode(self, env_mask: torch.Tensor) -> None:
        goals = self.term._success._goals_reached
        rate = self.term.metrics["success_rate"]
        rate.copy_(torch.where(env_mask, goals / (goals + 1.0), rate))

    def reset(self, env_mask: torch.Tensor) -> None:
        """Log and resample as the base form does, then start the tracker's new episode (its goal not counted)."""
        super().reset(env_mask)
        tracker = self.term._success
        tracker._goals_reached.masked_fill_(env_mask, 0.0)
        reset_mid_step = self.term._env.reset_buf
        tracker._skip_update.copy_(torch.where(env_mask, reset_mid_step, tracker._skip_update))

    def compute(self, dt: float) -> None:
        """Metrics, then a new goal wherever the current one was reached (no time-based resampling to speak of)."""
        term = self.term
        term._update_metrics()
        term.time_left -= dt
        self.resample(term.time_left <= 0.0)
        if term.cfg.update_goal_on_success:
            reached = term.metrics["orientation_error"] < term.cfg.orientation_success_threshold
            self.resample(term._success.earned(reached))

    def resample_command(self, env_mask: torch.Tensor) -> None:
        term = self.term
        term._success.record_goal_reached(env_mask=env_mask)
        quat = math_utils.random_orientation(term.num_envs, device=term.device)
        quat = math_utils.quat_unique(quat) if term.cfg.make_quat_unique else quat
        term.quat_command_w.copy_(torch.where(env_mask[:, None], quat, term.quat_command_w))


class MaskedReorientCommand(_REORIENT_MDP.ReorientCommand):
    """Upstream's ``ReorientCommand`` with a mask form (:class:`ReorientCommandMask`)."""

    mask_form = ReorientCommandMask


class MaskedEMAJointPositionToLimitsAction(EMAJointPositionToLimitsAction):
    """Core's EMA joint position action whose reset also takes a bool env mask (no host read)."""

    reset_takes_mask = True

    def reset(self, env_ids: Sequence[int] | slice | torch.Tensor | None = None) -> None:
        """Zero the raw actions and restart the average at the joint positions of the selected envs."""
        if not (isinstance(env_ids, torch.Tensor) and env_ids.dtype == torch.bool):
            super().reset(env_ids)
            return
        rows = env_ids[:, None]
        self._raw_actions.masked_fill_(rows, 0.0)
        joint_pos = self._asset.data.joint_pos.torch[:, self._joint_ids]
        self._prev_applied_actions.copy_(torch.where(rows, joint_pos, self._prev_applied_actions))


def reset_hand_joints(
    env: Any,
    env_ids: Sequence[int],
    joint_position_noise: float,
    joint_velocity_noise: float,
    robot_cfg: SceneEntityCfg | None = None,
) -> None:
    """Upstream's ``reset_reorient_hand``: joints (and their position targets) between default and limits."""
    robot_cfg = robot_cfg or SceneEntityCfg("robot")
    _REORIENT_MDP.reset_reorient_hand(env, env_ids, joint_position_noise, joint_velocity_noise, robot_cfg)


def reset_hand_joints_mask(
    env: Any,
    env_mask: torch.Tensor,
    joint_position_noise: float,
    joint_velocity_noise: float,
    robot_cfg: SceneEntityCfg | None = None,
) -> None:
    """Mask form of :func:`reset_hand_joints`: every env samples, the envs set in ``env_mask`` take it.

    A joint lands at ``default + noise * (lower - default + u (upper - lower))``, ``u`` uniform in [0, 1], clamped
    to its limits; velocities at their default plus ``joint_velocity_noise`` times a uniform draw in [-1, 1].
    """
    robot = env.scene[robot_cfg.name if robot_cfg else "robot"]
    default = robot.data.default_joint_pos.torch
    limits = robot.data.joint_pos_limits.torch
    lower, upper = limits[..., 0], limits[..., 1]
    delta = lower - default + (upper - lower) * torch.rand_like(default)
    position = torch.minimum(torch.maximum(default + joint_position_noise * delta, lower), upper)
    velocity = robot.data.default_joint_vel.torch + joint_velocity_noise * (2.0 * torch.rand_like(default) - 1.0)
    robot.actuators.target_command.set_position_mask(value=position, env_mask=wp.from_torch(env_mask, dtype=wp.bool))
    robot.write_joint_position_to_sim_mask(position=position, env_mask=env_mask)
    robot.write_joint_velocity_to_sim_mask(velocity=velocity, env_mask=env_mask)


reset_hand_joints.mask_form = reset_hand_joints_mask


def reset_object_random_orientation(
    env: Any,
    env_ids: torch.Tensor,
    pose_range: dict[str, tuple[float, float]],
    velocity_range: dict[str, tuple[float, float]],
    asset_cfg: SceneEntityCfg | None = None,
) -> None:
    """Core's ``reset_root_state_with_random_orientation``: uniform position offsets, uniform SO(3) orientation."""
    asset_cfg = asset_cfg or SceneEntityCfg("object")
    mdp.reset_root_state_with_random_orientation(env, env_ids, pose_range, velocity_range, asset_cfg)


def reset_object_random_orientation_mask(
    env: Any,
    env_mask: torch.Tensor,
    pose_range: dict[str, tuple[float, float]],
    velocity_range: dict[str, tuple[float, float]],
    asset_cfg: SceneEntityCfg | None = None,
) -> None:
    """Mask form of :func:`reset_object_random_orientation` (every env samples, the masked envs take it)."""
    asset = env.scene[asset_cfg.name if asset_cfg else "object"]
    num = env.num_envs
    offsets = math_utils.sample_uniform_from_ranges(pose_range, ("x", "y", "z"), num, device=asset.device)
    position = asset.data.default_root_pose.torch[:, :3] + env.scene.env_origins + offsets
    orientation = math_utils.random_orientation(num, device=asset.device)
    axes = ("x", "y", "z", "roll", "pitch", "yaw")
    velocity = asset.data.default_root_vel.torch + math_utils.sample_uniform_from_ranges(
        velocity_range, axes, num, device=asset.device
    )
    asset.write_root_pose_to_sim_mask(root_pose=torch.cat((position, orientation), dim=-1), env_mask=env_mask)
    asset.write_root_velocity_to_sim_mask(root_velocity=velocity, env_mask=env_mask)


reset_object_random_orientation.mask_form = reset_object_random_orientation_mask
