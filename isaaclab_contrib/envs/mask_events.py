"""Mask forms of Isaac Lab's reset and interval events: the same randomization, applied to the envs set in a bool mask.

Core's reset events (:mod:`isaaclab.envs.mdp.events`) take env indices, which a step turns from its done flags
with ``nonzero`` (a host sync on CUDA). A mask form takes the done mask instead: it samples for every env and
writes with the asset's ``*_mask`` writers, so only the masked envs change and the host reads nothing. The
sampled distribution is core's (uniform in the given ranges, clamped to the soft limits); the random stream is
not (every env draws, not only the reset ones).

:func:`run_reset_events_mask` runs a list of reset event terms in order. Consecutive joint resets
(:func:`reset_joints_by_offset_mask`, :func:`reset_joints_by_scale_mask`) of one articulation run as one group:
one ``torch.rand`` draw (PyTorch's generator, so env seeding holds), one Warp kernel that computes every joint's
value by the event that resets it last (core applies events in order, a later event overwrites an earlier one on
the same joints) and one position and one velocity write over the joints of the group.

:func:`mask_event_form` maps an event function to its mask form: the function's own ``mask_form`` attribute, or this
module's form of a core event, or ``None`` where there is none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

import isaaclab.envs.mdp as mdp
import isaaclab.utils.math as math_utils
import torch
import warp as wp
from isaaclab.managers import SceneEntityCfg

from .joint_reset import JointRangeTable, sample_joint_state_kernel, upload

_DEFAULT_ASSET = "robot"
"""The entity core's joint reset events act on when their params name none."""

_EVENTS_CHANGED = "The joint reset events of a step (their ranges or entities)"
"""What changed, in the error raised when a group's ranges change while a step's CUDA graph is recorded."""


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
    _apply_joint_resets(env, env_mask, [_JointReset(asset_cfg, False, position_range, velocity_range)], slot=None)


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
    _apply_joint_resets(env, env_mask, [_JointReset(asset_cfg, True, position_range, velocity_range)], slot=None)


_AXES = ("x", "y", "z", "roll", "pitch", "yaw")
"""The keys of core's pose and velocity range dicts, in the order of a root pose offset or root velocity."""


def reset_root_state_uniform_mask(
    env: Any,
    env_mask: torch.Tensor,
    pose_range: dict[str, tuple[float, float]],
    velocity_range: dict[str, tuple[float, float]],
    asset_cfg: SceneEntityCfg | None = None,
) -> None:
    """Mask form of :class:`isaaclab.envs.mdp.reset_root_state_uniform`: default root state plus uniform offsets.

    The position is the default root position plus the env origin (the terrain's, after a curriculum move) plus an
    offset; the orientation is the default one turned by sampled roll, pitch and yaw; the velocity is the default
    one plus an offset.

    Args:
        env: The manager-based environment.
        env_mask: Envs to reset, bool of shape (num_envs,).
        pose_range: Offset ranges of the root pose per key of ``x, y, z`` [m] and ``roll, pitch, yaw`` [rad].
        velocity_range: Offset ranges of the root velocity per key [m/s, rad/s]; missing keys are 0.
        asset_cfg: The asset (default: the entity ``"robot"``, as in core).
    """
    asset = env.scene[_DEFAULT_ASSET if asset_cfg is None else asset_cfg.name]
    num_envs = asset.num_instances
    default_pose = asset.data.default_root_pose.torch
    offset = math_utils.sample_uniform_from_ranges(pose_range, _AXES, num_envs, asset.device)
    position = default_pose[:, 0:3] + env.scene.env_origins + offset[:, 0:3]
    turn = math_utils.quat_from_euler_xyz(offset[:, 3], offset[:, 4], offset[:, 5])
    orientation = math_utils.quat_mul(default_pose[:, 3:7], turn)
    velocity = asset.data.default_root_vel.torch + math_utils.sample_uniform_from_ranges(
        velocity_range, _AXES, num_envs, asset.device
    )
    asset.write_root_pose_to_sim_mask(root_pose=torch.cat([position, orientation], dim=-1), env_mask=env_mask)
    asset.write_root_velocity_to_sim_mask(root_velocity=velocity, env_mask=env_mask)


def apply_external_force_torque_mask(
    env: Any,
    env_mask: torch.Tensor,
    force_range: tuple[float, float],
    torque_range: tuple[float, float],
    asset_cfg: SceneEntityCfg | None = None,
) -> None:
    """Mask form of :func:`isaaclab.envs.mdp.apply_external_force_torque`: uniform permanent body wrenches.

    As in core, all-zero ranges write nothing (the asset's reset already cleared the masked envs' wrenches).

    Args:
        env: The manager-based environment.
        env_mask: Envs to set the wrenches of, bool of shape (num_envs,).
        force_range: Range of each force component [N].
        torque_range: Range of each torque component [N m].
        asset_cfg: The asset and its bodies (default: every body of the entity ``"robot"``).
    """
    if not any(force_range) and not any(torque_range):
        return
    asset = env.scene[_DEFAULT_ASSET if asset_cfg is None else asset_cfg.name]
    size = (asset.num_instances, asset.num_bodies, 3)
    forces = math_utils.sample_uniform(*force_range, size, asset.device)
    torques = math_utils.sample_uniform(*torque_range, size, asset.device)
    body_mask = _body_mask(env, asset, asset_cfg)
    asset.permanent_wrench_composer.set_forces_and_torques_mask(
        forces=forces, torques=torques, body_mask=body_mask, env_mask=env_mask
    )


def push_by_setting_velocity_mask(
    env: Any,
    env_mask: torch.Tensor,
    velocity_range: dict[str, tuple[float, float]],
    asset_cfg: SceneEntityCfg | None = None,
) -> None:
    """Mask form of :func:`isaaclab.envs.mdp.push_by_setting_velocity`: root velocity plus a uniform kick.

    Args:
        env: The manager-based environment.
        env_mask: Envs to push, bool of shape (num_envs,).
        velocity_range: Ranges of the kick per key of ``x, y, z`` [m/s] and ``roll, pitch, yaw`` [rad/s]; missing
            keys are 0.
        asset_cfg: The asset (default: the entity ``"robot"``, as in core).
    """
    asset = env.scene[_DEFAULT_ASSET if asset_cfg is None else asset_cfg.name]
    kick = math_utils.sample_uniform_from_ranges(velocity_range, _AXES, asset.num_instances, asset.device)
    asset.write_root_velocity_to_sim_mask(root_velocity=asset.data.root_vel_w.torch + kick, env_mask=env_mask)


def _body_mask(env: Any, asset: Any, asset_cfg: SceneEntityCfg | None) -> wp.array | None:
    """The bool body mask of ``asset_cfg``'s bodies (``None``: every body), made once per config and kept on the env."""
    ids = slice(None) if asset_cfg is None else asset_cfg.body_ids
    if isinstance(ids, slice) and ids == slice(None):
        return None
    masks = env.__dict__.setdefault("_mask_event_body_masks", {})
    key = (id(asset), tuple(range(asset.num_bodies)[ids]) if isinstance(ids, slice) else tuple(int(i) for i in ids))
    mask = masks.get(key)
    if mask is None:
        host = torch.zeros(asset.num_bodies, dtype=torch.bool)
        host[list(key[1])] = True
        mask = masks[key] = wp.from_torch(host.to(asset.device), dtype=wp.bool)
    return mask


_JOINT_RESET_FORMS: MappingProxyType[Callable, bool] = MappingProxyType(
    {reset_joints_by_offset_mask: False, reset_joints_by_scale_mask: True}
)
"""The joint reset mask forms that run in groups, and whether each scales (``True``) or offsets the defaults."""

_MASK_FORMS: MappingProxyType[Callable, Callable] = MappingProxyType(
    {
        mdp.reset_joints_by_offset: reset_joints_by_offset_mask,
        mdp.reset_joints_by_scale: reset_joints_by_scale_mask,
        mdp.reset_root_state_uniform: reset_root_state_uniform_mask,
        mdp.apply_external_force_torque: apply_external_force_torque_mask,
        mdp.push_by_setting_velocity: push_by_setting_velocity_mask,
    }
)
"""Core's event functions and classes with a mask form here (a class-based term is looked up by its class)."""


def mask_event_form(func: Callable) -> Callable | None:
    """The mask form of the event function ``func``, or ``None`` where there is none.

    A function of your own declares its mask form as its ``mask_form`` attribute (``func.mask_form = func_mask``, a
    function taking ``(env, env_mask, **params)`` with the same params); core's reset events have theirs here. A
    class-based term (core instantiates the class into ``term_cfg.func``) is looked up by its class.
    """
    form = getattr(func, "mask_form", None) or _MASK_FORMS.get(func)
    if form is None and not isinstance(func, type):
        form = _MASK_FORMS.get(type(func))
    return form


def run_reset_events_mask(env: Any, env_mask: torch.Tensor, term_cfgs: Sequence[Any]) -> None:
    """Run the reset event terms ``term_cfgs`` in their mask forms, in order, for the envs set in ``env_mask``.

    Consecutive joint resets of one articulation run as one group (see the module notes); every other term calls
    its mask form with its params.

    Args:
        env: The manager-based environment.
        env_mask: Envs to reset, bool of shape (num_envs,).
        term_cfgs: Event term configurations (``func`` and ``params``), each with a mask form.
    """
    group: list[_JointReset] = []
    start = 0  # the position of the group's first term: its slot among the groups kept on the env
    for index, term_cfg in enumerate(term_cfgs):
        form = mask_event_form(term_cfg.func)
        reset = _JointReset.of(form, term_cfg.params)
        if reset is not None and group and group[0].asset_name == reset.asset_name:
            group.append(reset)
            continue
        if group:
            _apply_joint_resets(env, env_mask, group, slot=start)
        group, start = ([] if reset is None else [reset]), index
        if reset is None:
            form(env, env_mask, **term_cfg.params)
    if group:
        _apply_joint_resets(env, env_mask, group, slot=start)


class _JointReset(NamedTuple):
    """One joint reset event: its joints, whether it scales or offsets the defaults, and its ranges."""

    asset_cfg: SceneEntityCfg | None
    scale: bool
    position_range: tuple[float, float]
    velocity_range: tuple[float, float]

    @staticmethod
    def of(form: Callable, params: dict[str, Any]) -> _JointReset | None:
        """The joint reset that ``form`` with ``params`` runs, or ``None`` when ``form`` is no joint reset form."""
        scale = _JOINT_RESET_FORMS.get(form)
        if scale is None:
            return None
        unknown = sorted(set(params) - {"position_range", "velocity_range", "asset_cfg"})
        missing = sorted({"position_range", "velocity_range"} - set(params))
        if unknown or missing:
            raise TypeError(
                f"{form.__name__} takes position_range, velocity_range and optionally asset_cfg; the event's params"
                f" have extra {unknown} and lack {missing}: fix the event term's params."
            )
        return _JointReset(params.get("asset_cfg"), scale, params["position_range"], params["velocity_range"])

    @property
    def asset_name(self) -> str:
        return _DEFAULT_ASSET if self.asset_cfg is None else self.asset_cfg.name


def _apply_joint_resets(env: Any, env_mask: torch.Tensor, resets: list[_JointReset], *, slot: int | None) -> None:
    """Run ``resets`` (joint resets of one articulation, in order) as one group on the envs set in ``env_mask``.

    ``slot`` is the position of the group's first term among the env's reset events (``None`` for a direct call of a
    public mask form): two groups of the same entities at different positions keep buffers and ranges of their own.
    """
    asset = env.scene[resets[0].asset_name]
    groups = env.__dict__.setdefault("_mask_event_joint_groups", {})
    key = (slot, resets[0].asset_name, tuple(id(reset.asset_cfg) for reset in resets))
    group = groups.get(key)
    if group is None or not group.serves(asset, resets):
        group = groups[key] = _JointResetGroup(asset, resets)
    group.apply(asset, env_mask, resets)


class _JointResetGroup:
    """Persistent buffers of one group of joint resets: joint owners, ranges, the draw and the values written.

    Made on the first reset of a group and kept on the env (``_mask_event_joint_groups``): a step replayed from a CUDA
    graph reads and writes these buffers. The ranges are copied to the device again when the events' ranges change
    (outside a graph recording; a recorded step keeps the ranges it was recorded with).
    """

    def __init__(self, asset: Any, resets: list[_JointReset]):
        num_envs, num_joints = asset.num_instances, asset.num_joints
        device = asset.device
        self._asset = asset
        self._asset_cfgs = tuple(reset.asset_cfg for reset in resets)
        # the last event naming a joint resets it (core applies events in order); -1: no event of the group
        owner = torch.full((num_joints,), -1, dtype=torch.long)
        all_joints = False
        for k, reset in enumerate(resets):
            ids = slice(None) if reset.asset_cfg is None else reset.asset_cfg.joint_ids
            all_joints |= isinstance(ids, slice) and ids == slice(None)
            owner[ids.cpu() if isinstance(ids, torch.Tensor) else ids] = k
        self._owner = owner
        self._joint_mask = None
        if not all_joints:
            self._joint_mask = torch.empty(num_joints, dtype=torch.bool, device=device)
            upload(owner >= 0, self._joint_mask, changed=_EVENTS_CHANGED)
        self._ranges = JointRangeTable(num_joints, device, changed=_EVENTS_CHANGED)
        self._device = wp.get_device(str(device))
        self._draw = torch.zeros((num_envs, 2, num_joints), dtype=torch.float32, device=device)
        self._pos = torch.zeros((num_envs, num_joints), dtype=torch.float32, device=device)
        self._vel = torch.zeros_like(self._pos)
        self._wp = tuple(
            wp.from_torch(t, dtype=wp.float32) for t in (self._draw[:, 0], self._draw[:, 1], self._pos, self._vel)
        )

    def serves(self, asset: Any, resets: list[_JointReset]) -> bool:
        """Whether this group was made for ``asset`` and the entity configurations of ``resets``."""
        return asset is self._asset and all(
            a is b for a, b in zip(self._asset_cfgs, (reset.asset_cfg for reset in resets), strict=True)
        )

    def apply(self, asset: Any, env_mask: torch.Tensor, resets: list[_JointReset]) -> None:
        """Draw, compute every joint's reset value and write positions and velocities of the masked envs."""
        key = tuple((reset.scale, *reset.position_range, *reset.velocity_range) for reset in resets)
        self._ranges.update(key, lambda: self._range_rows(key))
        torch.rand(self._draw.shape, out=self._draw)
        wp.launch(
            sample_joint_state_kernel,
            dim=tuple(self._pos.shape),
            inputs=list(self._ranges.launch_inputs(asset.data, *self._wp)),
            device=self._device,
        )
        asset.write_joint_position_to_sim_mask(position=self._pos, joint_mask=self._joint_mask, env_mask=env_mask)
        asset.write_joint_velocity_to_sim_mask(velocity=self._vel, joint_mask=self._joint_mask, env_mask=env_mask)

    def _range_rows(self, key: tuple) -> torch.Tensor:
        """Each joint's range row (see :data:`~.joint_reset.RANGE_COLUMNS`): that of the event owning it, else 0."""
        events = torch.tensor(
            [(0.0, 0.0, 0.0, 0.0, 0.0)] + [(p0, p1 - p0, v0, v1 - v0, float(scale)) for scale, p0, p1, v0, v1 in key],
            dtype=torch.float32,
        )
        return events[self._owner + 1]
