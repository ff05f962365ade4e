"""Camera images to stacked float observations on the device, in Warp kernels that a CUDA graph can record.

:class:`NewtonCameraFrameStack` computes what Isaac Lab's ``CameraFrameStack`` with ``normalize_camera_image``
computes (``isaaclab.utils.images``), bit for bit, without torch ops or host reads:

- colour (``uint8``, e.g. the RGB channels of Newton's packed RGBA, or ``albedo``): ``value / 255 - mean``, the mean
  taken per image and channel over the pixels;
- depth-like (``float32``): NaN and infinities replaced with 0 [m];
- normals (``float32``): ``(n + 1) / 2``.

The last ``K`` frames are kept as the camera wrote them (colour as ``uint8``, with each frame's channel means), in a
ring of ``K`` slots whose newest slot a device counter names: :meth:`NewtonCameraFrameStack.push` writes one slot
(every slot for an env reset since its last frame) and :meth:`NewtonCameraFrameStack.stacked` writes the normalized
frames, oldest first, into a new float tensor in one pass. Nothing older is moved on a push, and the float
observation is written once per step, where an env returns it (a stacked buffer shifted in place and then copied
out for the caller writes it three times).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
import warp as wp

_COLOR, _DEPTH, _NORMALS = 0, 1, 2
_DEPTH_LIKE = ("depth", "distance_to_image_plane", "distance_to_camera")
_COLOR_CHANNELS = {"rgb": 3, "albedo": 3, "rgba": 4, "semantic_segmentation": 4}
"""Channels normalized per colour data type: upstream's camera envs drop albedo's alpha; segmentation is colorized."""

_MEAN_BLOCK = 256
"""Threads that store and sum one colour image (one block per image, :func:`_store_color`)."""


@wp.func
def _mean(total: wp.int32, count_255: float, reciprocal: int) -> float:
    """``total / (pixels * 255)``, rounded as torch rounds it (stored: no fused multiply-add)."""
    if reciprocal != 0:
        # torch divides a CUDA tensor by a Python scalar as a product with the scalar's reciprocal
        return float(total) * (1.0 / count_255)
    return float(total) / count_255


@wp.func
def _newest_slot(head: wp.array(dtype=wp.int32), frames: int) -> int:
    """The ring slot a push writes: the one after the current newest (the oldest frame's)."""
    return (head[0] + 1) % frames


@wp.func
def _slots_written(head: wp.array(dtype=wp.int32), fresh: wp.array(dtype=wp.int32), b: int, frames: int):
    """Slots ``[first, last)`` a push writes for env ``b``: the newest, or every slot for an env reset since."""
    if fresh[b] != 0:
        return 0, frames
    newest = _newest_slot(head, frames)
    return newest, newest + 1


@wp.kernel(enable_backward=False)
def _store_color(
    images: wp.array4d(dtype=wp.uint8),
    head: wp.array(dtype=wp.int32),
    fresh: wp.array(dtype=wp.int32),
    count_255: float,
    reciprocal: int,
    ring: wp.array4d(dtype=wp.uint8),
    means: wp.array2d(dtype=wp.float32),
):
    """Copy colour image ``b`` into the newest ring slot (every slot if fresh) and store its channel means there.

    One block per image: adjacent threads read adjacent pixels, and the integer channel sums meet in a block
    reduction, so each mean is exact (the sum) and rounded once, with no atomics or zeroed buffer.
    """
    b, lane = wp.tid()
    num_envs = images.shape[0]
    frames = ring.shape[0] // num_envs
    channels = ring.shape[3]
    width = images.shape[2]
    first, last = _slots_written(head, fresh, b, frames)
    r = wp.int32(0)
    g = wp.int32(0)
    bl = wp.int32(0)
    a = wp.int32(0)
    for p in range(lane, images.shape[1] * width, wp.block_dim()):
        y = p // width
        x = p - y * width
        pr = images[b, y, x, 0]
        pg = images[b, y, x, 1]
        pb = images[b, y, x, 2]
        pa = wp.uint8(0)
        r += wp.int32(pr)
        g += wp.int32(pg)
        bl += wp.int32(pb)
        if channels == 4:
            pa = images[b, y, x, 3]
            a += wp.int32(pa)
        for k in range(first, last):
            i = k * num_envs + b
            ring[i, y, x, 0] = pr
            ring[i, y, x, 1] = pg
            ring[i, y, x, 2] = pb
            if channels == 4:
                ring[i, y, x, 3] = pa
    r_sum = wp.tile_sum(wp.tile(r))
    g_sum = wp.tile_sum(wp.tile(g))
    b_sum = wp.tile_sum(wp.tile(bl))
    a_sum = wp.tile_sum(wp.tile(a))
    if lane == 0:
        for k in range(first, last):
            i = k * num_envs + b
            means[i, 0] = _mean(r_sum[0], count_255, reciprocal)
            means[i, 1] = _mean(g_sum[0], count_255, reciprocal)
            means[i, 2] = _mean(b_sum[0], count_255, reciprocal)
            if channels == 4:
                means[i, 3] = _mean(a_sum[0], count_255, reciprocal)


@wp.kernel(enable_backward=False)
def _store_float(
    images: wp.array4d(dtype=wp.float32),
    mode: int,
    head: wp.array(dtype=wp.int32),
    fresh: wp.array(dtype=wp.int32),
    ring: wp.array4d(dtype=wp.float32),
):
    """Normalize pixel (b, y, x) of a depth-like (non-finite to 0) or normals image into the newest ring slot."""
    b, y, x = wp.tid()
    num_envs = images.shape[0]
    frames = ring.shape[0] // num_envs
    first, last = _slots_written(head, fresh, b, frames)
    for c in range(ring.shape[3]):
        value = images[b, y, x, c]
        if mode == _DEPTH:
            if not wp.isfinite(value):
                value = 0.0
        else:
            value = (value + 1.0) * 0.5
        for k in range(first, last):
            ring[k * num_envs + b, y, x, c] = value


@wp.kernel(enable_backward=False)
def _advance(head: wp.array(dtype=wp.int32), fresh: wp.array(dtype=wp.int32), frames: int):
    """Make the slot just written the newest and clear the fresh flags (one thread per env)."""
    b = wp.tid()
    fresh[b] = 0
    if b == 0:
        head[0] = _newest_slot(head, frames)


@wp.func
def _ring_row(head: wp.array(dtype=wp.int32), k: int, frames: int, num_envs: int, b: int) -> int:
    """Ring row of env ``b``'s ``k``-th stored frame, oldest first (the newest slot is ``head[0]``)."""
    return ((head[0] + 1 + k) % frames) * num_envs + b


@wp.func
def _write_stacked(
    out: wp.array4d(dtype=wp.float32), b: int, channel: int, y: int, x: int, channel_first: int, value: float
):
    """Write ``value`` at stacked channel ``channel`` of pixel (y, x) of env ``b``, in either layout."""
    if channel_first != 0:
        out[b, channel, y, x] = value
    else:
        out[b, y, x, channel] = value


@wp.kernel(enable_backward=False)
def _stack(
    ring: wp.array4d(dtype=Any),
    means: wp.array2d(dtype=wp.float32),
    head: wp.array(dtype=wp.int32),
    color: int,
    channel_first: int,
    out: wp.array4d(dtype=wp.float32),
):
    """Pixel (b, y, x) of every stored frame, oldest first: colour as ``value / 255 - mean[b, c]`` of its frame,
    depth-like and normals as stored (normalized by the push)."""
    b, y, x = wp.tid()
    num_envs = out.shape[0]
    frames = ring.shape[0] // num_envs
    channels = ring.shape[3]
    for k in range(frames):
        i = _ring_row(head, k, frames, num_envs, b)
        for c in range(channels):
            value = float(ring[i, y, x, c])
            if color != 0:
                value = value / 255.0 - means[i, c]
            _write_stacked(out, b, k * channels + c, y, x, channel_first, value)


class NewtonCameraFrameStack:
    """The last ``frames`` normalized camera frames of every env, stacked along the channel axis, on the device.

    :meth:`push` stores each step's camera frame; :meth:`stacked` returns the stack as a new float tensor, laid out
    as upstream's ``CameraFrameStack`` lays it out.

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
        self.shape = (num_envs, stacked, height, width) if channel_first else (num_envs, height, width, stacked)
        """Shape of :meth:`stacked`'s tensors."""
        dtype = torch.uint8 if self._mode == _COLOR else torch.float32
        # slot k of env b at row k * num_envs + b (Warp arrays have at most four dimensions)
        self._ring = torch.zeros((frames * num_envs, height, width, channels), dtype=dtype, device=self.device)
        self._means = torch.zeros((frames * num_envs, channels), dtype=torch.float32, device=self.device)
        self._num_envs = num_envs
        self._head = torch.zeros(1, dtype=torch.int32, device=self.device)
        self._fresh = torch.ones(num_envs, dtype=torch.int32, device=self.device)
        self._count_255 = float(height * width) * 255.0
        self._wp_ring = wp.from_torch(self._ring, dtype=wp.uint8 if self._mode == _COLOR else wp.float32)
        self._wp_means = wp.from_torch(self._means)
        self._wp_head = wp.from_torch(self._head)
        self._wp_fresh = wp.from_torch(self._fresh)

    def reset(self, env_ids: Sequence[int] | torch.Tensor | None = None) -> None:
        """Fill all frames of the given envs (default: all) with their next frame."""
        if env_ids is None:
            self._fresh.fill_(1)
        else:
            self._fresh[torch.as_tensor(env_ids, device=self.device, dtype=torch.long)] = 1

    def reset_mask(self, mask: torch.Tensor) -> None:
        """Fill all frames of the envs where ``mask`` (bool, one per env) is set with their next frame; no host sync."""
        self._fresh.masked_fill_(mask, 1)

    def push(self, images: torch.Tensor) -> None:
        """Store the newest camera frame (the oldest one is dropped; an env reset since its last push fills all).

        Warp launches only: a CUDA graph (Warp's or :class:`~isaaclab_newton.physics.graph.TorchWarpGraph`) can
        record it.

        Args:
            images: The camera's output, (num_envs, height, width, channels): uint8 for colour (at least three
                channels; may be a strided view such as the RGB channels of RGBA), float32 otherwise.

        Raises:
            ValueError: If the images' shape or dtype does not match the stack's.
        """
        n, h, w = self._num_envs, *self._ring.shape[1:3]
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
        if self._mode == _COLOR:
            reciprocal = 1 if self.device.startswith("cuda") else 0
            wp.launch_tiled(
                _store_color,
                dim=n,
                inputs=[
                    wp.from_torch(images, dtype=wp.uint8),
                    self._wp_head,
                    self._wp_fresh,
                    self._count_255,
                    reciprocal,
                ],
                outputs=[self._wp_ring, self._wp_means],
                block_dim=_MEAN_BLOCK,
                device=self.device,
            )
        else:
            src = wp.from_torch(images[..., : self.channels], dtype=wp.float32)
            inputs = [src, self._mode, self._wp_head, self._wp_fresh]
            wp.launch(_store_float, dim=(n, h, w), inputs=inputs, outputs=[self._wp_ring], device=self.device)
        wp.launch(_advance, dim=n, inputs=[self._wp_head, self._wp_fresh, self.frames], device=self.device)

    def stacked(self, out: torch.Tensor | None = None) -> torch.Tensor:
        """The stored frames, normalized and stacked oldest first, written in one pass.

        Args:
            out: Float32 tensor of :attr:`shape` on the stack's device to write into; a new one when ``None``.

        Returns:
            ``out``, or the new tensor.

        Raises:
            ValueError: If ``out`` has another shape, dtype or device.
        """
        if out is None:
            out = torch.empty(self.shape, dtype=torch.float32, device=self.device)
        elif tuple(out.shape) != self.shape or out.dtype != torch.float32 or out.device != self._ring.device:
            raise ValueError(
                f"NewtonCameraFrameStack ({self.data_type}): out must be a float32 tensor of shape {self.shape} on"
                f" {self._ring.device}, got {out.dtype} {tuple(out.shape)} on {out.device}."
            )
        color = 1 if self._mode == _COLOR else 0
        inputs = [self._wp_ring, self._wp_means, self._wp_head, color, 1 if self.channel_first else 0]
        dim = (self._num_envs, *self._ring.shape[1:3])
        wp.launch(_stack, dim=dim, inputs=inputs, outputs=[wp.from_torch(out)], device=self.device)
        return out
