"""Isaac Lab's ray caster on Newton: rays from a body frame cast against the model's shape BVH."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import newton
import warp as wp

from ...physics.newton_manager import NewtonManager
from .body_mounted import BodyMountedRays

if TYPE_CHECKING:
    from isaaclab.sensors.ray_caster import RayCasterCfg


class RayCaster(BodyMountedRays):
    """Rays cast from a body frame against the shapes of the Newton model (:func:`newton.intersect_ray`).

    The sensor frame is the body at :attr:`~isaaclab.sensors.RayCasterCfg.prim_path` (or its closest body
    ancestor), one per environment, read from the state after each physics step; ``pos_w``/``quat_w`` are that
    body's pose. The pattern's rays are offset by ``cfg.offset`` in the sensor frame and follow it as
    ``cfg.ray_alignment`` says (``"base"``: full pose, ``"yaw"``: position and heading, directions fixed in the
    world, ``"world"``: position only).

    Rays hit the shapes of the shared world (the terrain: heightfield, mesh or plane) and, unless
    ``cfg.global_world_only``, the visible shapes of the sensor's own environment (the shape BVH is refit to the
    current body poses before each cast). A ray that hits nothing within ``cfg.max_distance`` [m] of its start
    reads ``inf``. ``cfg.mesh_prim_paths`` must name shapes of the model; rays are not limited to them.

    Every update is a fixed set of Warp launches on preallocated buffers (no host reads), so it runs inside
    captured CUDA graphs and recorded env steps.
    """

    __backend_name__: str = "newton"

    cfg: RayCasterCfg

    def _initialize_warp_meshes(self) -> None:
        model = NewtonManager.get_model()
        labels = list(model.shape_label or [])
        for path in self.cfg.mesh_prim_paths:
            pattern = re.compile(f"{path.rstrip('/')}(/.*)?")
            if not any(pattern.fullmatch(label) for label in labels):
                raise ValueError(
                    f"RayCasterCfg.mesh_prim_paths entry {path!r} names no shape of the Newton model (shapes:"
                    f" {labels[:4]}{' ...' if len(labels) > 4 else ''}); point it at the terrain prim, e.g."
                    " '/World/ground'."
                )
        if model.bvh_shapes is None:
            raise RuntimeError(
                "The Newton model has no shape BVH to ray cast against (no visible shapes); add the terrain or shapes"
                " the rays should hit."
            )

    def _initialize_rays_impl(self) -> None:
        super()._initialize_rays_impl()
        self._allocate_ray_query()

    def _allocate_ray_query(self, *, normals: bool = False) -> None:
        """Flat views of the world-frame rays and the query's outputs (distances, and normals if asked for)."""
        model = NewtonManager.get_model()
        n = self._num_envs * self.num_rays
        self._origins_flat = self._ray_starts_w.reshape(n)
        self._directions_flat = self._ray_directions_w.reshape(n)
        self._distances = wp.empty(n, dtype=wp.float32, device=self._device)
        self._normals = wp.empty(n, dtype=wp.vec3f, device=self._device) if normals else None
        # intersect_ray groups: worlds 0..W-1, then the shared world at index W
        global_group = int(model.world_count)
        ray_worlds = (
            [global_group] * n if self.cfg.global_world_only else [int(w) for w in self._worlds.repeat(self.num_rays)]
        )
        self._ray_worlds = wp.array(ray_worlds, dtype=wp.int32, device=self._device)
        self._query_graph: wp.Graph | None = None
        self._query_calls = 0

    def _update_buffers_impl(self, env_mask: wp.array) -> None:
        self._update_ray_infos(env_mask)
        self._cast()
        wp.launch(
            _hits_from_distances,
            dim=(self._num_envs, self.num_rays),
            inputs=[
                env_mask,
                self._distances,
                self._ray_starts_w,
                self._ray_directions_w,
                float(self.cfg.max_distance),
                self.ray_cast_drift.warp,
            ],
            outputs=[self._data._ray_hits_w],
            device=self._device,
        )

    def _cast(self) -> None:
        """Distances (``-1`` on a miss) and normals along every ray: BVH refit (unless shared-world only), query.

        :func:`newton.intersect_ray` defines its kernel on every call, which costs tens of milliseconds of host
        time; after a first eager call (which compiles it) the query is captured once into a Warp graph (CUDA
        with ``cfg.use_cuda_graph``, CPU where the manager replays CPU graphs) and replayed. Inside an outer
        capture (a recorded env step) it is recorded into that graph instead.
        """
        device = wp.get_device(self._device)
        if self._query_graph is not None and not device.is_capturing:
            wp.capture_launch(self._query_graph)
            return
        self._query()
        if device.is_capturing or self._query_calls == 0:
            self._query_calls += 1
            return
        if device.is_cuda and self.cfg.use_cuda_graph or device.is_cpu and NewtonManager.cpu_graphs_enabled():
            force_load = None if device.is_cuda else False
            with wp.ScopedDevice(device), wp.ScopedCapture(device=device, force_module_load=force_load) as capture:
                self._query()
            self._query_graph = capture.graph

    def _query(self) -> None:
        model = NewtonManager.get_model()
        if not self.cfg.global_world_only:
            model.bvh_refit_shapes(NewtonManager.get_state_0())
        newton.intersect_ray(
            model,
            ray_origins=self._origins_flat,
            ray_directions=self._directions_flat,
            ray_worlds=self._ray_worlds,
            enable_global_world=not self.cfg.global_world_only,
            out_dist=self._distances,
            out_normal=self._normals,
        )


@wp.kernel(enable_backward=False)
def _hits_from_distances(
    env_mask: wp.array(dtype=wp.bool),
    distances: wp.array(dtype=wp.float32),
    starts: wp.array2d(dtype=wp.vec3f),
    directions: wp.array2d(dtype=wp.vec3f),
    max_distance: float,
    ray_cast_drift: wp.array(dtype=wp.vec3f),
    hits: wp.array2d(dtype=wp.vec3f),
):
    env, ray = wp.tid()
    if not env_mask[env]:
        return
    d = distances[env * starts.shape[1] + ray]
    if d < 0.0 or d > max_distance:
        hits[env, ray] = wp.vec3f(wp.inf, wp.inf, wp.inf)
        return
    hit = starts[env, ray] + d * directions[env, ray]
    hits[env, ray] = wp.vec3f(hit[0], hit[1], hit[2] + ray_cast_drift[env][2])
