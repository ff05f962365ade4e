"""Mask forms of Isaac Lab's reset events: the same randomization, applied to the envs set in a bool mask.

Core's reset events (:mod:`isaaclab.envs.mdp.events`) take env indices, which a step turns from its done flags
with ``nonzero`` (a host sync on CUDA). A mask form takes the done mask instead: it samples for every env and
writes with the asset's ``*_mask`` writers, so only the masked envs change and the host reads nothing. The
sampled distribution is core's (uniform in the given ranges, clamped to the soft limits); the random stream is
not (every env draws, not only the reset ones).

:func:`mask_event_form` maps an event function to its mask form: the function's own ``mask_form`` attribute, or this
module's form of a core event, or ``None`` where there is none.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import isaaclab.envs.mdp as mdp
import torch
from isaaclab.managers import SceneEntityCfg


def reset_joints_by_offset_mask(
    env: Any,
    env_mask: torch.Tensor,
    position_range: tuple[float, float],
    velocity_range: tuple[float, float],
    asset_cfg: SceneEntityCfg | None = None,
) -> None:
    """Mask form of :func:`isaaclab.envs.mdp.reset_joints_by_offset`: default joint state plus uniform offsets.

    Args:
        env: The manager-based environment.
        env_mask: Envs to reset, bool of shape (num_envs,).
        position_range: Offset range of the joint positions [m or rad].
        velocity_range: Offset range of the joint velocities [m/s or rad/s].
        asset_cfg: The articulation and its joints (default: every joint of the entity ``"robot"``, as in core).
    """
    _reset_joints(env, env_mask, asset_cfg, position_range, velocity_range, scale=False)


def reset_joints_by_scale_mask(
    env: Any,
    env_mask: torch.Tensor,
    position_range: tuple[float, float],
    velocity_range: tuple[float, float],
    asset_cfg: SceneEntityCfg | None = None,
) -> None:
    """Mask form of :func:`isaaclab.envs.mdp.reset_joints_by_scale`: default joint state times uniform factors.

    Args:
        env: The manager-based environment.
        env_mask: Envs to reset, bool of shape (num_envs,).
        position_range: Range of the factor on the default joint positions.
        velocity_range: Range of the factor on the default joint velocities.
        asset_cfg: The articulation and its joints (default: every joint of the entity ``"robot"``, as in core).
    """
    _reset_joints(env, env_mask, asset_cfg, position_range, velocity_range, scale=True)


def _reset_joints(
    env: Any,
    env_mask: torch.Tensor,
    asset_cfg: SceneEntityCfg | None,
    position_range: tuple[float, float],
    velocity_range: tuple[float, float],
    *,
    scale: bool,
) -> None:
    asset_cfg = asset_cfg or SceneEntityCfg("robot")
    asset = env.scene[asset_cfg.name]
    data = asset.data
    default_pos = data.default_joint_pos.torch
    default_vel = data.default_joint_vel.torch
    pos_draw = _uniform(default_pos, position_range)
    vel_draw = _uniform(default_vel, velocity_range)
    if scale:
        joint_pos, joint_vel = pos_draw.mul_(default_pos), vel_draw.mul_(default_vel)
    else:
        joint_pos, joint_vel = pos_draw.add_(default_pos), vel_draw.add_(default_vel)
    pos_limits = data.soft_joint_pos_limits.torch
    vel_limits = data.soft_joint_vel_limits.torch
    joint_pos.clamp_(pos_limits[..., 0], pos_limits[..., 1])
    joint_vel.clamp_(-vel_limits, vel_limits)
    joint_mask = _joint_mask(env, asset, asset_cfg)
    asset.write_joint_position_to_sim_mask(position=joint_pos, joint_mask=joint_mask, env_mask=env_mask)
    asset.write_joint_velocity_to_sim_mask(velocity=joint_vel, joint_mask=joint_mask, env_mask=env_mask)


def _uniform(like: torch.Tensor, bounds: tuple[float, float]) -> torch.Tensor:
    """Uniform samples in ``bounds`` with the shape of ``like`` (a new tensor, one kernel)."""
    lower, upper = bounds
    return torch.empty_like(like).uniform_(lower, upper)


def _joint_mask(env: Any, asset: Any, asset_cfg: SceneEntityCfg) -> torch.Tensor | None:
    """The joints of ``asset_cfg`` as a bool mask over the asset's joints (``None``: all of them).

    Made on the first call for each ``asset_cfg`` (a term's resolved entity) and kept on the env: a step replayed
    from a CUDA graph reads it, and the resolved joint ids may be a device tensor.
    """
    ids = asset_cfg.joint_ids
    if isinstance(ids, slice) and ids == slice(None):
        return None
    masks = env.__dict__.setdefault("_mask_event_joint_masks", {})
    entry = masks.get(id(asset_cfg))
    if entry is None or entry[0] is not asset_cfg:
        mask = torch.zeros(asset.num_joints, dtype=torch.bool, device=asset.device)
        mask[ids] = True
        entry = masks[id(asset_cfg)] = (asset_cfg, mask)
    return entry[1]


_MASK_FORMS: MappingProxyType[Callable, Callable] = MappingProxyType(
    {
        mdp.reset_joints_by_offset: reset_joints_by_offset_mask,
        mdp.reset_joints_by_scale: reset_joints_by_scale_mask,
    }
)


def mask_event_form(func: Callable) -> Callable | None:
    """The mask form of the event function ``func``, or ``None`` where there is none.

    A function of your own declares its mask form as its ``mask_form`` attribute (``func.mask_form = func_mask``, a
    function taking ``(env, env_mask, **params)`` with the same params); core's reset events have theirs here.
    """
    return getattr(func, "mask_form", None) or _MASK_FORMS.get(func)
