"""Observation, reward and termination terms of the cube-lift and drawer tasks (torch, no host reads).

Every term is a plain function of the env and its params, so the tasks reset by mask and step from one CUDA graph
(see :mod:`isaaclab_contrib.envs.manager_based_env`). The gripper's grasp point is a point fixed in the hand body
(:data:`~.panda_cfg.PANDA_GRASP_OFFSET` in ``panda0_link7``), read from the body's pose.
"""

from __future__ import annotations

from typing import Any

import torch
from isaaclab.managers import SceneEntityCfg
from isaaclab.utils.math import combine_frame_transforms, matrix_from_quat, subtract_frame_transforms

from .panda_cfg import PANDA_GRASP_OFFSET

_ROBOT = SceneEntityCfg("robot")
_OBJECT = SceneEntityCfg("object")


def one_body(values: torch.Tensor, cfg: SceneEntityCfg) -> torch.Tensor:
    """The rows (N, ...) of ``cfg``'s one body in per-body ``values`` (N, B, ...).

    ``cfg.body_ids`` is what :meth:`SceneEntityCfg.resolve` made of ``body_names`` (a list), a device tensor once the
    env's managers finalized it, or ``slice(None)`` where the cfg names no body (allowed for a one-body asset such as
    a rigid object).

    Raises:
        ValueError: If ``cfg`` selects more than one body, or names none of an asset with several.
    """
    ids = [cfg.body_ids] if isinstance(cfg.body_ids, int) else cfg.body_ids
    if isinstance(ids, slice):
        if values.shape[1] != 1:
            raise ValueError(
                f"'{cfg.name}' has {values.shape[1]} bodies and the cfg names none; this term takes one: set"
                f" SceneEntityCfg('{cfg.name}', body_names=...)."
            )
        return values[:, 0]
    if len(ids) != 1:
        raise ValueError(f"'{cfg.name}' selects {len(ids)} bodies ({cfg.body_names}); this term takes one: name it.")
    return values[:, ids][:, 0]  # a device index tensor selects without reading the host: graph-safe


def grasp_point_w(env: Any, hand_cfg: SceneEntityCfg, offset: tuple[float, float, float] = PANDA_GRASP_OFFSET):
    """World position [m] (N, 3) of the point ``offset`` [m] in the frame of ``hand_cfg``'s (one) body."""
    data = env.scene[hand_cfg.name].data
    rotation = matrix_from_quat(one_body(data.body_quat_w.torch, hand_cfg))
    return one_body(data.body_pos_w.torch, hand_cfg) + sum(
        value * rotation[:, :, axis] for axis, value in enumerate(offset)
    )


def object_position_in_robot_root_frame(
    env: Any, robot_cfg: SceneEntityCfg = _ROBOT, object_cfg: SceneEntityCfg = _OBJECT
) -> torch.Tensor:
    """Position [m] (N, 3) of the object's root in the robot's root frame."""
    robot, obj = env.scene[robot_cfg.name].data, env.scene[object_cfg.name].data
    position_b, _ = subtract_frame_transforms(robot.root_pos_w.torch, robot.root_quat_w.torch, obj.root_pos_w.torch)
    return position_b


def object_grasp_distance(env: Any, std: float, hand_cfg: SceneEntityCfg, object_cfg: SceneEntityCfg = _OBJECT):
    """Reaching reward ``1 - tanh(d / std)``, ``d`` [m] the distance of the grasp point to the object's root."""
    distance = torch.linalg.norm(env.scene[object_cfg.name].data.root_pos_w.torch - grasp_point_w(env, hand_cfg), dim=1)
    return 1.0 - torch.tanh(distance / std)


def object_is_lifted(env: Any, minimal_height: float, object_cfg: SceneEntityCfg = _OBJECT) -> torch.Tensor:
    """1 where the object's root is above ``minimal_height`` [m] (world z), else 0."""
    return (env.scene[object_cfg.name].data.root_pos_w.torch[:, 2] > minimal_height).float()


def object_goal_distance(
    env: Any,
    std: float,
    minimal_height: float,
    command_name: str,
    robot_cfg: SceneEntityCfg = _ROBOT,
    object_cfg: SceneEntityCfg = _OBJECT,
) -> torch.Tensor:
    """Goal-tracking reward ``1 - tanh(d / std)`` while lifted above ``minimal_height`` [m], else 0.

    ``d`` [m] is the distance of the object's root to the position of the pose command ``command_name`` (given in
    the robot's root frame).
    """
    robot, obj = env.scene[robot_cfg.name].data, env.scene[object_cfg.name].data
    goal_b = env.command_manager.get_command(command_name)[:, :3]
    goal_w, _ = combine_frame_transforms(robot.root_pos_w.torch, robot.root_quat_w.torch, goal_b)
    distance = torch.linalg.norm(goal_w - obj.root_pos_w.torch, dim=1)
    return (obj.root_pos_w.torch[:, 2] > minimal_height).float() * (1.0 - torch.tanh(distance / std))


def joint_position(env: Any, asset_cfg: SceneEntityCfg) -> torch.Tensor:
    """Positions [m or rad] (N, J) of ``asset_cfg``'s joints (a drawer's slide: its opening)."""
    return env.scene[asset_cfg.name].data.joint_pos.torch[:, asset_cfg.joint_ids]


def joint_position_clamped(env: Any, asset_cfg: SceneEntityCfg, limit: float) -> torch.Tensor:
    """Sum over ``asset_cfg``'s joints of their position clamped to ``[0, limit]`` [m or rad]: opening progress."""
    return joint_position(env, asset_cfg).clamp(0.0, limit).sum(dim=1)


def grasp_point_to_body(env: Any, hand_cfg: SceneEntityCfg, body_cfg: SceneEntityCfg) -> torch.Tensor:
    """Vector [m] (N, 3) from the grasp point to ``body_cfg``'s (one) body origin, in the world frame."""
    return one_body(env.scene[body_cfg.name].data.body_pos_w.torch, body_cfg) - grasp_point_w(env, hand_cfg)


def body_grasp_distance(env: Any, std: float, hand_cfg: SceneEntityCfg, body_cfg: SceneEntityCfg) -> torch.Tensor:
    """Reaching reward ``1 - tanh(d / std)``, ``d`` [m] the distance of the grasp point to ``body_cfg``'s body."""
    return 1.0 - torch.tanh(torch.linalg.norm(grasp_point_to_body(env, hand_cfg, body_cfg), dim=1) / std)


def gripper_closed_near_body(
    env: Any, radius: float, hand_cfg: SceneEntityCfg, body_cfg: SceneEntityCfg, fingers_cfg: SceneEntityCfg
) -> torch.Tensor:
    """1 minus the mean finger opening / 0.04 m where the grasp point is within ``radius`` [m] of the body, else 0."""
    near = torch.linalg.norm(grasp_point_to_body(env, hand_cfg, body_cfg), dim=1) < radius
    opening = joint_position(env, fingers_cfg).mean(dim=1)
    return near.float() * (1.0 - opening / 0.04).clamp(0.0, 1.0)
