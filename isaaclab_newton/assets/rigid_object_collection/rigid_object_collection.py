"""Isaac Lab ``RigidObjectCollection`` on Newton: K free rigid bodies per environment, addressed as (env, object)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
import warp as wp
from isaaclab.assets.asset import Asset
from isaaclab.assets.rigid_object_collection.base_rigid_object_collection import BaseRigidObjectCollection
from isaaclab.utils.math import quat_apply, quat_apply_inverse
from isaaclab.utils.string import resolve_matching_names
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from ..binding import torch_view
from ..body_properties import BodyPropertyWrites
from ..newton_asset import Ids, NewtonAssetBase, transform_inv, transform_mul
from ..unsupported import mark_unsupported
from .binding import CollectionBinding
from .rigid_object_collection_data import RigidObjectCollectionData

if TYPE_CHECKING:
    from isaaclab.assets.rigid_object_collection.rigid_object_collection_cfg import RigidObjectCollectionCfg


class RigidObjectCollection(BodyPropertyWrites, NewtonAssetBase, BaseRigidObjectCollection):
    """The objects of ``cfg.rigid_objects`` (each one free rigid body) in every environment, simulated by Newton.

    Writes take (len(env_ids), len(body_ids), 7 or 6) arrays in the world frame and set the objects' free-joint
    coordinates; ``body_pose``/``body_link_pose`` is the body frame, ``body_com_pose`` the center of mass;
    ``body_velocity``/``body_com_velocity`` is the center-of-mass twist, ``body_link_velocity`` the twist of the
    body frame's origin. Per-env resets reset the env's solver world.
    """

    cfg: RigidObjectCollectionCfg

    def __init__(self, cfg: RigidObjectCollectionCfg):
        """Author every object's prim (core's :class:`~isaaclab.assets.Asset` spawns it) and register the
        physics lifecycle callbacks that initialize the collection on ``sim.reset()``.

        Args:
            cfg: The collection configuration.
        """
        super().__init__(cfg)
        self.cfg = cfg.copy()
        for object_cfg in self.cfg.rigid_objects.values():
            Asset(object_cfg)
        self._check_shapes = __debug__
        self._is_initialized = False
        self._debug_vis_handle = None
        self._data: RigidObjectCollectionData | None = None
        self._binding: CollectionBinding | None = None
        self._register_callbacks()

    @property
    def data(self) -> RigidObjectCollectionData:
        """Runtime data (valid after ``sim.reset()``)."""
        return self._data

    @property
    def num_instances(self) -> int:
        """Number of environments."""
        return self._binding.num_instances

    @property
    def num_bodies(self) -> int:
        """Number of objects per environment."""
        return len(self._binding.body_names)

    @property
    def body_names(self) -> list[str]:
        """Object names (the keys of ``cfg.rigid_objects``), in column order."""
        return list(self._binding.body_names)

    def find_bodies(
        self, name_keys: str | Sequence[str], preserve_order: bool = False, *, as_proxy: bool = False
    ) -> tuple[torch.Tensor | ProxyArray, list[str]]:
        """Find objects by regular expressions over their names."""
        ids, names = resolve_matching_names(name_keys, self.body_names, preserve_order)
        if as_proxy:
            return ProxyArray(wp.array(np.asarray(ids, dtype=np.int32), dtype=wp.int32, device=self.device)), names
        return torch.as_tensor(ids, dtype=torch.int32, device=self.device), names

    def reset(self, env_ids: Ids = None, object_ids: slice | torch.Tensor | None = None, env_mask=None) -> None:
        """Clear the envs' wrenches and reset their solver worlds (all objects of the env are reset together).

        Raises:
            ValueError: If ``object_ids`` selects a subset of the objects (worlds reset as a whole).
        """
        if object_ids is not None and len(self._body_index.resolve_torch(object_ids)) != self.num_bodies:
            raise ValueError("RigidObjectCollection.reset() resets whole environments; pass object_ids=None.")
        self._reset_worlds(*self._rows(env_ids, env_mask))

    def write_data_to_sim(self) -> None:
        """Apply the composed wrenches."""
        self._apply_wrenches()

    def update(self, dt: float) -> None:
        """Refresh data buffers after a physics step of ``dt`` [s]."""
        self._data.update(dt)

    # -- writes ----------------------------------------------------------------------------------------
    # Index writes take (len(env_ids), len(body_ids), ...) values; mask writes take full-sized values and blend them
    # in under the env and body masks (no host reads). Forward kinematics of the written worlds is queued and cached
    # data marked stale; ``skip_forward=True`` does neither (see the root writes of NewtonAssetMixin).

    def write_body_pose_to_sim_index(self, *, body_poses, body_ids=None, env_ids=None, skip_forward=False) -> None:
        """Write body-frame poses (world frame) of the selected envs and objects."""
        rows, mask = self._rows(env_ids, None)
        objs = self._objs(body_ids, None)
        pose = self._body_value(body_poses, rows, objs, 7, "body_poses", "write_body_pose_to_sim_index")
        self._write_link_pose(pose, rows, mask, objs, skip_forward=skip_forward)

    def write_body_pose_to_sim_mask(self, *, body_poses, body_mask=None, env_mask=None, skip_forward=False) -> None:
        """Mask variant of :meth:`write_body_pose_to_sim_index` (full-sized ``body_poses``)."""
        rows, mask = self._rows(None, env_mask)
        objs = self._objs(None, body_mask)
        pose = self._body_value(body_poses, rows, objs, 7, "body_poses", "write_body_pose_to_sim_mask")
        self._write_link_pose(pose, rows, mask, objs, skip_forward=skip_forward)

    write_body_link_pose_to_sim_index = write_body_pose_to_sim_index
    write_body_link_pose_to_sim_mask = write_body_pose_to_sim_mask

    def write_body_com_pose_to_sim_index(self, *, body_poses, body_ids=None, env_ids=None, skip_forward=False):
        """Write center-of-mass poses (world frame): each body frame is placed so its CoM lands there."""
        rows, mask = self._rows(env_ids, None)
        objs = self._objs(body_ids, None)
        pose = self._body_value(body_poses, rows, objs, 7, "body_poses", "write_body_com_pose_to_sim_index")
        self._write_link_pose(self._com_to_link_pose(pose, rows, objs[0]), rows, mask, objs, skip_forward=skip_forward)

    def write_body_com_pose_to_sim_mask(self, *, body_poses, body_mask=None, env_mask=None, skip_forward=False):
        """Mask variant of :meth:`write_body_com_pose_to_sim_index`."""
        rows, mask = self._rows(None, env_mask)
        objs = self._objs(None, body_mask)
        pose = self._body_value(body_poses, rows, objs, 7, "body_poses", "write_body_com_pose_to_sim_mask")
        self._write_link_pose(self._com_to_link_pose(pose, rows, objs[0]), rows, mask, objs, skip_forward=skip_forward)

    def write_body_velocity_to_sim_index(self, *, body_velocities, body_ids=None, env_ids=None, skip_forward=False):
        """Write center-of-mass twists (world frame) of the selected envs and objects."""
        rows, mask = self._rows(env_ids, None)
        objs = self._objs(body_ids, None)
        vel = self._body_value(body_velocities, rows, objs, 6, "body_velocities", "write_body_velocity_to_sim_index")
        self._write_com_velocity(vel, rows, mask, objs, skip_forward=skip_forward)

    def write_body_velocity_to_sim_mask(self, *, body_velocities, body_mask=None, env_mask=None, skip_forward=False):
        """Mask variant of :meth:`write_body_velocity_to_sim_index`."""
        rows, mask = self._rows(None, env_mask)
        objs = self._objs(None, body_mask)
        vel = self._body_value(body_velocities, rows, objs, 6, "body_velocities", "write_body_velocity_to_sim_mask")
        self._write_com_velocity(vel, rows, mask, objs, skip_forward=skip_forward)

    write_body_com_velocity_to_sim_index = write_body_velocity_to_sim_index
    write_body_com_velocity_to_sim_mask = write_body_velocity_to_sim_mask

    def write_body_link_velocity_to_sim_index(
        self, *, body_velocities, body_ids=None, env_ids=None, skip_forward=False
    ):
        """Write twists of the body frame origins (world frame), converted to center-of-mass twists."""
        rows, mask = self._rows(env_ids, None)
        objs = self._objs(body_ids, None)
        where = "write_body_link_velocity_to_sim_index"
        vel = self._link_to_com_velocity(
            self._body_value(body_velocities, rows, objs, 6, "body_velocities", where), rows, objs[0]
        )
        self._write_com_velocity(vel, rows, mask, objs, skip_forward=skip_forward)

    def write_body_link_velocity_to_sim_mask(
        self, *, body_velocities, body_mask=None, env_mask=None, skip_forward=False
    ):
        """Mask variant of :meth:`write_body_link_velocity_to_sim_index`."""
        rows, mask = self._rows(None, env_mask)
        objs = self._objs(None, body_mask)
        where = "write_body_link_velocity_to_sim_mask"
        vel = self._link_to_com_velocity(
            self._body_value(body_velocities, rows, objs, 6, "body_velocities", where), rows, objs[0]
        )
        self._write_com_velocity(vel, rows, mask, objs, skip_forward=skip_forward)

    def write_body_state_to_sim(self, body_states, env_ids=None, body_ids=None) -> None:
        """Write (E, B, 13) states: body-frame pose (7) and center-of-mass twist (6)."""
        state = self._state_value(body_states, env_ids, body_ids, "write_body_state_to_sim")
        self.write_body_pose_to_sim_index(body_poses=state[..., :7], env_ids=env_ids, body_ids=body_ids)
        self.write_body_velocity_to_sim_index(body_velocities=state[..., 7:], env_ids=env_ids, body_ids=body_ids)

    def write_body_com_state_to_sim(self, body_states, env_ids=None, body_ids=None) -> None:
        """Write (E, B, 13) states: center-of-mass pose (7) and twist (6)."""
        state = self._state_value(body_states, env_ids, body_ids, "write_body_com_state_to_sim")
        self.write_body_com_pose_to_sim_index(body_poses=state[..., :7], env_ids=env_ids, body_ids=body_ids)
        self.write_body_velocity_to_sim_index(body_velocities=state[..., 7:], env_ids=env_ids, body_ids=body_ids)

    def write_body_link_state_to_sim(self, body_states, env_ids=None, body_ids=None) -> None:
        """Write (E, B, 13) states: body-frame pose (7) and body-origin twist (6)."""
        state = self._state_value(body_states, env_ids, body_ids, "write_body_link_state_to_sim")
        self.write_body_pose_to_sim_index(body_poses=state[..., :7], env_ids=env_ids, body_ids=body_ids)
        self.write_body_link_velocity_to_sim_index(body_velocities=state[..., 7:], env_ids=env_ids, body_ids=body_ids)

    # -- internals -------------------------------------------------------------------------------------

    def _initialize_impl(self) -> None:
        self._binding = CollectionBinding(self.cfg.rigid_objects, self.device)
        self._data = RigidObjectCollectionData(self._binding, self.device)
        self._init_common()
        self._process_cfg()
        self._create_buffers()

    def _process_cfg(self) -> None:
        n, k = self.num_instances, self.num_bodies
        poses, vels = [], []
        for cfg in self.cfg.rigid_objects.values():
            init = cfg.init_state
            poses.append(torch.tensor((*init.pos, *init.rot), dtype=torch.float32, device=self.device))
            vels.append(torch.tensor((*init.lin_vel, *init.ang_vel), dtype=torch.float32, device=self.device))
        self._data.set_default_body_states(
            torch.stack(poses)[None].expand(n, k, 7), torch.stack(vels)[None].expand(n, k, 6)
        )

    def _create_buffers(self) -> None:
        """All buffers live on :class:`RigidObjectCollectionData`."""

    def _invalidate_initialize_callback(self, event: Any) -> None:
        self._is_initialized = False

    def _objs(self, body_ids, body_mask) -> tuple[torch.Tensor, torch.Tensor | None]:
        """The object columns a write covers and, for mask writes, the boolean selection over them (all columns)."""
        if body_mask is not None:
            return self._all_bodies, self._bool_tensor(body_mask, self._all_bodies.shape[0], "body_mask")
        return self._body_index.resolve_torch(body_ids), None

    def _com_offset(self, rows: torch.Tensor, objs: torch.Tensor) -> torch.Tensor:
        return self._data.body_com_pos_b.torch[rows][:, objs]

    def _com_to_link_pose(self, pose: torch.Tensor, rows: torch.Tensor, objs: torch.Tensor) -> torch.Tensor:
        quat = pose[..., 3:]
        return torch.cat((pose[..., :3] - quat_apply(quat, self._com_offset(rows, objs)), quat), -1)

    def _link_to_com_velocity(self, vel: torch.Tensor, rows: torch.Tensor, objs: torch.Tensor) -> torch.Tensor:
        quat = self._data.body_link_quat_w.torch[rows][:, objs]
        arm = quat_apply(quat, self._com_offset(rows, objs))
        return torch.cat((vel[..., :3] + torch.cross(vel[..., 3:], arm, dim=-1), vel[..., 3:]), -1)

    def _selection(self, rows, mask, objs) -> torch.Tensor | None:
        """Combined (rows, objects) mask of a mask write, ``None`` for an index write."""
        objs, obj_mask = objs
        if mask is None and obj_mask is None:
            return None
        env_sel = mask if mask is not None else torch.ones(rows.shape[0], dtype=torch.bool, device=self.device)
        obj_sel = obj_mask if obj_mask is not None else torch.ones(objs.shape[0], dtype=torch.bool, device=self.device)
        return env_sel[:, None] & obj_sel[None, :]

    def _body_value(self, value, rows: torch.Tensor, objs, width: int, name: str, where: str) -> torch.Tensor:
        """A write's value checked to shape (len(rows), len(objects), width): float32, never broadcast."""
        return self._checked(value, (rows.shape[0], objs[0].shape[0], width), name, where, allow_scalar=False)

    def _state_value(self, value, env_ids, body_ids, where: str) -> torch.Tensor:
        """A (E, B, 13) state write checked against the selected envs and objects."""
        rows, _ = self._rows(env_ids, None)
        return self._body_value(value, rows, self._objs(body_ids, None), 13, "body_states", where)

    def _write_link_pose(self, pose, rows, mask, objs, *, skip_forward: bool) -> None:
        select = self._selection(rows, mask, objs)
        model = NewtonManager.get_model()
        joints = self._binding.root_joint[rows][:, objs[0]]
        x_c, x_p = torch_view(model.joint_X_c)[joints], torch_view(model.joint_X_p)[joints]
        coords = transform_mul(
            transform_inv(x_p.reshape(-1, 7)), transform_mul(pose.reshape(-1, 7), x_c.reshape(-1, 7))
        )
        cols = self._binding.root_coord[rows][:, objs[0], None] + torch.arange(7, device=self.device)
        self._scatter(torch_view(NewtonManager.get_state_0().joint_q), cols, coords.reshape(cols.shape), select)
        if not skip_forward:
            self._queue_fk(rows, mask)

    def _write_com_velocity(self, vel, rows, mask, objs, *, skip_forward: bool) -> None:
        select = self._selection(rows, mask, objs)
        joints = self._binding.root_joint[rows][:, objs[0]]
        parent_quat = torch_view(NewtonManager.get_model().joint_X_p)[joints, 3:]
        local = torch.cat(
            (quat_apply_inverse(parent_quat, vel[..., :3]), quat_apply_inverse(parent_quat, vel[..., 3:])), -1
        )
        cols = self._binding.root_dof[rows][:, objs[0], None] + torch.arange(6, device=self.device)
        self._scatter(torch_view(NewtonManager.get_state_0().joint_qd), cols, local, select)
        if not skip_forward:
            self._queue_fk(rows, mask)

    def _queue_fk(self, rows: torch.Tensor, mask: torch.Tensor | None) -> None:
        """Queue FK of every object articulation of ``rows`` (all objects; masks select rows)."""
        arts = self._articulations_t[rows.to(self._articulations_t.device)]
        if mask is None:
            NewtonManager.note_state_write(wp.from_torch(arts.reshape(-1).contiguous(), dtype=wp.int32))
            return
        select = mask.to(arts.device)[:, None].expand_as(arts).reshape(-1).contiguous()
        NewtonManager.note_state_write(
            wp.from_torch(arts.reshape(-1).contiguous(), dtype=wp.int32), select=wp.from_torch(select, dtype=wp.bool)
        )


mark_unsupported(RigidObjectCollection, sorted(BaseRigidObjectCollection.__abstractmethods__))
