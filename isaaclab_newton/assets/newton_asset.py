"""Behaviour shared by Newton's rigid-body assets: index resolution, root writes, resets and wrenches."""

from __future__ import annotations

import newton
import torch
import warp as wp
from isaaclab.utils.math import quat_apply, quat_inv, quat_mul
from isaaclab.utils.warp import ProxyArray
from isaaclab.utils.wrench_composer import WrenchComposer

from ..physics import NewtonManager
from .binding import ArticulationBinding, torch_view
from .index_cache import Ids, IndexResolver
from .state_writes import EntryTable, FkMarks, RootJoints, clear_rows, write_root_pose, write_root_twist
from .write_checks import check_selection_size, checked_tensor


class NewtonAssetBase:
    """Index resolution, per-env reset and external wrenches of Newton assets.

    Needs ``self._binding`` (``num_instances``, ``body_names``, ``body_indices`` (N, B), ``world_ids``,
    ``articulation_ids``), ``self._data`` (with ``body_link_quat_w``) and ``self.device``.
    """

    # -- setup -----------------------------------------------------------------------------------------

    def _init_common(self) -> None:
        """Index helpers and wrench composers; call once the binding and data exist."""
        bind = self._binding
        n = bind.num_instances
        self._env_index = IndexResolver(n, self.device, what=f"{type(self).__name__} env_ids")
        self._shape_limits: tuple[tuple[str, int], ...] | None = None  # filled on the first command write
        self._ALL_INDICES = self._env_index.all_ids
        self._all_envs = self._env_index.all_ids_torch
        self._root_joint_arrays: RootJoints | None = None  # made on the first root write
        self._body_table: EntryTable | None = None  # made on the first wrench clear
        self._body_index = IndexResolver(len(bind.body_names), self.device, what=f"{type(self).__name__} body_ids")
        self._all_bodies = self._body_index.all_ids_torch
        model_device = str(NewtonManager.get_model().device)
        self._articulations_t = torch.as_tensor(bind.articulation_ids, dtype=torch.int32, device=model_device)
        self._articulations_wp = wp.from_torch(self._articulations_t, dtype=wp.int32)
        self._fk_marks_cache: FkMarks | None = None
        self._worlds_t = bind.world_ids.to(device=model_device, dtype=torch.int32).contiguous()
        self._worlds_wp = wp.from_torch(self._worlds_t, dtype=wp.int32)
        self._permanent_wrench_composer = CheckedWrenchComposer(self)
        self._instantaneous_wrench_composer = CheckedWrenchComposer(self)
        self._wrench_rows_written = False
        self._wrench_total = torch.zeros((*bind.body_indices.shape, 6), device=self.device)

    @property
    def root_view(self) -> ArticulationBinding:
        """The backend's root handle: the :class:`ArticulationBinding` index maps into Newton's flat arrays.

        Rows are the prim's instances in the manager's scene index, in world order.
        """
        return self._binding

    @property
    def permanent_wrench_composer(self) -> WrenchComposer:
        """Wrenches applied on every step until changed or reset."""
        return self._permanent_wrench_composer

    @property
    def instantaneous_wrench_composer(self) -> WrenchComposer:
        """Wrenches applied on the next step only (cleared after :meth:`write_data_to_sim`)."""
        return self._instantaneous_wrench_composer

    # -- index resolution ------------------------------------------------------------------------------
    # Index writes select rows (``env_ids``); mask writes take full-sized values and blend them in under the mask,
    # so neither path reads device data back to the host.

    def _bool_tensor(self, mask: wp.array | torch.Tensor | ProxyArray, count: int, name: str) -> torch.Tensor:
        """``mask`` as a ``(count,)`` bool tensor on the asset's device; shape and dtype are checked on the host.

        Raises:
            ValueError: If ``mask`` is not a bool mask of shape ``(count,)`` (a short mask would be read past its end
                by the write kernels, an integer one would be cast silently).
        """
        if isinstance(mask, ProxyArray):
            mask = mask.warp
        tensor = mask if isinstance(mask, torch.Tensor) else wp.to_torch(mask)
        if tuple(tensor.shape) != (count,) or tensor.dtype != torch.bool:
            raise ValueError(
                f"{type(self).__name__}: {name} must be a bool mask of shape ({count},), got {tensor.dtype} of shape"
                f" {tuple(tensor.shape)}; pass ids instead of a mask to select a subset."
            )
        return tensor.to(device=self.device)

    def _rows(self, env_ids: Ids, env_mask) -> tuple[torch.Tensor, torch.Tensor | None]:
        """The env rows a write covers and, for mask writes, the boolean selection over them (all rows)."""
        if env_mask is not None:
            return self._all_envs, self._bool_tensor(env_mask, self._all_envs.shape[0], "env_mask")
        return self._env_index.resolve_torch(env_ids), None

    def _resolve_env_ids(self, env_ids: Ids) -> wp.array:
        """Env selector as an int32 Warp array; conversions of repeated selectors are cached."""
        return self._env_index.resolve(env_ids)

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
        limits = self._shape_axis_limits()
        sizes = axis_sizes or shape
        trailing = self._DTYPE_TO_TORCH_TRAILING_DIMS.get(dtype, ())
        if (
            type(tensor) is torch.Tensor
            and dtype is wp.float32
            and tensor.dtype is torch.float32
            and tensor.shape == (*shape, *trailing)
            and all(size <= limit for size, (_, limit) in zip(sizes, limits, strict=False))
        ):
            return  # the common case, decided without building messages; the checks below raise otherwise
        where = f"{type(self).__name__} command write"
        for size, (axis, limit) in zip(sizes, limits, strict=False):
            check_selection_size(size, limit, axis=axis, where=where, name=name)
        if isinstance(tensor, wp.array) and tensor.dtype != dtype:
            raise TypeError(
                f"{where}: '{name}' is a Warp array of dtype {wp.types.type_repr(tensor.dtype)}; pass"
                f" {wp.types.type_repr(dtype)}."
            )
        checked_tensor(tensor, (*shape, *trailing), name=name, where=where, device=self.device)

    def _shape_axis_limits(self) -> tuple[tuple[str, int], ...]:
        """(axis name, size) of the axes a command selection indexes; the sizes are fixed once initialized."""
        limits = self._shape_limits
        if limits is None:
            limits = self._shape_limits = tuple((axis, getattr(self, name)) for axis, name in self._SHAPE_AXIS_LIMITS)
        return limits

    def assert_shape_and_dtype_mask(self, tensor, masks, dtype, name: str = "", trailing_dims=()) -> None:
        """Mask variant of :meth:`assert_shape_and_dtype`: the value is full-sized over every mask."""
        shape = (*tuple(m.shape[0] for m in masks), *trailing_dims)
        self.assert_shape_and_dtype(tensor, shape, dtype, name)

    @staticmethod
    def _scatter(target: torch.Tensor, index: torch.Tensor, value, mask: torch.Tensor | None) -> None:
        """``target[index] = value``, keeping ``target`` where ``mask`` (over the leading axes of ``index``) is off."""
        if mask is None:
            target[index] = value
            return
        keep = mask.reshape(*mask.shape, *([1] * (index.dim() + target.dim() - 1 - mask.dim())))
        target[index] = torch.where(keep, value, target[index])

    def _fk_marks(self) -> FkMarks | None:
        """Where this asset's write kernels queue the FK of the rows they write (``None`` without a model)."""
        mask = NewtonManager.queued_fk_mask()
        cached = self._fk_marks_cache
        if cached is None or cached.mask is not mask:
            cached = self._fk_marks_cache = None if mask is None else FkMarks(self._articulations_wp, mask)
        return cached

    # -- resets ----------------------------------------------------------------------------------------

    def _reset_worlds(self, rows: torch.Tensor, mask: torch.Tensor | None) -> None:
        """Clear the envs' wrenches and reset their worlds: solver internals, joint state to model defaults.

        The reset is applied at once, so that the env's reset events write their randomized states on top of it;
        the FK of the reset worlds stays queued and runs with that of those writes (before the next step or read).
        """
        if mask is None:
            env_ids = wp.from_torch(rows.to(torch.int32).contiguous(), dtype=wp.int32)
            self._permanent_wrench_composer.reset(env_ids=env_ids)
            self._instantaneous_wrench_composer.reset(env_ids=env_ids)
        else:
            env_mask = wp.from_torch(mask.contiguous(), dtype=wp.bool)
            self._permanent_wrench_composer.reset(env_mask=env_mask)
            self._instantaneous_wrench_composer.reset(env_mask=env_mask)
        wrench = self._external_wrench()
        if wrench is not None:
            if self._body_table is None:
                self._body_table = EntryTable.from_indices(self._binding.body_indices)
            every_row = mask is not None or rows is self._all_envs
            clear_rows(self._body_table, wrench, rows=None if every_row else rows, mask=mask)
        device = self._worlds_t.device
        if mask is None:
            worlds = self._worlds_t[rows.to(device)].contiguous()
            NewtonManager.request_world_reset(wp.from_torch(worlds, dtype=wp.int32))
        else:
            select = wp.from_torch(mask.to(device).contiguous(), dtype=wp.bool)
            NewtonManager.request_world_reset(self._worlds_wp, select=select)
        NewtonManager.apply_world_resets()

    # -- wrenches --------------------------------------------------------------------------------------

    def _external_wrench(self) -> wp.array | None:
        """The manager's wrench buffer, or ``None`` when the solver ignores ``State.body_f``."""
        try:
            return NewtonManager.get_external_wrench()
        except RuntimeError:
            return None

    def _active_composers(self) -> list[WrenchComposer]:
        """The wrench composers holding wrenches (a host-side flag each)."""
        return [c for c in (self._permanent_wrench_composer, self._instantaneous_wrench_composer) if c.active]

    def _apply_wrenches(self) -> None:
        """Sum both composers into the bodies' rows of the external wrench buffer (world frame, at the CoM)."""
        composers = self._active_composers()
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
        torch_view(wrench)[self._binding.body_indices] = self._sum_composers(composers)
        self._wrench_rows_written = bool(composers)
        self._instantaneous_wrench_composer.reset()

    def _sum_composers(self, composers: list[WrenchComposer]) -> torch.Tensor:
        """The composers' wrenches summed per env and body (world frame, at the CoM) in a reused buffer."""
        total = self._wrench_total
        total.zero_()
        quat = self._data.body_link_quat_w.torch
        for composer in composers:
            force, torque, is_global = composer.get_forces_and_torques()
            force, torque = wp.to_torch(force), wp.to_torch(torque)
            if not is_global:
                force, torque = quat_apply(quat, force), quat_apply(quat, torque)
            total[..., :3] += force
            total[..., 3:] += torque
        return total


class NewtonAssetMixin(NewtonAssetBase):
    """Root-state writes of single-root assets bound by an ``ArticulationBinding`` (see :class:`NewtonAssetBase`).

    Poses are (x, y, z [m], qx, qy, qz, qw) in the world frame; velocities are (linear [m/s], angular [rad/s])
    in the world frame. ``root_pose``/``root_link_pose`` is the root body's frame, ``root_com_pose`` its center
    of mass; ``root_velocity``/``root_com_velocity`` is the center-of-mass twist, ``root_link_velocity`` the
    twist of the body frame's origin. Wrenches from the permanent and instantaneous composers are applied at
    the centers of mass through :meth:`NewtonManager.get_external_wrench`.
    """

    # -- root writes -----------------------------------------------------------------------------------
    # A write queues the forward kinematics of the written worlds (masked; it runs before the next step or body
    # read) and marks cached data stale. ``skip_forward=True`` (core's "skip invalidating cached data") does
    # neither: reads return the cached values and body state stays that of the old coordinates until the caller
    # invalidates, with a later write of the same envs without ``skip_forward`` or ``NewtonManager.forward()``.

    def write_root_pose_to_sim_index(self, *, root_pose, env_ids: Ids = None, skip_forward: bool = False) -> None:
        """Write root body poses (world frame) of the selected envs; see the class docstring for conventions.

        A fixed base moves its fixed root joint's parent frame (the solver is notified of the model change);
        a free root sets the free joint's coordinates.
        """
        rows, mask = self._rows(env_ids, None)
        pose = self._root_value(root_pose, rows, 7, "root_pose", "write_root_pose_to_sim_index")
        self._write_root_link_pose(pose, rows, mask, skip_forward=skip_forward)

    def write_root_pose_to_sim_mask(self, *, root_pose, env_mask=None, skip_forward: bool = False) -> None:
        """Mask variant of :meth:`write_root_pose_to_sim_index` (full-sized ``root_pose``)."""
        rows, mask = self._rows(None, env_mask)
        pose = self._root_value(root_pose, rows, 7, "root_pose", "write_root_pose_to_sim_mask")
        self._write_root_link_pose(pose, rows, mask, skip_forward=skip_forward)

    write_root_link_pose_to_sim_index = write_root_pose_to_sim_index
    write_root_link_pose_to_sim_mask = write_root_pose_to_sim_mask

    def write_root_com_pose_to_sim_index(self, *, root_pose, env_ids: Ids = None, skip_forward: bool = False) -> None:
        """Write root center-of-mass poses (world frame): the body frame is placed so its CoM lands there."""
        rows, mask = self._rows(env_ids, None)
        pose = self._root_value(root_pose, rows, 7, "root_pose", "write_root_com_pose_to_sim_index")
        self._write_root_link_pose(self._com_to_link_pose(pose, rows), rows, mask, skip_forward=skip_forward)

    def write_root_com_pose_to_sim_mask(self, *, root_pose, env_mask=None, skip_forward: bool = False) -> None:
        """Mask variant of :meth:`write_root_com_pose_to_sim_index`."""
        rows, mask = self._rows(None, env_mask)
        pose = self._root_value(root_pose, rows, 7, "root_pose", "write_root_com_pose_to_sim_mask")
        self._write_root_link_pose(self._com_to_link_pose(pose, rows), rows, mask, skip_forward=skip_forward)

    def write_root_velocity_to_sim_index(self, *, root_velocity, env_ids: Ids = None, skip_forward=False) -> None:
        """Write root center-of-mass twists (world frame). A fixed base cannot move: only the shape is checked."""
        rows, mask = self._rows(env_ids, None)
        vel = self._root_value(root_velocity, rows, 6, "root_velocity", "write_root_velocity_to_sim_index")
        self._write_root_com_velocity(vel, rows, mask, skip_forward=skip_forward)

    def write_root_velocity_to_sim_mask(self, *, root_velocity, env_mask=None, skip_forward=False) -> None:
        """Mask variant of :meth:`write_root_velocity_to_sim_index`."""
        rows, mask = self._rows(None, env_mask)
        vel = self._root_value(root_velocity, rows, 6, "root_velocity", "write_root_velocity_to_sim_mask")
        self._write_root_com_velocity(vel, rows, mask, skip_forward=skip_forward)

    write_root_com_velocity_to_sim_index = write_root_velocity_to_sim_index
    write_root_com_velocity_to_sim_mask = write_root_velocity_to_sim_mask

    def write_root_link_velocity_to_sim_index(self, *, root_velocity, env_ids: Ids = None, skip_forward=False) -> None:
        """Write twists of the root body frame's origin (world frame), converted to center-of-mass twists."""
        rows, mask = self._rows(env_ids, None)
        vel = self._root_value(root_velocity, rows, 6, "root_velocity", "write_root_link_velocity_to_sim_index")
        self._write_root_com_velocity(self._link_to_com_velocity(vel, rows), rows, mask, skip_forward=skip_forward)

    def write_root_link_velocity_to_sim_mask(self, *, root_velocity, env_mask=None, skip_forward=False) -> None:
        """Mask variant of :meth:`write_root_link_velocity_to_sim_index`."""
        rows, mask = self._rows(None, env_mask)
        vel = self._root_value(root_velocity, rows, 6, "root_velocity", "write_root_link_velocity_to_sim_mask")
        self._write_root_com_velocity(self._link_to_com_velocity(vel, rows), rows, mask, skip_forward=skip_forward)

    def write_root_state_to_sim(self, root_state, env_ids: Ids = None) -> None:
        """Write (N, 13) states: root body pose (7) and center-of-mass twist (6)."""
        state = self._root_value(root_state, self._rows(env_ids, None)[0], 13, "root_state", "write_root_state_to_sim")
        self.write_root_pose_to_sim_index(root_pose=state[:, :7], env_ids=env_ids)
        self.write_root_velocity_to_sim_index(root_velocity=state[:, 7:], env_ids=env_ids)

    def write_root_link_state_to_sim(self, root_state, env_ids: Ids = None) -> None:
        """Write (N, 13) states: root body pose (7) and body-origin twist (6)."""
        rows = self._rows(env_ids, None)[0]
        state = self._root_value(root_state, rows, 13, "root_state", "write_root_link_state_to_sim")
        self.write_root_pose_to_sim_index(root_pose=state[:, :7], env_ids=env_ids)
        self.write_root_link_velocity_to_sim_index(root_velocity=state[:, 7:], env_ids=env_ids)

    def write_root_com_state_to_sim(self, root_state, env_ids: Ids = None) -> None:
        """Write (N, 13) states: center-of-mass pose (7) and center-of-mass twist (6)."""
        rows = self._rows(env_ids, None)[0]
        state = self._root_value(root_state, rows, 13, "root_state", "write_root_com_state_to_sim")
        self.write_root_com_pose_to_sim_index(root_pose=state[:, :7], env_ids=env_ids)
        self.write_root_velocity_to_sim_index(root_velocity=state[:, 7:], env_ids=env_ids)

    def _root_value(self, value, rows: torch.Tensor, width: int, name: str, where: str) -> torch.Tensor:
        """A root write's value checked to shape (len(rows), width): every selected row, or all rows for masks."""
        return self._checked(value, (rows.shape[0], width), name, where, allow_scalar=False)

    def _root_com_offset(self, rows: torch.Tensor) -> torch.Tensor:
        """Center of mass of the root body in its body frame [m], shape (len(rows), 3)."""
        return self._data.body_com_pos_b.torch[rows, 0]

    def _com_to_link_pose(self, pose: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
        quat = pose[:, 3:]
        return torch.cat((pose[:, :3] - quat_apply(quat, self._root_com_offset(rows)), quat), -1)

    def _link_to_com_velocity(self, vel: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
        quat = self._data.root_link_quat_w.torch[rows]
        arm = quat_apply(quat, self._root_com_offset(rows))
        return torch.cat((vel[:, :3] + torch.cross(vel[:, 3:], arm, dim=-1), vel[:, 3:]), -1)

    @property
    def _root_joints(self) -> RootJoints:
        """The per-env root joint indices the root write kernels take (int32 Warp arrays)."""
        if self._root_joint_arrays is None:
            bind = self._binding
            self._root_joint_arrays = RootJoints.from_binding(bind.root_joint, bind.root_coord, bind.root_dof)
        return self._root_joint_arrays

    def _write_root_link_pose(
        self, pose: torch.Tensor, rows: torch.Tensor, mask: torch.Tensor | None, *, skip_forward: bool
    ) -> None:
        bind = self._binding
        model = NewtonManager.get_model()
        write_root_pose(
            self._root_joints,
            pose,
            rows,
            mask,
            fixed=bind.is_fixed_base,
            joint_X_c=model.joint_X_c,
            joint_X_p=model.joint_X_p,
            joint_q=NewtonManager.get_state_0().joint_q,
            fk=None if skip_forward else self._fk_marks(),
        )
        if bind.is_fixed_base:
            solver = NewtonManager.get_solver()
            if solver is not None:
                solver.notify_model_changed(newton.ModelFlags.JOINT_PROPERTIES)
        if not skip_forward:
            NewtonManager.note_state_write(fk_queued=True)

    def _write_root_com_velocity(
        self, vel: torch.Tensor, rows: torch.Tensor, mask: torch.Tensor | None, *, skip_forward: bool
    ) -> None:
        if self._binding.is_fixed_base:
            return
        write_root_twist(
            self._root_joints,
            vel,
            rows,
            mask,
            joint_X_p=NewtonManager.get_model().joint_X_p,
            joint_qd=NewtonManager.get_state_0().joint_qd,
            fk=None if skip_forward else self._fk_marks(),
        )
        if not skip_forward:
            NewtonManager.note_state_write(fk_queued=True)


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
