"""Isaac Lab ``DeformableObject`` on Newton: a soft body or cloth of P particles in every environment."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import torch
import warp as wp
from isaaclab.assets.deformable_object.base_deformable_object import BaseDeformableObject
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from ..index_cache import Ids
from ..particle_rows import ParticleRowsMixin
from ..unsupported import mark_unsupported
from .deformable_object_data import DeformableObjectData
from .kernels import scatter_kinematic_target_kernel, scatter_state_kernel, scatter_vec3_kernel, vec6f
from .particle_index import deformable_particle_indices

if TYPE_CHECKING:
    from isaaclab.assets.deformable_object.deformable_object_cfg import DeformableObjectCfg


class DeformableObject(ParticleRowsMixin, BaseDeformableObject):
    """A deformable body (tetrahedral soft body or cloth) cloned into every Newton world.

    Spawn it with :class:`~isaaclab_newton.sim.SoftGridCfg`, :class:`~isaaclab_newton.sim.SoftMeshCfg`,
    :class:`~isaaclab_newton.sim.ClothGridCfg` or :class:`~isaaclab_newton.sim.ClothMeshCfg` and simulate it
    with VBD (alone or coupled). Nodal data is in the world frame.

    Kinematic targets: Newton has no kinematic-target API. A node whose target flag is 0 is pinned: its mass and
    inverse mass become zero and both simulation states get the target position at zero velocity, so the solver
    leaves it there; a flag of 1 restores the node's mass and lets it move. Pinned nodes do not track a moving
    target by themselves; write the target again whenever it moves.

    Per-env reset writes the default nodal state (the spawned rest shape) of only those envs into both states
    and resets their worlds' solver internals. Kinematic targets persist across resets.
    """

    cfg: DeformableObjectCfg
    __backend_name__: str = "newton"

    def __init__(self, cfg: DeformableObjectCfg):
        super().__init__(cfg)
        self._data: DeformableObjectData | None = None

    # -- properties ------------------------------------------------------------------------------------

    @property
    def data(self) -> DeformableObjectData:
        """Runtime data (valid after ``sim.reset()``)."""
        return self._data

    @property
    def num_bodies(self) -> int:
        """Always 1."""
        return 1

    @property
    def max_sim_vertices_per_body(self) -> int:
        """Nodes of the simulation mesh (the same in every env)."""
        return self._indices.shape[1]

    # -- operations ------------------------------------------------------------------------------------

    def reset(self, env_ids: Ids = None, env_mask: wp.array | None = None) -> None:
        """Restore the default nodal state of the selected envs and reset their worlds' solver internals.

        Args:
            env_ids: Environments to reset (default: all).
            env_mask: Boolean mask over environments, shape (N,) (alternative to ``env_ids``). The mask path reads
                nothing back to the host: it visits every env and writes the selected ones.
        """
        if env_mask is not None:
            # sync-free: every env's worlds and nodes are visited, the mask selects which are written
            select = self._select_from_mask(env_mask)
            NewtonManager.request_world_reset(self._world_ids, select=select)
            NewtonManager.update_kinematics()  # the solver resets first: they copy model defaults into the state
            self._scatter_state(self._data.default_nodal_state_w.warp, self._all_ids, full_data=True, select=select)
            self._data.mark_dirty()
            return
        ids = self._resolve_env_ids(env_ids)
        if ids.shape[0] == 0:
            return
        NewtonManager.request_world_reset(self._world_ids_of(ids))
        NewtonManager.update_kinematics()
        self._scatter_state(self._data.default_nodal_state_w.warp, ids, full_data=True)
        self._data.mark_dirty()

    def write_data_to_sim(self) -> None:
        """Nothing is buffered: nodal writes go to the simulation immediately."""

    def update(self, dt: float) -> None:
        """Advance the data's timestamp by ``dt`` [s] (buffers refresh on the first read after a state change)."""
        self._data.update(dt)

    def write_nodal_state_to_sim_index(self, nodal_state, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write nodal states (x, y, z [m], vx, vy, vz [m/s]), shape (len(env_ids) or N, P, 6), into both states."""
        ids = self._resolve_env_ids(env_ids)
        values = self._as_torch(nodal_state)
        self._check_shape(values, ids, full_data, 6, "nodal_state")
        self._scatter_state(wp.from_torch(values.contiguous(), dtype=vec6f), ids, full_data=full_data)
        self._data.mark_dirty()

    def write_nodal_pos_to_sim_index(self, nodal_pos, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write nodal positions, world frame [m], shape (len(env_ids) or N, P, 3), into both states."""
        self._scatter(self._as_torch(nodal_pos), self._resolve_env_ids(env_ids), full_data, target="particle_q")
        self._data.mark_dirty()

    def write_nodal_velocity_to_sim_index(self, nodal_vel, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write nodal velocities, world frame [m/s], shape (len(env_ids) or N, P, 3), into both states."""
        self._scatter(self._as_torch(nodal_vel), self._resolve_env_ids(env_ids), full_data, target="particle_qd")
        self._data.mark_dirty()

    def write_nodal_kinematic_target_to_sim_index(self, targets, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write (x, y, z [m], flag) targets, shape (len(env_ids) or N, P, 4); flag 0 pins a node, 1 frees it.

        See the class docstring for how pinning works on Newton.
        """
        ids = self._resolve_env_ids(env_ids)
        values = self._as_torch(targets)
        self._check_shape(values, ids, full_data, 4, "targets")
        model = NewtonManager.get_model()
        s0, s1 = NewtonManager.get_state_0(), NewtonManager.get_state_1()
        wp.launch(
            scatter_kinematic_target_kernel,
            dim=(ids.shape[0], self.max_sim_vertices_per_body),
            inputs=[
                wp.from_torch(values.contiguous(), dtype=wp.vec4),
                ids,
                bool(full_data),
                self._indices,
                self._default_mass,
                self._data.nodal_kinematic_target.warp,
                model.particle_mass,
                model.particle_inv_mass,
                s0.particle_q,
                s1.particle_q,
                s0.particle_qd,
                s1.particle_qd,
            ],
            device=self.device,
        )
        self._data.mark_dirty()

    # -- helpers ---------------------------------------------------------------------------------------

    def _scatter(self, values: torch.Tensor, ids: wp.array, full_data: bool, *, target: str) -> None:
        self._check_shape(values, ids, full_data, 3, "nodal_pos" if target == "particle_q" else "nodal_vel")
        s0, s1 = NewtonManager.get_state_0(), NewtonManager.get_state_1()
        wp.launch(
            scatter_vec3_kernel,
            dim=(ids.shape[0], self.max_sim_vertices_per_body),
            inputs=[
                wp.from_torch(values.contiguous(), dtype=wp.vec3),
                ids,
                bool(full_data),
                self._indices,
                getattr(s0, target),
                getattr(s1, target),
            ],
            device=self.device,
        )

    def _scatter_state(
        self, states: wp.array, ids: wp.array, *, full_data: bool, select: wp.array | None = None
    ) -> None:
        s0, s1 = NewtonManager.get_state_0(), NewtonManager.get_state_1()
        select = self._select_all if select is None else select
        wp.launch(
            scatter_state_kernel,
            dim=(ids.shape[0], self.max_sim_vertices_per_body),
            inputs=[states, ids, select, bool(full_data), self._indices, s0.particle_q, s1.particle_q, s0.particle_qd],
            outputs=[s1.particle_qd],
            device=self.device,
        )

    def _check_shape(self, values: torch.Tensor, ids: wp.array, full_data: bool, width: int, name: str) -> None:
        rows = self.num_instances if full_data else ids.shape[0]
        expected = (rows, self.max_sim_vertices_per_body, width)
        if tuple(values.shape) != expected:
            raise ValueError(f"{name} must have shape {expected} (full_data={full_data}), got {tuple(values.shape)}.")

    def _as_torch(self, value) -> torch.Tensor:
        if isinstance(value, ProxyArray):
            value = value.warp
        if isinstance(value, wp.array):
            value = wp.to_torch(value)
        if not isinstance(value, torch.Tensor) or value.dtype != torch.float32:
            dtype = value.dtype if isinstance(value, torch.Tensor) else type(value).__name__
            raise TypeError(
                f"DeformableObject nodal writes take float32 tensors or Warp arrays, got {dtype}; use .float()."
            )
        return value.to(device=self.device)

    # -- initialization --------------------------------------------------------------------------------

    def _initialize_impl(self) -> None:
        model = NewtonManager.get_model()
        if model is None:
            raise RuntimeError("The Newton model is not finalized: assets initialize on sim.reset().")
        world_ids, indices = deformable_particle_indices(self.cfg.prim_path)
        self._init_particle_rows(indices, world_ids)
        n, p = indices.shape
        self._data = DeformableObjectData(self._indices, self.device)
        self._default_mass = wp.array(model.particle_mass.numpy()[indices], dtype=wp.float32, device=self.device)
        q = model.particle_q.numpy()[indices]
        qd = model.particle_qd.numpy()[indices]
        self._data.default_nodal_state_w.warp.assign(np.concatenate((q, qd), axis=-1).astype(np.float32))
        target = np.concatenate((q, np.ones((n, p, 1))), axis=-1).astype(np.float32)
        self._data.nodal_kinematic_target.warp.assign(target)

    def _invalidate_initialize_callback(self, event: Any) -> None:
        self._is_initialized = False


mark_unsupported(DeformableObject, sorted(BaseDeformableObject.__abstractmethods__))
