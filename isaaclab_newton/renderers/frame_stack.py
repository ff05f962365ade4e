"""Camera images to stacked float observations on the device, in Warp kernels that a CUDA graph can record.

:class:`NewtonCameraFrameStack` computes what Isaac Lab's ``CameraFrameStack`` with ``normalize_camera_image``
computes (``isaaclab.utils.images``), bit for bit, without torch ops or host reads:

- colour (``uint8``, e.g. the RGB channels of Newton's packed RGBA, or ``albedo``): ``value / 255 - mean``, the mean
  taken per image and channel over the pixels;
- depth-like (``float32``): NaN and infinities replaced with 0 [m];
- normals (``float32``): ``(n + 1) / 2``.

Each step normalizes the newest frame once and writes it into the last of the ``K`` frames of the observation
buffer while the older frames shift by one (one pass over the pixels); an env reset since its last frame fills all
``K`` frames with its next one.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
import warp as wp

_COLOR, _DEPTH, _NORMALS = 0, 1, 2
_DEPTH_LIKE = ("depth", "distance_to_image_plane", "distance_to_camera")
_COLOR_CHANNELS = {"rgb": 3, "albedo": 3, "rgba": 4, "semantic_segmentation": 4}
"""Channels normalized per colour data type: upstream's camera envs drop albedo's alpha; segmentation is colorized."""


@wp.func
def _slot(out: wp.array4d(dtype=wp.float32), b: int, channel: int, y: int, x: int, channel_first: int) -> float:
    if channel_first != 0:
        return out[b, channel, y, x]
    return out[b, y, x, channel]


@wp.func
def _write(out: wp.array4d(dtype=wp.float32), b: int, channel: int, y: int, x: int, channel_first: int, value: float):
    if channel_first != 0:
        out[b, channel, y, x] = value
    else:
        out[b, y, x, channel] = value


@wp.func
def _push(
    out: wp.array4d(dtype=wp.float32),
    b: int,
    c: int,
    y: int,
    x: int,
    channels: int,
    frames: int,
    fresh: int,
    channel_first: int,
    value: float,
):
    """Shift channel ``c`` of pixel (y, x) one frame older and put ``value`` in the newest frame (all, if fresh)."""
    for k in range(frames - 1):
        older = value
        if fresh == 0:
            older = _slot(out, b, (k + 1) * channels + c, y, x, channel_first)
        _write(out, b, k * channels + c, y, x, channel_first, older)
    _write(out, b, (frames - 1) * channels + c, y, x, channel_first, value)


_MEAN_BLOCK = 256
"""Threads that sum one image's pixels for :func:`_channel_means` (one block per image)."""


@wp.func
def _mean(total: wp.int32, count_255: float, reciprocal: int) -> float:
    """``total / (pixels * 255)``, rounded as torch rounds it (stored: no fused multiply-add)."""
    if reciprocal != 0:
        # torch divides a CUDA tensor by a Python scalar as a product with the scalar's reciprocal
        return float(total) * (1.0 / count_255)
    return float(total) / count_255


@wp.kernel(enable_backward=False)
def _channel_means(
    images: wp.array4d(dtype=wp.uint8), count_255: float, reciprocal: int, means: wp.array2d(dtype=wp.float32)
):
    """``means[b, c]``: channel ``c`` of image ``b`` summed over its pixels / (pixels * 255); one block per image.

    The block's threads read the image's pixels in order (adjacent threads, adjacent pixels) and add their integer
    partial sums in a block reduction, so the sum is exact and no atomics or zeroed buffer are needed.
    """
    b, lane = wp.tid()
    width = images.shape[2]
    r = wp.int32(0)
    g = wp.int32(0)
    bl = wp.int32(0)
    a = wp.int32(0)
    four = means.shape[1] == 4
    for p in range(lane, images.shape[1] * width, wp.block_dim()):
        y = p // width
        x = p - y * width
        r += wp.int32(images[b, y, x, 0])
        g += wp.int32(images[b, y, x, 1])
        bl += wp.int32(images[b, y, x, 2])
        if four:
            a += wp.int32(images[b, y, x, 3])
    r_sum = wp.tile_sum(wp.tile(r))
    g_sum = wp.tile_sum(wp.tile(g))
    b_sum = wp.tile_sum(wp.tile(bl))
    a_sum = wp.tile_sum(wp.tile(a))
    if lane == 0:
        means[b, 0] = _mean(r_sum[0], count_255, reciprocal)
        means[b, 1] = _mean(g_sum[0], count_255, reciprocal)
        means[b, 2] = _mean(b_sum[0], count_255, reciprocal)
        if four:
            means[b, 3] = _mean(a_sum[0], count_255, reciprocal)


@wp.kernel(enable_backward=False)
def _push_color(
    images: wp.array4d(dtype=wp.uint8),
    means: wp.array2d(dtype=wp.float32),
    fresh: wp.array(dtype=wp.int32),
    frames: int,
    channel_first: int,
    out: wp.array4d(dtype=wp.float32),
):
    """Normalize pixel (b, y, x) of the newest colour frame into the stack: ``value / 255 - mean[b, c]``."""
    b, y, x = wp.tid()
    channels = means.shape[1]
    for c in range(channels):
        value = float(images[b, y, x, c]) / 255.0 - means[b, c]
        _push(out, b, c, y, x, channels, frames, fresh[b], channel_first, value)


@wp.kernel(enable_backward=False)
def _push_float(
    images: wp.array4d(dtype=wp.float32),
    mode: int,
    fresh: wp.array(dtype=wp.int32),
    frames: int,
    channel_first: int,
    out: wp.array4d(dtype=wp.float32),
):
    """Normalize pixel (b, y, x) of the newest depth-like (non-finite to 0) or normals frame into the stack."""
    b, y, x = wp.tid()
    channels = images.shape[3]
    for c in range(channels):
        value = images[b, y, x, c]
        if mode == _DEPTH:
            if not wp.isfinite(value):
                value = 0.0
        else:
            value = (value + 1.0) * 0.5
        _push(out, b, c, y, x, channels, frames, fresh[b], channel_first, value)


class NewtonCameraFrameStack:
    """The last ``frames`` normalized camera frames of every env, stacked along the channel axis, on the device.

    Args:
        num_envs: Number of environments (images per frame).
        height: Image height [px].
        width: Image width [px].
        data_type: Camera data type: ``rgb``, ``albedo`` (its first three channels), ``rgba`` or colorized
            ``semantic_segmentation`` (uint8, normalized by the per-image channel mean), ``depth``,
            ``distance_to_image_plane`` or ``distance_to_camera`` (float32 [m]), or ``normals`` (float32).
        device: Device of the buffers and kernels.
        frames: Number of frames stacked (``K``), oldest first.
        channel_first: Lay the observation out as (num_envs, K * C, height, width) instead of
            (num_envs, height, width, K * C).

    Raises:
        ValueError: For an unsupported data type or fewer than one frame.
    """

    def __init__(
        self,
        num_envs: int,
        height: int,
        width: int,
        data_type: str,
        device: str,
        *,
        frames: int = 1,
        channel_first: bool = True,
    ):
        if frames < 1:
            raise ValueError(f"NewtonCameraFrameStack: frames must be at least 1, got {frames}.")
        if data_type in _COLOR_CHANNELS:
            self._mode, channels = _COLOR, _COLOR_CHANNELS[data_type]
        elif data_type in _DEPTH_LIKE:
            self._mode, channels = _DEPTH, 1
        elif data_type == "normals":
            self._mode, channels = _NORMALS, 3
        else:
            raise ValueError(
                f"NewtonCameraFrameStack: data type {data_type!r} is not supported; use one of"
                f" {[*_COLOR_CHANNELS, *_DEPTH_LIKE, 'normals']} or isaaclab.utils.images.CameraFrameStack."
            )
        self.data_type = data_type
        self.frames = frames
        self.channels = channels
        self.channel_first = channel_first
        self.device = str(device)
        stacked = frames * channels
        shape = (num_envs, stacked, height, width) if channel_first else (num_envs, height, width, stacked)
        self.observation = torch.zeros(shape, dtype=torch.float32, device=self.device)
        """The stacked observation, rewritten in place by every :meth:`push`."""
        self._fresh = torch.ones(num_envs, dtype=torch.int32, device=self.device)
        self._means = torch.zeros((num_envs, channels), dtype=torch.float32, device=self.device)
        self._count_255 = float(height * width) * 255.0
        self._wp_out = wp.from_torch(self.observation)
        self._wp_fresh = wp.from_torch(self._fresh)
        self._wp_means = wp.from_torch(self._means)

    def reset(self, env_ids: Sequence[int] | torch.Tensor | None = None) -> None:
        """Fill all frames of the given envs (default: all) with their next frame."""
        if env_ids is None:
            self._fresh.fill_(1)
        else:
            self._fresh[torch.as_tensor(env_ids, device=self.device, dtype=torch.long)] = 1

    def reset_mask(self, mask: torch.Tensor) -> None:
        """Fill all frames of the envs where ``mask`` (bool, one per env) is set with their next frame; no host sync."""
        self._fresh.masked_fill_(mask, 1)

    def push(self, images: torch.Tensor) -> torch.Tensor:
        """Normalize the newest camera frame into the stack and return :attr:`observation` (not a copy).

        Warp launches and memsets only: a CUDA graph (Warp's or :class:`~isaaclab_newton.physics.graph.TorchWarpGraph`)
        can record it.

        Args:
            images: The camera's output, (num_envs, height, width, channels): uint8 for colour (at least three
                channels; may be a strided view such as the RGB channels of RGBA), float32 otherwise.

        Raises:
            ValueError: If the images' shape or dtype does not match the stack's.
        """
        n, h, w = (self.observation.shape[i] for i in ((0, 2, 3) if self.channel_first else (0, 1, 2)))
        dtype = torch.uint8 if self._mode == _COLOR else torch.float32
        if images.dim() != 4 or tuple(images.shape[:3]) != (n, h, w) or images.dtype != dtype:
            raise ValueError(
                f"NewtonCameraFrameStack ({self.data_type}): expected {dtype} images of shape ({n}, {h}, {w}, C),"
                f" got {images.dtype} {tuple(images.shape)}."
            )
        if images.shape[3] < self.channels:
            raise ValueError(
                f"NewtonCameraFrameStack ({self.data_type}): expected at least {self.channels} channels, got"
                f" {images.shape[3]}."
            )
        first = 1 if self.channel_first else 0
        if self._mode == _COLOR:
            src = wp.from_torch(images, dtype=wp.uint8)
            reciprocal = 1 if self.device.startswith("cuda") else 0
            inputs = [src, self._count_255, reciprocal]
            wp.launch_tiled(
                _channel_means,
                dim=n,
                inputs=inputs,
                outputs=[self._wp_means],
                block_dim=_MEAN_BLOCK,
                device=self.device,
            )
            inputs = [src, self._wp_means, self._wp_fresh, self.frames, first]
            wp.launch(_push_color, dim=(n, h, w), inputs=inputs, outputs=[self._wp_out], device=self.device)
        else:
            src = wp.from_torch(images[..., : self.channels], dtype=wp.float32)
            inputs = [src, self._mode, self._wp_fresh, self.frames, first]
            wp.launch(_push_float, dim=(n, h, w), inputs=inputs, outputs=[self._wp_out], device=self.device)
        self._wp_fresh.zero_()
        return self.observation
