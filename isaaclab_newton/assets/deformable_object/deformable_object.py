"""Isaac Lab ``DeformableObject`` on Newton: a soft body or cloth of P particles in every environment."""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import warp as wp
from isaaclab.assets.deformable_object.base_deformable_object import BaseDeformableObject
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from ..index_cache import Ids
from ..particle_rows import ParticleRowsMixin
from ..unsupported import mark_unsupported
from .deformable_object_data import DeformableObjectData
from .kernels import scatter_kinematic_target_kernel
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

    def reset(self, env_ids: Ids = None, env_mask: wp.array | torch.Tensor | ProxyArray | None = None) -> None:
        """Restore the default nodal state of the selected envs and reset their worlds' solver internals.

        Args:
            env_ids: Environments to reset (default: all).
            env_mask: Boolean mask over environments, shape (N,) (alternative to ``env_ids``). The mask path reads
                nothing back to the host: it visits every env and writes the selected ones.
        """
        self._reset_rows(self._data.default_nodal_state_w.warp, env_ids, env_mask)

    def update(self, dt: float) -> None:
        """Advance the data's timestamp by ``dt`` [s] (buffers refresh on the first read after a state change)."""
        self._data.update(dt)

    def write_nodal_state_to_sim_index(self, nodal_state, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write nodal states (x, y, z [m], vx, vy, vz [m/s]), shape (len(env_ids) or N, P, 6), into both states."""
        self._write_states(nodal_state, env_ids, full_data, name="nodal_state", where="write_nodal_state_to_sim_index")

    def write_nodal_pos_to_sim_index(self, nodal_pos, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write nodal positions, world frame [m], shape (len(env_ids) or N, P, 3), into both states."""
        where = "write_nodal_pos_to_sim_index"
        self._write_vec3(nodal_pos, env_ids, full_data, field="particle_q", name="nodal_pos", where=where)

    def write_nodal_velocity_to_sim_index(self, nodal_vel, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write nodal velocities, world frame [m/s], shape (len(env_ids) or N, P, 3), into both states."""
        where = "write_nodal_velocity_to_sim_index"
        self._write_vec3(nodal_vel, env_ids, full_data, field="particle_qd", name="nodal_vel", where=where)

    def write_nodal_kinematic_target_to_sim_index(self, targets, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write (x, y, z [m], flag) targets, shape (len(env_ids) or N, P, 4); flag 0 pins a node, 1 frees it.

        See the class docstring for how pinning works on Newton.
        """
        ids = self._resolve_env_ids(env_ids)
        values = self._checked_rows(
            targets, ids, full_data, 4, name="targets", where="write_nodal_kinematic_target_to_sim_index"
        )
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
        NewtonManager.note_state_write()

    # -- initialization --------------------------------------------------------------------------------

    def _initialize_impl(self) -> None:
        world_ids, indices = deformable_particle_indices(self.cfg.prim_path)
        self._init_particle_rows(indices, world_ids)
        self._data = DeformableObjectData(self._indices, self.device)
        masses = NewtonManager.get_model().particle_mass.numpy()[indices]
        self._default_mass = wp.array(masses, dtype=wp.float32, device=self.device)


mark_unsupported(DeformableObject, sorted(BaseDeformableObject.__abstractmethods__))
