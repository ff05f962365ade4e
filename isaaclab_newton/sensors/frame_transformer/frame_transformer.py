"""Frame transformer on Newton body poses."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import warp as wp
from isaaclab.sensors.frame_transformer.base_frame_transformer import BaseFrameTransformer

from ...physics.newton_manager import NewtonManager
from ..body_lookup import select_env_bodies
from .frame_transformer_data import FrameTransformerData

if TYPE_CHECKING:
    from isaaclab.sensors import FrameTransformerCfg


class FrameTransformer(BaseFrameTransformer):
    """Poses of target frames (bodies at offsets) relative to a source frame (a body at an offset), per environment.

    Reads body poses from the state after each physics step; needs no solver observable, so it works with every
    solver. A target expression matching several bodies per environment adds one frame per body, named after the
    body; a single-body target may be renamed with ``FrameCfg.name``.
    """

    __backend_name__: str = "newton"

    def __init__(self, cfg: FrameTransformerCfg):
        """Create the sensor.

        Args:
            cfg: The frame transformer configuration.
        """
        super().__init__(cfg)
        self._data: FrameTransformerData | None = None
        self._target_frame_names: list[str] = []

    @property
    def data(self) -> FrameTransformerData:
        """The latest frame poses."""
        self._update_outdated_buffers()
        return self._data

    @property
    def num_bodies(self) -> int:
        """Number of target frames."""
        return len(self._target_frame_names)

    @property
    def body_names(self) -> list[str]:
        """Names of the target frames."""
        return list(self._target_frame_names)

    def _initialize_impl(self):
        super()._initialize_impl()
        model = NewtonManager.get_model()
        if model is None:
            raise RuntimeError("FrameTransformer initialization needs a finalized Newton model (PHYSICS_READY).")
        source = select_env_bodies(
            self.cfg.prim_path, self._num_envs, mode="ancestor", what="FrameTransformerCfg.prim_path"
        ).body_indices[:, 0]
        columns, offsets, names = [], [], []
        for frame in self.cfg.target_frames:
            selection = select_env_bodies(
                frame.prim_path, self._num_envs, mode="exact", what="FrameTransformerCfg.target_frames prim_path"
            )
            bodies, body_names = selection.body_indices, selection.names
            if frame.name is not None and bodies.shape[1] != 1:
                raise ValueError(
                    f"FrameCfg(name={frame.name!r}) names one frame but {frame.prim_path!r} matches"
                    f" {bodies.shape[1]} bodies per environment ({body_names}); drop the name or narrow the path."
                )
            columns.append(bodies)
            names.extend([frame.name] if frame.name is not None else body_names)
            pose = wp.transform(wp.vec3(*frame.offset.pos), wp.quat(*frame.offset.rot))
            offsets.extend([pose] * bodies.shape[1])
        if len(set(names)) != len(names):
            raise ValueError(f"FrameTransformer target frame names are not unique: {names}; set FrameCfg.name.")
        self._target_frame_names = names
        src_offset = self.cfg.source_frame_offset
        self._source = wp.array(source, dtype=wp.int32, device=self._device)
        self._source_offset = wp.transform(wp.vec3(*src_offset.pos), wp.quat(*src_offset.rot))
        self._targets = wp.array(np.concatenate(columns, axis=1), dtype=wp.int32, device=self._device)
        self._target_offsets = wp.array(offsets, dtype=wp.transform, device=self._device)
        self._data = FrameTransformerData(self._num_envs, names, self._device)

    def _update_buffers_impl(self, env_mask: wp.array):
        data = self._data
        wp.launch(
            _frame_kernel,
            dim=self._targets.shape,
            inputs=[
                env_mask,
                self._source,
                self._source_offset,
                self._targets,
                self._target_offsets,
                NewtonManager.get_state_0().body_q,
            ],
            outputs=[
                data._source_pose_w,
                data._source_pos_w,
                data._source_quat_w,
                data._target_pose_w,
                data._target_pos_w,
                data._target_quat_w,
                data._target_pose_source,
                data._target_pos_source,
                data._target_quat_source,
            ],
            device=self._device,
        )


@wp.kernel
def _frame_kernel(
    env_mask: wp.array(dtype=wp.bool),
    source: wp.array(dtype=wp.int32),
    source_offset: wp.transform,
    targets: wp.array2d(dtype=wp.int32),
    target_offsets: wp.array(dtype=wp.transform),
    body_q: wp.array(dtype=wp.transform),
    source_pose_w: wp.array(dtype=wp.transform),
    source_pos_w: wp.array(dtype=wp.vec3),
    source_quat_w: wp.array(dtype=wp.quat),
    target_pose_w: wp.array2d(dtype=wp.transform),
    target_pos_w: wp.array2d(dtype=wp.vec3),
    target_quat_w: wp.array2d(dtype=wp.quat),
    target_pose_source: wp.array2d(dtype=wp.transform),
    target_pos_source: wp.array2d(dtype=wp.vec3),
    target_quat_source: wp.array2d(dtype=wp.quat),
):
    env, k = wp.tid()
    if not env_mask[env]:
        return
    src = body_q[source[env]] * source_offset
    tgt = body_q[targets[env, k]] * target_offsets[k]
    rel = wp.transform_inverse(src) * tgt
    if k == 0:
        source_pose_w[env] = src
        source_pos_w[env] = wp.transform_get_translation(src)
        source_quat_w[env] = wp.transform_get_rotation(src)
    target_pose_w[env, k] = tgt
    target_pos_w[env, k] = wp.transform_get_translation(tgt)
    target_quat_w[env, k] = wp.transform_get_rotation(tgt)
    target_pose_source[env, k] = rel
    target_pos_source[env, k] = wp.transform_get_translation(rel)
    target_quat_source[env, k] = wp.transform_get_rotation(rel)
