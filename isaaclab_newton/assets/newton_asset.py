"""Behaviour shared by Newton's rigid-body assets: index resolution, root writes, resets and wrenches."""

from __future__ import annotations

from collections.abc import Sequence

import newton
import numpy as np
import torch
import warp as wp
from isaaclab.utils.math import quat_apply, quat_apply_inverse, quat_inv, quat_mul
from isaaclab.utils.warp import ProxyArray
from isaaclab.utils.wrench_composer import WrenchComposer

from ..physics import NewtonManager
from .articulation.binding import torch_view
from .write_checks import check_selection_size, checked_tensor

Ids = Sequence[int] | torch.Tensor | wp.array | slice | None


class NewtonAssetMixin:
    """Root-state writes, per-env reset and external wrenches for assets bound by an ``ArticulationBinding``.

    Poses are (x, y, z [m], qx, qy, qz, qw) in the world frame; velocities are (linear [m/s], angular [rad/s])
    in the world frame. ``root_pose``/``root_link_pose`` is the root body's frame, ``root_com_pose`` its center
    of mass; ``root_velocity``/``root_com_velocity`` is the center-of-mass twist, ``root_link_velocity`` the
    twist of the body frame's origin. Wrenches from the permanent and instantaneous composers are applied at
    the centers of mass through :meth:`NewtonManager.get_external_wrench`.
    """

    # -- setup -----------------------------------------------------------------------------------------

    def _init_common(self) -> None:
        """Index helpers and wrench composers; call once the binding and data exist."""
        n = self._binding.num_instances
        self._ALL_INDICES = wp.array(np.arange(n, dtype=np.int32), device=self.device)
        self._all_envs = torch.arange(n, device=self.device)
        self._all_bodies = torch.arange(len(self._binding.body_names), device=self.device)
        self._permanent_wrench_composer = CheckedWrenchComposer(self)
        self._instantaneous_wrench_composer = CheckedWrenchComposer(self)
        self._wrench_rows_written = False

    @property
    def permanent_wrench_composer(self) -> WrenchComposer:
        """Wrenches applied on every step until changed or reset."""
        return self._permanent_wrench_composer

    @property
    def instantaneous_wrench_composer(self) -> WrenchComposer:
        """Wrenches applied on the next step only (cleared after :meth:`write_data_to_sim`)."""
        return self._instantaneous_wrench_composer

    @property
    def root_view(self):
        """Newton :class:`~newton.selection.ArticulationView` over this asset's root articulations."""
        return self._root_view

    # -- index resolution ------------------------------------------------------------------------------

    def _index_tensor(self, ids: Ids, all_ids: torch.Tensor) -> torch.Tensor:
        if ids is None or (isinstance(ids, slice) and ids == slice(None)):
            return all_ids
        if isinstance(ids, slice):
            return all_ids[ids]
        if isinstance(ids, ProxyArray):
            ids = ids.warp
        if isinstance(ids, wp.array):
            return wp.to_torch(ids).to(device=self.device, dtype=torch.long)
        if isinstance(ids, torch.Tensor):
            return ids.to(device=self.device, dtype=torch.long).reshape(-1)
        return torch.as_tensor(list(ids), dtype=torch.long, device=self.device)

    def _env_tensor(self, env_ids: Ids, env_mask: wp.array | None) -> torch.Tensor:
        if env_mask is not None:
            return self._mask_tensor(env_mask, self._all_envs)
        return self._index_tensor(env_ids, self._all_envs)

    def _mask_tensor(self, mask: wp.array | torch.Tensor | None, all_ids: torch.Tensor) -> torch.Tensor:
        if mask is None:
            return all_ids
        mask = mask if isinstance(mask, torch.Tensor) else wp.to_torch(mask)
        return torch.nonzero(mask.to(self.device), as_tuple=False).reshape(-1)

    def _resolve_env_ids(self, env_ids: Ids) -> wp.array:
        ids = self._env_tensor(env_ids, None)
        return wp.from_torch(ids.to(torch.int32).contiguous(), dtype=wp.int32)

    def _checked(self, value, shape: tuple[int, ...], name: str, where: str, *, allow_scalar: bool = True):
        """Check a written value's shape and dtype (see :func:`~.write_checks.checked_tensor`)."""
        return checked_tensor(
            value,
            shape,
            name=name,
            where=f"{type(self).__name__}.{where}",
            device=self.device,
            allow_scalar=allow_scalar,
        )

    def assert_shape_and_dtype(self, tensor, shape, dtype, name: str = "", *, axis_sizes=None) -> None:
        """Check a value written through core's command paths (targets, efforts); raises instead of asserting.

        Overrides core's ``assert``-based check so ``python -O`` keeps it; only an explicit
        ``cfg.disable_shape_checks=True`` turns it off.

        Raises:
            ValueError: If the shape differs or a selection is larger than the asset.
            TypeError: If the dtype is not ``dtype`` (float32 for torch tensors).
        """
        if self.cfg.disable_shape_checks is True:
            return
        where = f"{type(self).__name__} command write"
        for size, (axis, limit_name) in zip(axis_sizes or shape, self._SHAPE_AXIS_LIMITS, strict=False):
            check_selection_size(size, getattr(self, limit_name), axis=axis, where=where, name=name)
        if isinstance(tensor, wp.array) and tensor.dtype != dtype:
            raise TypeError(
                f"{where}: '{name}' is a Warp array of dtype {wp.types.type_repr(tensor.dtype)}; pass"
                f" {wp.types.type_repr(dtype)}."
            )
        trailing = self._DTYPE_TO_TORCH_TRAILING_DIMS.get(dtype, ())
        checked_tensor(tensor, (*shape, *trailing), name=name, where=where, device=self.device)

    def assert_shape_and_dtype_mask(self, tensor, masks, dtype, name: str = "", trailing_dims=()) -> None:
        """Mask variant of :meth:`assert_shape_and_dtype`: the value is full-sized over every mask."""
        shape = (*tuple(m.shape[0] for m in masks), *trailing_dims)
        self.assert_shape_and_dtype(tensor, shape, dtype, name)

    def _after_state_write(self, skip_forward: bool) -> None:
        self._data.mark_dirty()
        if not skip_forward:
            NewtonManager.forward()

    # -- resets ----------------------------------------------------------------------------------------

    def _reset_worlds(self, envs: torch.Tensor) -> None:
        """Clear the envs' wrenches and reset their worlds: solver internals, joint state to model defaults."""
        self._permanent_wrench_composer.reset(envs)
        self._instantaneous_wrench_composer.reset(envs)
        wrench = self._external_wrench()
        if wrench is not None:
            torch_view(wrench)[self._binding.body_indices[envs]] = 0.0
        worlds = self._binding.world_ids[envs].to(device=str(NewtonManager.get_model().device), dtype=torch.int32)
        NewtonManager.request_world_reset(wp.from_torch(worlds.contiguous(), dtype=wp.int32))
        # Apply the world reset now: solvers restore the worlds' joint state to the model defaults when they
        # reset, so it must happen before the env's reset events write their randomized states.
        NewtonManager.forward()
        self._data.mark_dirty()

    # -- root writes -----------------------------------------------------------------------------------

    def write_root_pose_to_sim_index(self, *, root_pose, env_ids: Ids = None, skip_forward: bool = False) -> None:
        """Write root body poses (world frame) of the selected envs; see the class docstring for conventions.

        A fixed base moves its fixed root joint's parent frame (the solver is notified of the model change);
        a free root sets the free joint's coordinates.
        """
        envs = self._env_tensor(env_ids, None)
        pose = self._checked(
            root_pose, (envs.shape[0], 7), "root_pose", "write_root_pose_to_sim_index", allow_scalar=False
        )
        self._write_root_link_pose(pose, envs)
        self._after_state_write(skip_forward)

    def write_root_pose_to_sim_mask(self, *, root_pose, env_mask=None, skip_forward: bool = False) -> None:
        """Mask variant of :meth:`write_root_pose_to_sim_index` (full-sized ``root_pose``)."""
        envs = self._mask_tensor(env_mask, self._all_envs)
        pose = self._checked(
            root_pose, (self.num_instances, 7), "root_pose", "write_root_pose_to_sim_mask", allow_scalar=False
        )
        self._write_root_link_pose(pose[envs], envs)
        self._after_state_write(skip_forward)

    write_root_link_pose_to_sim_index = write_root_pose_to_sim_index
    write_root_link_pose_to_sim_mask = write_root_pose_to_sim_mask

    def write_root_com_pose_to_sim_index(self, *, root_pose, env_ids: Ids = None, skip_forward: bool = False) -> None:
        """Write root center-of-mass poses (world frame): the body frame is placed so its CoM lands there."""
        envs = self._env_tensor(env_ids, None)
        pose = self._checked(
            root_pose, (envs.shape[0], 7), "root_pose", "write_root_com_pose_to_sim_index", allow_scalar=False
        )
        self._write_root_link_pose(self._com_to_link_pose(pose, envs), envs)
        self._after_state_write(skip_forward)

    def write_root_com_pose_to_sim_mask(self, *, root_pose, env_mask=None, skip_forward: bool = False) -> None:
        """Mask variant of :meth:`write_root_com_pose_to_sim_index`."""
        envs = self._mask_tensor(env_mask, self._all_envs)
        pose = self._checked(
            root_pose, (self.num_instances, 7), "root_pose", "write_root_com_pose_to_sim_mask", allow_scalar=False
        )
        self._write_root_link_pose(self._com_to_link_pose(pose[envs], envs), envs)
        self._after_state_write(skip_forward)

    def write_root_velocity_to_sim_index(self, *, root_velocity, env_ids: Ids = None, skip_forward=False) -> None:
        """Write root center-of-mass twists (world frame). A fixed base cannot move: only the shape is checked."""
        envs = self._env_tensor(env_ids, None)
        vel = self._checked(
            root_velocity, (envs.shape[0], 6), "root_velocity", "write_root_velocity_to_sim_index", allow_scalar=False
        )
        self._write_root_com_velocity(vel, envs)
        self._after_state_write(skip_forward)

    def write_root_velocity_to_sim_mask(self, *, root_velocity, env_mask=None, skip_forward=False) -> None:
        """Mask variant of :meth:`write_root_velocity_to_sim_index`."""
        envs = self._mask_tensor(env_mask, self._all_envs)
        vel = self._checked(
            root_velocity,
            (self.num_instances, 6),
            "root_velocity",
            "write_root_velocity_to_sim_mask",
            allow_scalar=False,
        )
        self._write_root_com_velocity(vel[envs], envs)
        self._after_state_write(skip_forward)

    write_root_com_velocity_to_sim_index = write_root_velocity_to_sim_index
    write_root_com_velocity_to_sim_mask = write_root_velocity_to_sim_mask

    def write_root_link_velocity_to_sim_index(self, *, root_velocity, env_ids: Ids = None, skip_forward=False) -> None:
        """Write twists of the root body frame's origin (world frame), converted to center-of-mass twists."""
        envs = self._env_tensor(env_ids, None)
        vel = self._checked(
            root_velocity,
            (envs.shape[0], 6),
            "root_velocity",
            "write_root_link_velocity_to_sim_index",
            allow_scalar=False,
        )
        self._write_root_com_velocity(self._link_to_com_velocity(vel, envs), envs)
        self._after_state_write(skip_forward)

    def write_root_link_velocity_to_sim_mask(self, *, root_velocity, env_mask=None, skip_forward=False) -> None:
        """Mask variant of :meth:`write_root_link_velocity_to_sim_index`."""
        envs = self._mask_tensor(env_mask, self._all_envs)
        vel = self._checked(
            root_velocity,
            (self.num_instances, 6),
            "root_velocity",
            "write_root_link_velocity_to_sim_mask",
            allow_scalar=False,
        )
        vel = self._link_to_com_velocity(vel[envs], envs)
        self._write_root_com_velocity(vel, envs)
        self._after_state_write(skip_forward)

    def write_root_state_to_sim(self, root_state, env_ids: Ids = None) -> None:
        """Write (N, 13) states: root body pose (7) and center-of-mass twist (6)."""
        state = self._root_state(root_state, env_ids, "write_root_state_to_sim")
        self.write_root_pose_to_sim_index(root_pose=state[:, :7], env_ids=env_ids, skip_forward=True)
        self.write_root_velocity_to_sim_index(root_velocity=state[:, 7:], env_ids=env_ids)

    def write_root_link_state_to_sim(self, root_state, env_ids: Ids = None) -> None:
        """Write (N, 13) states: root body pose (7) and body-origin twist (6)."""
        state = self._root_state(root_state, env_ids, "write_root_link_state_to_sim")
        self.write_root_pose_to_sim_index(root_pose=state[:, :7], env_ids=env_ids, skip_forward=True)
        self.write_root_link_velocity_to_sim_index(root_velocity=state[:, 7:], env_ids=env_ids)

    def write_root_com_state_to_sim(self, root_state, env_ids: Ids = None) -> None:
        """Write (N, 13) states: center-of-mass pose (7) and center-of-mass twist (6)."""
        state = self._root_state(root_state, env_ids, "write_root_com_state_to_sim")
        self.write_root_com_pose_to_sim_index(root_pose=state[:, :7], env_ids=env_ids, skip_forward=True)
        self.write_root_velocity_to_sim_index(root_velocity=state[:, 7:], env_ids=env_ids)

    def _root_state(self, root_state, env_ids: Ids, where: str) -> torch.Tensor:
        rows = self._env_tensor(env_ids, None).shape[0]
        return self._checked(root_state, (rows, 13), "root_state", where, allow_scalar=False)

    def _root_com_offset(self, envs: torch.Tensor) -> torch.Tensor:
        """Center of mass of the root body in its body frame [m], shape (len(envs), 3)."""
        return wp.to_torch(NewtonManager.get_model().body_com)[self._binding.root_body[envs]].to(self.device)

    def _com_to_link_pose(self, pose: torch.Tensor, envs: torch.Tensor) -> torch.Tensor:
        quat = pose[:, 3:]
        return torch.cat((pose[:, :3] - quat_apply(quat, self._root_com_offset(envs)), quat), -1)

    def _link_to_com_velocity(self, vel: torch.Tensor, envs: torch.Tensor) -> torch.Tensor:
        quat = wp.to_torch(NewtonManager.get_state_0().body_q)[self._binding.root_body[envs], 3:]
        arm = quat_apply(quat, self._root_com_offset(envs))
        return torch.cat((vel[:, :3] + torch.cross(vel[:, 3:], arm, dim=-1), vel[:, 3:]), -1)

    def _write_root_link_pose(self, pose: torch.Tensor, envs: torch.Tensor) -> None:
        if pose.shape != (envs.shape[0], 7):
            raise ValueError(f"root_pose must have shape ({envs.shape[0]}, 7), got {tuple(pose.shape)}.")
        bind = self._binding
        model = NewtonManager.get_model()
        joints = bind.root_joint[envs]
        x_c = wp.to_torch(model.joint_X_c)[joints].to(self.device)
        if bind.is_fixed_base:
            torch_view(model.joint_X_p)[joints] = transform_mul(pose, x_c)
            solver = NewtonManager.get_solver()
            if solver is not None:
                solver.notify_model_changed(newton.ModelFlags.JOINT_PROPERTIES)
            return
        x_p = wp.to_torch(model.joint_X_p)[joints].to(self.device)
        q = torch_view(NewtonManager.get_state_0().joint_q)
        cols = bind.root_coord[envs][:, None] + torch.arange(7, device=self.device)[None, :]
        q[cols] = transform_mul(transform_inv(x_p), transform_mul(pose, x_c))

    def _write_root_com_velocity(self, vel: torch.Tensor, envs: torch.Tensor) -> None:
        if vel.shape != (envs.shape[0], 6):
            raise ValueError(f"root_velocity must have shape ({envs.shape[0]}, 6), got {tuple(vel.shape)}.")
        bind = self._binding
        if bind.is_fixed_base:
            return
        parent_quat = wp.to_torch(NewtonManager.get_model().joint_X_p)[bind.root_joint[envs], 3:].to(self.device)
        local = torch.cat(
            (quat_apply_inverse(parent_quat, vel[:, :3]), quat_apply_inverse(parent_quat, vel[:, 3:])), -1
        )
        qd = torch_view(NewtonManager.get_state_0().joint_qd)
        cols = bind.root_dof[envs][:, None] + torch.arange(6, device=self.device)[None, :]
        qd[cols] = local

    # -- wrenches --------------------------------------------------------------------------------------

    def _external_wrench(self) -> wp.array | None:
        """The manager's wrench buffer, or ``None`` when the solver ignores ``State.body_f``."""
        try:
            return NewtonManager.get_external_wrench()
        except RuntimeError:
            return None

    def _apply_wrenches(self) -> None:
        """Sum both composers into the bodies' rows of the external wrench buffer (world frame, at the CoM)."""
        composers = [c for c in (self._permanent_wrench_composer, self._instantaneous_wrench_composer) if c.active]
        if not composers and not self._wrench_rows_written:
            return
        wrench = self._external_wrench()
        if wrench is None:
            if composers:
                raise RuntimeError(
                    f"{type(NewtonManager.get_solver()).__name__} ignores external wrenches; pick a solver that reads"
                    " State.body_f (MuJoCo Warp, XPBD) to use the wrench composers."
                )
            return
        total = torch.zeros((*self._binding.body_indices.shape, 6), device=self.device)
        quat = self._data.body_link_quat_w.torch
        for composer in composers:
            force, torque, is_global = composer.get_forces_and_torques()
            force, torque = wp.to_torch(force), wp.to_torch(torque)
            if not is_global:
                force, torque = quat_apply(quat, force), quat_apply(quat, torque)
            total[..., :3] += force
            total[..., 3:] += torque
        torch_view(wrench)[self._binding.body_indices] = total
        self._wrench_rows_written = bool(composers)
        self._instantaneous_wrench_composer.reset()


class CheckedWrenchComposer(WrenchComposer):
    """Core's wrench composer whose four writers check forces, torques and positions before launching.

    Index writes need ``(len(env_ids), len(body_ids), 3)`` float32 values, mask writes ``(num_envs, num_bodies, 3)``;
    anything else raises (see :func:`~.write_checks.checked_tensor`) instead of reading past the value.
    """

    def _check(self, values: dict, rows: int, cols: int, where: str) -> None:
        for name, value in values.items():
            if value is not None:
                checked_tensor(
                    value,
                    (rows, cols, 3),
                    name=name,
                    where=f"{type(self._asset).__name__} wrench composer {where}",
                    device=self.device,
                    allow_scalar=False,
                )

    def _index_sizes(self, body_ids, env_ids) -> tuple[int, int]:
        envs, bodies = self._resolve_env_ids(env_ids), self._resolve_body_ids(body_ids)
        return len(envs), len(bodies)

    def add_forces_and_torques_index(
        self, forces=None, torques=None, positions=None, body_ids=None, env_ids=None, is_global: bool = False
    ):
        """Check shapes and dtypes, then add (see :meth:`WrenchComposer.add_forces_and_torques_index`)."""
        rows, cols = self._index_sizes(body_ids, env_ids)
        values = {"forces": forces, "torques": torques, "positions": positions}
        self._check(values, rows, cols, "add_forces_and_torques_index")
        super().add_forces_and_torques_index(forces, torques, positions, body_ids, env_ids, is_global)

    def set_forces_and_torques_index(
        self, forces=None, torques=None, positions=None, body_ids=None, env_ids=None, is_global: bool = False
    ):
        """Check shapes and dtypes, then set (see :meth:`WrenchComposer.set_forces_and_torques_index`)."""
        rows, cols = self._index_sizes(body_ids, env_ids)
        values = {"forces": forces, "torques": torques, "positions": positions}
        self._check(values, rows, cols, "set_forces_and_torques_index")
        super().set_forces_and_torques_index(forces, torques, positions, body_ids, env_ids, is_global)

    def add_forces_and_torques_mask(
        self, forces=None, torques=None, positions=None, body_mask=None, env_mask=None, is_global: bool = False
    ):
        """Check full-sized shapes and dtypes, then add (see :meth:`WrenchComposer.add_forces_and_torques_mask`)."""
        values = {"forces": forces, "torques": torques, "positions": positions}
        self._check(values, self.num_envs, self.num_bodies, "add_forces_and_torques_mask")
        super().add_forces_and_torques_mask(forces, torques, positions, body_mask, env_mask, is_global)

    def set_forces_and_torques_mask(
        self, forces=None, torques=None, positions=None, body_mask=None, env_mask=None, is_global: bool = False
    ):
        """Check full-sized shapes and dtypes, then set (see :meth:`WrenchComposer.set_forces_and_torques_mask`)."""
        values = {"forces": forces, "torques": torques, "positions": positions}
        self._check(values, self.num_envs, self.num_bodies, "set_forces_and_torques_mask")
        super().set_forces_and_torques_mask(forces, torques, positions, body_mask, env_mask, is_global)


def transform_mul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Compose poses ``a * b``, each (N, 7) as (pos [m], quat xyzw)."""
    return torch.cat((a[:, :3] + quat_apply(a[:, 3:], b[:, :3]), quat_mul(a[:, 3:], b[:, 3:])), -1)


def transform_inv(a: torch.Tensor) -> torch.Tensor:
    """Inverse of poses (N, 7) as (pos [m], quat xyzw)."""
    inv_q = quat_inv(a[:, 3:])
    return torch.cat((-quat_apply(inv_q, a[:, :3]), inv_q), -1)
