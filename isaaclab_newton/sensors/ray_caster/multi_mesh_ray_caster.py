"""Isaac Lab's multi-mesh ray caster on Newton: core's per-target Warp meshes, posed from Newton's bodies."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import warp as wp
from isaaclab.sensors.ray_caster.base_multi_mesh_ray_caster import BaseMultiMeshRayCaster
from isaaclab.sensors.ray_caster.base_multi_mesh_ray_caster_camera import BaseMultiMeshRayCasterCamera
from isaaclab.utils.warp import ProxyArray

from ...physics.newton_manager import NewtonManager
from ..body_lookup import select_env_bodies
from .body_mounted import BodyMountedRays

if TYPE_CHECKING:
    from isaaclab.sensors.ray_caster import MultiMeshRayCasterCfg


class TrackedBodyPoses:
    """World poses of the bodies that tracked ray-cast targets follow, gathered from the Newton state on read.

    Row ``env * k + j`` is body ``j`` of environment ``env`` (``k`` bodies per environment, in the order of the
    expressions), the order core's multi-mesh ray caster copies into its per-environment mesh table.

    Args:
        prim_path_exprs: One expression per tracked body (``{ENV_REGEX_NS}`` expanded), each naming one body in
            every environment.
        num_envs: Number of environments.
        device: Device of the returned arrays.

    Raises:
        ValueError: If an expression names no body, or not one body in each environment.
    """

    def __init__(self, prim_path_exprs: list[str], num_envs: int, device: str):
        what = "MultiMeshRayCasterCfg.mesh_prim_paths (tracked target)"
        columns = []
        for expr in prim_path_exprs:
            selection = select_env_bodies(expr, num_envs, mode="exact", what=what)
            if selection.body_indices.shape[1] != 1:
                raise ValueError(
                    f"{what} {expr!r} names {selection.body_indices.shape[1]} bodies per environment"
                    f" ({selection.names}); a tracked target follows one body: name that body's prim."
                )
            columns.append(selection.body_indices[:, 0])
        bodies = np.stack(columns, axis=1).reshape(-1).astype(np.int32)
        self._device = device
        self._bodies = wp.array(bodies, dtype=wp.int32, device=device)
        positions = wp.zeros(bodies.shape[0], dtype=wp.vec3f, device=device)
        orientations = wp.zeros(bodies.shape[0], dtype=wp.quatf, device=device)
        self._poses = (ProxyArray(positions), ProxyArray(orientations))

    @property
    def count(self) -> int:
        """Number of rows: environments x tracked bodies per environment."""
        return int(self._bodies.shape[0])

    def get_world_poses(self, indices: wp.array | None = None) -> tuple[ProxyArray, ProxyArray]:
        """Positions [m] and orientations (x, y, z, w) of every row, in the world frame.

        Raises:
            ValueError: If ``indices`` is given (the ray caster reads every row).
        """
        if indices is not None:
            raise ValueError("TrackedBodyPoses.get_world_poses reads every row; call it with indices=None.")
        positions, orientations = self._poses
        wp.launch(
            _gather_poses,
            dim=self.count,
            inputs=[self._bodies, NewtonManager.get_state_0().body_q],
            outputs=[positions.warp, orientations.warp],
            device=self._device,
        )
        return self._poses


class LegacyMultiMeshRayCaster(BaseMultiMeshRayCaster, BodyMountedRays):
    """Core's ``MultiMeshRayCaster`` on Newton: rays against the configured targets only.

    Core's factory picks this class for ``MultiMeshRayCasterCfg`` on Newton. Core loads each target of
    ``cfg.mesh_prim_paths`` from the USD stage into a Warp mesh and casts the rays against those meshes alone (other
    shapes of the scene do not block them); ``ray_mesh_ids`` (with ``cfg.update_mesh_ids``) says which target each
    ray hit. Newton supplies the sensor frame (as :class:`RayCaster`) and, for targets with
    ``track_mesh_transforms``, their bodies' current poses (:class:`TrackedBodyPoses`).
    """

    __backend_name__: str = "newton"

    cfg: MultiMeshRayCasterCfg

    def _create_tracked_target_view(self, target_prim_paths: str | list[str]) -> TrackedBodyPoses:
        exprs = [target_prim_paths] if isinstance(target_prim_paths, str) else list(target_prim_paths)
        return TrackedBodyPoses(exprs, self._num_envs, self._device)


class LegacyMultiMeshRayCasterCamera(BaseMultiMeshRayCasterCamera, LegacyMultiMeshRayCaster):
    """Core's ``MultiMeshRayCasterCamera`` on Newton: pinhole images of the configured targets only.

    Core's factory picks this class for ``MultiMeshRayCasterCameraCfg`` on Newton; the targets are handled as in
    :class:`LegacyMultiMeshRayCaster`, the images as core's ray-caster camera defines them.
    """

    __backend_name__: str = "newton"


@wp.kernel(enable_backward=False)
def _gather_poses(
    bodies: wp.array(dtype=wp.int32),
    body_q: wp.array(dtype=wp.transform),
    positions: wp.array(dtype=wp.vec3f),
    orientations: wp.array(dtype=wp.quatf),
):
    row = wp.tid()
    pose = body_q[bodies[row]]
    positions[row] = wp.vec3f(wp.transform_get_translation(pose))
    orientations[row] = wp.quatf(wp.transform_get_rotation(pose))
