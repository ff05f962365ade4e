"""Isaac Lab ``RigidObject`` on Newton: one free body per environment."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
import warp as wp
from isaaclab.assets.rigid_object.base_rigid_object import BaseRigidObject
from isaaclab.utils.string import resolve_matching_names
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from ..binding import ArticulationBinding
from ..body_properties import BodyPropertyWrites
from ..newton_asset import Ids, NewtonAssetMixin
from ..unsupported import mark_unsupported
from .rigid_object_data import RigidObjectData

if TYPE_CHECKING:
    from isaaclab.assets.rigid_object.rigid_object_cfg import RigidObjectCfg


class RigidObject(BodyPropertyWrites, NewtonAssetMixin, BaseRigidObject):
    """A free rigid body in every environment, simulated by Newton.

    The body must be free (Newton gives bodies without joints a free joint on import). Root writes set the
    free joint's coordinates; wrenches from the composers are applied at the center of mass; per-env resets
    reset the env's solver world. See :class:`~isaaclab_newton.assets.newton_asset.NewtonAssetMixin`.
    """

    cfg: RigidObjectCfg

    def __init__(self, cfg: RigidObjectCfg):
        super().__init__(cfg)
        self._data: RigidObjectData | None = None
        self._binding: ArticulationBinding | None = None

    @property
    def data(self) -> RigidObjectData:
        """Runtime data (valid after ``sim.reset()``)."""
        return self._data

    @property
    def num_instances(self) -> int:
        """Number of environments holding this object."""
        return self._binding.num_instances

    @property
    def num_bodies(self) -> int:
        """Always 1."""
        return 1

    @property
    def body_names(self) -> list[str]:
        """Name of the body."""
        return list(self._binding.body_names)

    def find_bodies(
        self, name_keys: str | Sequence[str], preserve_order: bool = False, *, as_proxy: bool = False
    ) -> tuple[list[int] | ProxyArray, list[str]]:
        """Find bodies by regular expressions (only one body exists)."""
        ids, names = resolve_matching_names(name_keys, self.body_names, preserve_order)
        if as_proxy:
            return ProxyArray(wp.array(np.asarray(ids, dtype=np.int32), dtype=wp.int32, device=self.device)), names
        return ids, names

    def reset(self, env_ids: Ids = None, env_mask: wp.array | None = None) -> None:
        """Clear the envs' wrenches and reset their worlds' solver internals.

        Args:
            env_ids: Environments to reset (default: all).
            env_mask: Boolean mask over environments (alternative to ``env_ids``).
        """
        self._reset_worlds(*self._rows(env_ids, env_mask))

    def write_data_to_sim(self) -> None:
        """Apply the composed wrenches."""
        self._apply_wrenches()

    def update(self, dt: float) -> None:
        """Refresh data buffers after a physics step of ``dt`` [s]."""
        self._data.update(dt)

    def _initialize_impl(self) -> None:
        self._check_has_rigid_body()
        binding = ArticulationBinding(self.cfg.prim_path, self.device)
        if binding.is_fixed_base or len(binding.body_names) != 1 or binding.joint_names:
            raise ValueError(
                f"RigidObject {self.cfg.prim_path!r} must be one free body; found {len(binding.body_names)} bodies and"
                f" joints {binding.joint_names} (fixed root: {binding.is_fixed_base}). Use an Articulation instead."
            )
        self._binding = binding
        self._data = RigidObjectData(None, self.device, binding)
        self._init_common()
        self._process_cfg()
        self._create_buffers()

    def _check_has_rigid_body(self) -> None:
        """Raise a RigidObject-specific error when the asset was imported without a (single) rigid body.

        Raises:
            ValueError: If the cloned asset holds no body (e.g. collision shapes without ``RigidBodyAPI``, which
                Newton imports as static geometry).
        """
        if NewtonManager.get_scene_index().find(self.cfg.prim_path).count("body") == 0:
            raise ValueError(
                f"RigidObject {self.cfg.prim_path!r} has no rigid body: the prim carries no UsdPhysics.RigidBodyAPI,"
                " so Newton imported it as static collision geometry. Add rigid_props=[UsdPhysicsRigidBodyCfg()] to"
                " its spawner, or declare static geometry with AssetBaseCfg instead of RigidObjectCfg."
            )

    def _process_cfg(self) -> None:
        init = self.cfg.init_state
        pose = torch.tensor((*init.pos, *init.rot), dtype=torch.float32, device=self.device)
        vel = torch.tensor((*init.lin_vel, *init.ang_vel), dtype=torch.float32, device=self.device)
        self._data.set_default_root_state(pose, vel)

    def _create_buffers(self) -> None:
        """All buffers live on :class:`RigidObjectData`."""

    def _invalidate_initialize_callback(self, event: Any) -> None:
        self._is_initialized = False


mark_unsupported(RigidObject, sorted(BaseRigidObject.__abstractmethods__))
