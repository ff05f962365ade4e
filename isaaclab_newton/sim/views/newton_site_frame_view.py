"""Frames (camera prims and other xforms) held at a fixed offset from a Newton body or from their environment."""

from __future__ import annotations

from typing import Any

import numpy as np
import warp as wp
from isaaclab.sim.views.base_frame_view import BaseFrameView
from isaaclab.sim.views.xform_space_writer import FrameViewLocalSpaceWriter, FrameViewWorldSpaceWriter
from isaaclab.utils.warp import ProxyArray

from ...physics.newton_manager import NewtonManager
from . import site_kernels


class NewtonSiteFrameView(BaseFrameView):
    """One row per environment of a prim that core's :class:`~isaaclab.sim.views.FrameView` selects on Newton.

    Without Kit only environment 0's prims are on the USD stage. Each row is a *site*: a parent (the closest
    Newton body above the prim when the prim lies below an asset of the scene, otherwise the environment's origin
    from the clone plan) and an offset from it, taken from environment 0's authored USD pose. World poses are
    ``parent * offset``, computed on the device from the current ``State.body_q``, so a body-mounted frame moves
    with its body. Writes (world or local) change the offsets. Scales are the unit scale and cannot be written.

    Args:
        prim_path: Regular expression of the prim path (``{ENV_REGEX_NS}`` already expanded).
        device: Device of the returned arrays.
        stage: USD stage holding environment 0's prims (the current stage when ``None``).

    Raises:
        RuntimeError: Before the Newton model is finalized.
        ValueError: If no prim matches ``prim_path``.
    """

    def __init__(self, prim_path: str, device: str = "cpu", stage: Any = None, **_: Any):
        import isaaclab.sim as sim_utils

        model = NewtonManager.get_model()
        if model is None:
            raise RuntimeError(f"NewtonSiteFrameView({prim_path!r}) needs a finalized Newton model: call sim.reset().")
        prims = sim_utils.find_matching_prims(prim_path, stage)
        if not prims:
            raise ValueError(f"NewtonSiteFrameView: no prim on the stage matches {prim_path!r}.")
        self._prim_path = prim_path
        self._device = str(device)
        sim = sim_utils.SimulationContext.instance()
        plan = sim.get_clone_plan() if sim is not None else None
        env0 = plan.env_template.format(0) if plan is not None else None
        source = prims[0]
        path = str(source.GetPath())
        per_env = env0 is not None and (path == env0 or path.startswith(env0 + "/"))
        if per_env:
            rows = int(model.world_count)
            positions = np.zeros((rows, 3)) if plan.positions is None else np.asarray(plan.positions, dtype=float)
            self._prims = [source] * rows
        else:
            rows = len(prims)
            positions = np.zeros((rows, 3))
            self._prims = list(prims)
        world = np.stack([_usd_world_pose(p) for p in self._prims])
        bodies = self._parent_bodies(prim_path, rows) if per_env else np.full(rows, -1, dtype=np.int32)
        origins = np.zeros((rows, 7), dtype=np.float32)
        origins[:, :3] = positions
        origins[:, 6] = 1.0
        parents = origins.copy()
        mounted = bodies >= 0
        if mounted.any():
            parents[mounted] = model.body_q.numpy()[bodies[mounted]]
        if per_env:
            # every row keeps environment 0's offset from its parent
            parents[:] = parents[0]
            world[:] = world[0]
        offsets = np.stack([_mul(_inv(parents[i]), world[i]) for i in range(rows)])
        self._count = rows
        self._bodies = wp.array(bodies, dtype=wp.int32, device=self._device)
        self._origins = wp.array(origins, dtype=wp.transformf, device=self._device)
        self._offsets = wp.array(offsets.astype(np.float32), dtype=wp.transformf, device=self._device)
        self._pos = wp.zeros((rows, 3), dtype=wp.float32, device=self._device)
        self._quat = wp.zeros((rows, 4), dtype=wp.float32, device=self._device)
        self._no_rows = wp.zeros(1, dtype=wp.int32, device=self._device)
        self._unit_scales = ProxyArray(wp.array(np.ones((rows, 3), np.float32), dtype=wp.float32, device=self._device))

    @staticmethod
    def _parent_bodies(prim_path: str, rows: int) -> np.ndarray:
        """Body index per environment of the closest body above the prim, or -1 where no asset owns the prim."""
        index = NewtonManager.get_scene_index()
        if not any(prim_path.startswith(p.rstrip("/") + "/") or prim_path == p for p in index.prim_paths):
            return np.full(rows, -1, dtype=np.int32)
        selection = index.select_bodies(prim_path, mode="ancestor")
        bodies = selection.body_indices[:, 0].astype(np.int32)
        if bodies.shape[0] != rows:
            raise ValueError(
                f"NewtonSiteFrameView: {prim_path!r} lies below {selection.owner.prim_path!r}, which has"
                f" {bodies.shape[0]} instances, but the scene has {rows} environments."
            )
        return bodies

    # -- BaseFrameView ------------------------------------------------------------------------------

    @property
    def count(self) -> int:
        """Number of rows (one per environment for prims below the environment template)."""
        return self._count

    @property
    def device(self) -> str:
        """Device of the returned arrays."""
        return self._device

    @property
    def prims(self) -> list:
        """The USD prim each row is cloned from (environment 0's prim for every environment)."""
        return list(self._prims)

    @property
    def parent_bodies(self) -> wp.array:
        """Newton body index of each row's parent, -1 for rows fixed in their environment's frame (device int32)."""
        return self._bodies

    @property
    def parent_origins(self) -> wp.array:
        """Environment origin of each row (device ``transformf``), the parent of rows without a body."""
        return self._origins

    @property
    def offsets(self) -> wp.array:
        """Offset of each row from its parent (device ``transformf``)."""
        return self._offsets

    def _rows(self, indices: wp.array | None) -> tuple[wp.array, bool, int]:
        if indices is None:
            return self._no_rows, False, self._count
        rows = indices if indices.dtype == wp.int32 else wp.array(indices.numpy().astype(np.int32), device=self._device)
        return rows, True, int(rows.shape[0])

    def _get_world_poses_impl(self, indices: wp.array | None = None) -> tuple[ProxyArray, ProxyArray]:
        rows, use_rows, n = self._rows(indices)
        pos, quat = self._outputs(n)
        body_q = NewtonManager.get_state_0().body_q
        wp.launch(
            site_kernels.site_world_poses,
            dim=n,
            inputs=[body_q, self._bodies, self._origins, self._offsets, rows, use_rows],
            outputs=[pos, quat],
            device=self._device,
        )
        return ProxyArray(pos), ProxyArray(quat)

    def _get_local_poses_impl(self, indices: wp.array | None = None) -> tuple[ProxyArray, ProxyArray]:
        rows, use_rows, n = self._rows(indices)
        pos, quat = self._outputs(n)
        wp.launch(
            site_kernels.site_local_poses,
            dim=n,
            inputs=[self._offsets, rows, use_rows],
            outputs=[pos, quat],
            device=self._device,
        )
        return ProxyArray(pos), ProxyArray(quat)

    def _outputs(self, n: int) -> tuple[wp.array, wp.array]:
        if n == self._count:
            return self._pos, self._quat
        return (
            wp.empty((n, 3), dtype=wp.float32, device=self._device),
            wp.empty((n, 4), dtype=wp.float32, device=self._device),
        )

    def _get_local_scales_impl(self, indices: wp.array | None = None) -> ProxyArray:
        return self._scales(indices)

    def _get_world_scales_impl(self, indices: wp.array | None = None) -> ProxyArray:
        return self._scales(indices)

    def _get_scales_impl(self, indices: wp.array | None = None) -> ProxyArray:
        return self._scales(indices)

    def _scales(self, indices: wp.array | None) -> ProxyArray:
        if indices is None:
            return self._unit_scales
        return ProxyArray(wp.array(np.ones((int(indices.shape[0]), 3), np.float32), device=self._device))

    def _set_scales_impl(self, scales: wp.array, indices: wp.array | None = None) -> None:
        raise NotImplementedError(
            f"NewtonSiteFrameView({self._prim_path!r}): site frames have the unit scale; Newton has no per-frame"
            " scale to write. Scale the geometry instead."
        )

    def _set_poses(self, positions, orientations, indices, *, world: bool) -> None:
        rows, use_rows, n = self._rows(indices)
        pos = _as_2d(positions, 3, n, self._device)
        quat = _as_2d(orientations, 4, n, self._device)
        wp.launch(
            site_kernels.site_set_poses,
            dim=n,
            inputs=[
                NewtonManager.get_state_0().body_q,
                self._bodies,
                self._origins,
                pos if pos is not None else self._pos,
                quat if quat is not None else self._quat,
                pos is not None,
                quat is not None,
                world,
                rows,
                use_rows,
            ],
            outputs=[self._offsets],
            device=self._device,
        )

    def _make_world_space_writer(self) -> FrameViewWorldSpaceWriter:
        return _SiteWorldWriter(self)

    def _make_local_space_writer(self) -> FrameViewLocalSpaceWriter:
        return _SiteLocalWriter(self)


class _SiteWorldWriter(FrameViewWorldSpaceWriter):
    """World-space writes of a :class:`NewtonSiteFrameView`."""

    def set_poses(self, positions=None, orientations=None, indices=None) -> None:
        self._view._set_poses(positions, orientations, indices, world=True)

    def set_scales(self, scales, indices=None) -> None:
        self._view._set_scales_impl(scales, indices)

    def get_poses(self, indices=None):
        return self._view._get_world_poses_impl(indices)

    def get_scales(self, indices=None):
        return self._view._scales(indices)


class _SiteLocalWriter(FrameViewLocalSpaceWriter):
    """Local-space (offset from the parent) writes of a :class:`NewtonSiteFrameView`."""

    def set_poses(self, positions=None, orientations=None, indices=None) -> None:
        self._view._set_poses(positions, orientations, indices, world=False)

    def set_scales(self, scales, indices=None) -> None:
        self._view._set_scales_impl(scales, indices)

    def get_poses(self, indices=None):
        return self._view._get_local_poses_impl(indices)

    def get_scales(self, indices=None):
        return self._view._scales(indices)


def _as_2d(values, width: int, n: int, device: str) -> wp.array | None:
    """``values`` as a device float32 array of shape (n, width), or ``None``."""
    if values is None:
        return None
    if isinstance(values, ProxyArray):
        values = values.warp
    if isinstance(values, wp.array):
        values = wp.to_torch(values)
    import torch

    tensor = torch.as_tensor(values, dtype=torch.float32, device=wp.device_to_torch(device)).reshape(n, width)
    return wp.from_torch(tensor.contiguous())


def _usd_world_pose(prim) -> np.ndarray:
    """World pose (x, y, z, qx, qy, qz, qw) of a USD prim, scale removed."""
    from pxr import Gf, UsdGeom

    matrix = UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(0.0)
    t = matrix.ExtractTranslation()
    q = Gf.Matrix4d(matrix).RemoveScaleShear().ExtractRotationQuat()
    i = q.GetImaginary()
    return np.array([t[0], t[1], t[2], i[0], i[1], i[2], q.GetReal()], dtype=float)


def _inv(x: np.ndarray) -> np.ndarray:
    t = wp.transform_inverse(wp.transform(wp.vec3(*x[:3]), wp.quat(*x[3:])))
    return np.array([*t.p, *t.q], dtype=float)


def _mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    t = wp.transform_multiply(
        wp.transform(wp.vec3(*a[:3]), wp.quat(*a[3:])), wp.transform(wp.vec3(*b[:3]), wp.quat(*b[3:]))
    )
    return np.array([*t.p, *t.q], dtype=float)
