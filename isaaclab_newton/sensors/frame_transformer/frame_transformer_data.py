"""Data container of the Newton frame transformer."""

from __future__ import annotations

import warp as wp
from isaaclab.sensors.frame_transformer.base_frame_transformer_data import BaseFrameTransformerData
from isaaclab.utils.warp import ProxyArray


class FrameTransformerData(BaseFrameTransformerData):
    """Source and target frame poses in the world frame and target poses in the source frame.

    Poses are (x, y, z [m], qx, qy, qz, qw); target arrays have shape (num_envs, num_target_frames).
    """

    def __init__(self, num_envs: int, target_frame_names: list[str], device: str):
        n, m = num_envs, len(target_frame_names)
        self._target_frame_names = list(target_frame_names)
        self._source_pose_w = wp.zeros(n, dtype=wp.transformf, device=device)
        self._source_pos_w = wp.zeros(n, dtype=wp.vec3f, device=device)
        self._source_quat_w = wp.zeros(n, dtype=wp.quatf, device=device)
        self._target_pose_w = wp.zeros((n, m), dtype=wp.transformf, device=device)
        self._target_pos_w = wp.zeros((n, m), dtype=wp.vec3f, device=device)
        self._target_quat_w = wp.zeros((n, m), dtype=wp.quatf, device=device)
        self._target_pose_source = wp.zeros((n, m), dtype=wp.transformf, device=device)
        self._target_pos_source = wp.zeros((n, m), dtype=wp.vec3f, device=device)
        self._target_quat_source = wp.zeros((n, m), dtype=wp.quatf, device=device)
        names = (
            "source_pose_w",
            "source_pos_w",
            "source_quat_w",
            "target_pose_w",
            "target_pos_w",
            "target_quat_w",
            "target_pose_source",
            "target_pos_source",
            "target_quat_source",
        )
        self._proxies = {name: ProxyArray(getattr(self, f"_{name}")) for name in names}

    @property
    def target_frame_names(self) -> list[str]:
        """Names of the target frames, in column order."""
        return list(self._target_frame_names)

    @property
    def target_pose_source(self) -> ProxyArray:
        """Target frame poses relative to the source frame."""
        return self._proxies["target_pose_source"]

    @property
    def target_pos_source(self) -> ProxyArray:
        """Target frame positions in the source frame [m]."""
        return self._proxies["target_pos_source"]

    @property
    def target_quat_source(self) -> ProxyArray:
        """Target frame orientations relative to the source frame (x, y, z, w)."""
        return self._proxies["target_quat_source"]

    @property
    def target_pose_w(self) -> ProxyArray:
        """Target frame poses in the world frame."""
        return self._proxies["target_pose_w"]

    @property
    def target_pos_w(self) -> ProxyArray:
        """Target frame positions in the world frame [m]."""
        return self._proxies["target_pos_w"]

    @property
    def target_quat_w(self) -> ProxyArray:
        """Target frame orientations in the world frame (x, y, z, w)."""
        return self._proxies["target_quat_w"]

    @property
    def source_pose_w(self) -> ProxyArray:
        """Source frame pose in the world frame."""
        return self._proxies["source_pose_w"]

    @property
    def source_pos_w(self) -> ProxyArray:
        """Source frame position in the world frame [m]."""
        return self._proxies["source_pos_w"]

    @property
    def source_quat_w(self) -> ProxyArray:
        """Source frame orientation in the world frame (x, y, z, w)."""
        return self._proxies["source_quat_w"]
