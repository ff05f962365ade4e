"""Camera images to stacked float observations on the device, in Warp kernels that a CUDA graph can record.

:class:`NewtonCameraFrameStack` computes what Isaac Lab's ``CameraFrameStack`` with ``normalize_camera_image``
computes (``isaaclab.utils.images``), bit for bit, without torch ops or host reads:

- colour (``uint8``, e.g. the RGB channels of Newton's packed RGBA, or ``albedo``): ``value / 255 - mean``, the mean
  taken per image and channel over the pixels;
- depth-like (``float32``): NaN and infinities replaced with 0 [m];
- normals (``float32``): ``(n + 1) / 2``.

The last ``K`` frames are kept as the camera wrote them (colour as ``uint8`` channel planes packed four pixels to a
32-bit word, with each frame's channel means), in a ring of ``K`` slots whose newest slot a device counter names:
:meth:`NewtonCameraFrameStack.push` writes one slot (every slot for an env reset since its last frame) and
:meth:`NewtonCameraFrameStack.stacked` writes the normalized frames, oldest first, into a new float tensor in one
pass. Nothing older is moved on a push, and the float observation is written once per step, where an env returns it
(a stacked buffer shifted in place and then copied out for the caller writes it three times).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
import warp as wp

from .pixel_threads import PIXELS_PER_THREAD, pixel_values, thread_count

_COLOR, _DEPTH, _NORMALS = 0, 1, 2
_DEPTH_LIKE = ("depth", "distance_to_image_plane", "distance_to_camera")
_COLOR_CHANNELS = {"rgb": 3, "albedo": 3, "rgba": 4, "semantic_segmentation": 4}
"""Channels normalized per colour data type: upstream's camera envs drop albedo's alpha; segmentation is colorized."""

_MEAN_BLOCK = 256
"""Threads that store and sum one colour image (one block per image, :func:`_store_color`)."""

_PIXELS_PER_WORD = 4
"""Pixels of one colour channel packed into a 32-bit ring word (one byte each)."""


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


@wp.func
def _pixel_word(
    words: wp.array2d(dtype=wp.uint32),
    images: wp.array2d(dtype=wp.uint8),
    b: int,
    p: int,
    pixel_stride: int,
    pixels: int,
    channels: int,
) -> wp.uint32:
    """Pixel ``p`` of image ``b`` as one word, channel ``c`` in byte ``c`` (0 past the image): one 32-bit load where
    ``words`` views the image as four-channel pixels, else one byte load per channel."""
    if p >= pixels:
        return wp.uint32(0)
    if words.shape[0] > 0:
        return words[b, p]
    src = p * pixel_stride
    word = wp.uint32(images[b, src]) | (wp.uint32(images[b, src + 1]) << wp.uint32(8))
    word = word | (wp.uint32(images[b, src + 2]) << wp.uint32(16))
    if channels == 4:
        word = word | (wp.uint32(images[b, src + 3]) << wp.uint32(24))
    return word


@wp.func
def _channel_byte(word: wp.uint32, c: int) -> wp.uint32:
    """Byte ``c`` of ``word``."""
    return (word >> wp.uint32(8 * c)) & wp.uint32(0xFF)


@wp.func
def _channel_plane_word(
    q0: wp.uint32, q1: wp.uint32, q2: wp.uint32, q3: wp.uint32, c: int
) -> tuple[wp.uint32, wp.int32]:
    """Channel ``c`` of four pixel words packed into one plane word (the first pixel in the low byte), and its sum."""
    v0 = _channel_byte(q0, c)
    v1 = _channel_byte(q1, c)
    v2 = _channel_byte(q2, c)
    v3 = _channel_byte(q3, c)
    word = v0 | (v1 << wp.uint32(8)) | (v2 << wp.uint32(16)) | (v3 << wp.uint32(24))
    return word, wp.int32(v0) + wp.int32(v1) + wp.int32(v2) + wp.int32(v3)


@wp.func
def _store_word(
    ring: wp.array2d(dtype=wp.uint32), first: int, last: int, num_envs: int, b: int, column: int, word: wp.uint32
):
    """Store ``word`` at ``column`` of env ``b``'s ring slots ``[first, last)``."""
    for k in range(first, last):
        ring[k * num_envs + b, column] = word


@wp.kernel(enable_backward=False)
def _store_color(
    images: wp.array2d(dtype=wp.uint8),
    words: wp.array2d(dtype=wp.uint32),
    pixel_stride: int,
    pixels: int,
    head: wp.array(dtype=wp.int32),
    fresh: wp.array(dtype=wp.int32),
    count_255: float,
    reciprocal: int,
    ring: wp.array2d(dtype=wp.uint32),
    means: wp.array2d(dtype=wp.float32),
):
    """Pack colour image ``b`` into channel planes in the newest ring slot (every slot if fresh) with its channel means.

    Rows are images: ``images[b, p * pixel_stride + c]`` is channel ``c`` of pixel ``p`` (``words[b, p]`` all four
    channels of it, where given); ``ring[row, c * G + g]`` holds channel ``c`` of pixels ``4g .. 4g + 3`` (``G`` words
    a plane). A thread loads its four pixels before it stores their planes, one word store each. One block per image:
    adjacent threads read adjacent pixels, and the integer channel sums meet in a block reduction, so each mean is
    exact (the sum) and rounded once, with no atomics or zeroed buffer.
    """
    b, lane = wp.tid()
    num_envs = images.shape[0]
    frames = ring.shape[0] // num_envs
    channels = means.shape[1]
    groups = ring.shape[1] // channels
    first, last = _slots_written(head, fresh, b, frames)
    r = wp.int32(0)
    gr = wp.int32(0)
    bl = wp.int32(0)
    a = wp.int32(0)
    for g in range(lane, groups, wp.block_dim()):
        p = g * _PIXELS_PER_WORD
        q0 = _pixel_word(words, images, b, p, pixel_stride, pixels, channels)
        q1 = _pixel_word(words, images, b, p + 1, pixel_stride, pixels, channels)
        q2 = _pixel_word(words, images, b, p + 2, pixel_stride, pixels, channels)
        q3 = _pixel_word(words, images, b, p + 3, pixel_stride, pixels, channels)
        word, total = _channel_plane_word(q0, q1, q2, q3, 0)
        _store_word(ring, first, last, num_envs, b, g, word)
        r += total
        word, total = _channel_plane_word(q0, q1, q2, q3, 1)
        _store_word(ring, first, last, num_envs, b, groups + g, word)
        gr += total
        word, total = _channel_plane_word(q0, q1, q2, q3, 2)
        _store_word(ring, first, last, num_envs, b, 2 * groups + g, word)
        bl += total
        if channels == 4:
            word, total = _channel_plane_word(q0, q1, q2, q3, 3)
            _store_word(ring, first, last, num_envs, b, 3 * groups + g, word)
            a += total
    r_sum = wp.tile_sum(wp.tile(r))
    g_sum = wp.tile_sum(wp.tile(gr))
    b_sum = wp.tile_sum(wp.tile(bl))
    a_sum = wp.tile_sum(wp.tile(a))
    if lane == 0:
        for k in range(first, last):
            row = k * num_envs + b
            means[row, 0] = _mean(r_sum[0], count_255, reciprocal)
            means[row, 1] = _mean(g_sum[0], count_255, reciprocal)
            means[row, 2] = _mean(b_sum[0], count_255, reciprocal)
            if channels == 4:
                means[row, 3] = _mean(a_sum[0], count_255, reciprocal)


@wp.kernel(enable_backward=False)
def _store_float(
    images: wp.array2d(dtype=wp.float32),
    pixel_stride: int,
    mode: int,
    head: wp.array(dtype=wp.int32),
    fresh: wp.array(dtype=wp.int32),
    threads: int,
    ring: wp.array2d(dtype=wp.float32),
    channels: int,
):
    """Normalize pixels ``t, t + T, ...`` of depth-like (non-finite to 0) or normals image ``b`` into its ring slots.

    Thread ``b * T + t`` of ``T`` = ``threads`` per image handles :data:`~.pixel_threads.PIXELS_PER_THREAD` pixels
    of image ``b``.
    """
    i = wp.tid()
    b = i // threads
    t = i - b * threads
    num_envs = images.shape[0]
    frames = ring.shape[0] // num_envs
    pixels = ring.shape[1] // channels
    first, last = _slots_written(head, fresh, b, frames)
    for c in range(channels):
        values = pixel_values()
        for u in range(PIXELS_PER_THREAD):
            p = t + u * threads
            if p < pixels:
                values[u] = images[b, p * pixel_stride + c]
        for u in range(PIXELS_PER_THREAD):
            p = t + u * threads
            if p < pixels:
                value = values[u]
                if mode == _DEPTH:
                    if not wp.isfinite(value):
                        value = 0.0
                else:
                    value = (value + 1.0) * 0.5
                for k in range(first, last):
                    ring[k * num_envs + b, p * channels + c] = value


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
def _unpacked(word: wp.uint32, u: int, mean: float) -> float:
    """Pixel ``u`` (byte ``u``) of a packed word normalized: ``value / 255 - mean``."""
    return float(_channel_byte(word, u)) / 255.0 - mean


_STORE_FLOAT4 = """
#if defined(__CUDA_ARCH__)
    *reinterpret_cast<float4*>(wp::address(rows, b, j)) = make_float4(v0, v1, v2, v3);
#else
    *wp::address(rows, b, j) = wp::vec4(v0, v1, v2, v3);
#endif
"""


@wp.func_native(_STORE_FLOAT4)
def _store_float4(rows: wp.array2d(dtype=wp.vec4), b: int, j: int, v0: float, v1: float, v2: float, v3: float):
    """``rows[b, j] = (v0, v1, v2, v3)`` in one 16-byte store on CUDA, where ``rows[b, j]`` must be 16-byte aligned.

    Warp's ``vec4`` is aligned to 4 bytes, so assigning one to an array element compiles to four 4-byte stores
    (``st.global.f32`` in the PTX); the cast to CUDA's ``float4`` gives ``st.global.v4.f32``.
    """
    ...


@wp.func
def _store_plane_word(
    out: wp.array2d(dtype=wp.float32),
    out_vec: wp.array2d(dtype=wp.vec4),
    b: int,
    g: int,
    s: int,
    pixels: int,
    stacked: int,
    channel_first: int,
    word: wp.uint32,
    mean: float,
):
    """Pixels ``4g .. 4g + 3`` of one plane word, normalized, at stacked channel ``s`` of row ``b``: one 16-byte store
    into ``out_vec`` where given, else a store per pixel into ``out`` (channel first or last)."""
    if out_vec.shape[0] > 0:
        _store_float4(
            out_vec,
            b,
            s * (pixels // _PIXELS_PER_WORD) + g,
            _unpacked(word, 0, mean),
            _unpacked(word, 1, mean),
            _unpacked(word, 2, mean),
            _unpacked(word, 3, mean),
        )
    else:
        for u in range(_PIXELS_PER_WORD):
            p = g * _PIXELS_PER_WORD + u
            if p < pixels:
                if channel_first != 0:
                    out[b, s * pixels + p] = _unpacked(word, u, mean)
                else:
                    out[b, p * stacked + s] = _unpacked(word, u, mean)


@wp.kernel(enable_backward=False)
def _stack_color(
    ring: wp.array2d(dtype=wp.uint32),
    means: wp.array2d(dtype=wp.float32),
    head: wp.array(dtype=wp.int32),
    pixels: int,
    channel_first: int,
    out: wp.array2d(dtype=wp.float32),
    out_vec: wp.array2d(dtype=wp.vec4),
):
    """Pixels ``4g .. 4g + 3`` of env ``b``'s stored colour frames, oldest first, into row ``b`` of the stack as
    ``value / 255 - mean[row, c]`` of their frame: a frame's channel words are loaded before any of them is stored.

    Thread ``b * G + g`` of ``G`` words a plane. Stacked channel ``s`` of pixel ``p`` is ``out[b, s * pixels + p]``
    channel first, else ``out[b, p * K * C + s]``. Where ``out_vec`` is given (channel first, four pixels a row
    apart by a multiple of 16 bytes) the four values go out as one 16-byte store, ``out_vec[b, (s * pixels) / 4 + g]``.
    """
    i = wp.tid()
    num_envs = out.shape[0]
    frames = ring.shape[0] // num_envs
    channels = means.shape[1]
    groups = ring.shape[1] // channels
    b = i // groups
    g = i - b * groups
    stacked = frames * channels
    for k in range(frames):
        row = _ring_row(head, k, frames, num_envs, b)
        w0 = ring[row, g]
        w1 = ring[row, groups + g]
        w2 = ring[row, 2 * groups + g]
        w3 = wp.uint32(0)
        if channels == 4:
            w3 = ring[row, 3 * groups + g]
        s = k * channels
        _store_plane_word(out, out_vec, b, g, s, pixels, stacked, channel_first, w0, means[row, 0])
        _store_plane_word(out, out_vec, b, g, s + 1, pixels, stacked, channel_first, w1, means[row, 1])
        _store_plane_word(out, out_vec, b, g, s + 2, pixels, stacked, channel_first, w2, means[row, 2])
        if channels == 4:
            _store_plane_word(out, out_vec, b, g, s + 3, pixels, stacked, channel_first, w3, means[row, 3])


@wp.kernel(enable_backward=False)
def _stack_float(
    ring: wp.array2d(dtype=wp.float32),
    channels: int,
    head: wp.array(dtype=wp.int32),
    channel_first: int,
    threads: int,
    out: wp.array2d(dtype=wp.float32),
):
    """Pixels ``t, t + T, ...`` of env ``b``'s stored depth-like or normals frames (normalized by the push), oldest
    first, into row ``b`` of the stack.

    Thread ``b * T + t`` of ``T`` = ``threads`` per image handles :data:`~.pixel_threads.PIXELS_PER_THREAD` pixels.
    Stacked channel ``s`` of pixel ``p`` is ``out[b, s * pixels + p]`` channel first, else ``out[b, p * K * C + s]``.
    """
    i = wp.tid()
    b = i // threads
    t = i - b * threads
    num_envs = out.shape[0]
    frames = ring.shape[0] // num_envs
    pixels = ring.shape[1] // channels
    stacked = frames * channels
    for k in range(frames):
        row = _ring_row(head, k, frames, num_envs, b)
        for c in range(channels):
            values = pixel_values()
            for u in range(PIXELS_PER_THREAD):
                p = t + u * threads
                if p < pixels:
                    values[u] = ring[row, p * channels + c]
            s = k * channels + c
            for u in range(PIXELS_PER_THREAD):
                p = t + u * threads
                if p < pixels:
                    if channel_first != 0:
                        out[b, s * pixels + p] = values[u]
                    else:
                        out[b, p * stacked + s] = values[u]


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
        self._num_envs = num_envs
        self._height, self._width = height, width
        self._pixels = height * width
        # slot k of env b at row k * num_envs + b: colour as channel planes of packed words (``c * G + g``), else
        # pixels with adjacent channels (``p * C + c``)
        if self._mode == _COLOR:
            self._groups = (self._pixels + _PIXELS_PER_WORD - 1) // _PIXELS_PER_WORD
            self._ring = torch.zeros(
                (frames * num_envs, channels * self._groups), dtype=torch.int32, device=self.device
            )
            self._wp_ring = wp.from_torch(self._ring, dtype=wp.uint32)
        else:
            self._ring = torch.zeros(
                (frames * num_envs, self._pixels * channels), dtype=torch.float32, device=self.device
            )
            self._wp_ring = wp.from_torch(self._ring)
        self._means = torch.zeros((frames * num_envs, channels), dtype=torch.float32, device=self.device)
        self._head = torch.zeros(1, dtype=torch.int32, device=self.device)
        self._fresh = torch.ones(num_envs, dtype=torch.int32, device=self.device)
        self._count_255 = float(self._pixels) * 255.0
        self._threads = thread_count(self._pixels)
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
            ValueError: If the images' shape or dtype does not match the stack's, or their pixels are not evenly
                spaced in memory.
        """
        n, h, w = self._num_envs, self._height, self._width
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
        rows, pixel_stride = _image_rows(images, self.channels)
        if self._mode == _COLOR:
            reciprocal = 1 if self.device.startswith("cuda") else 0
            wp.launch_tiled(
                _store_color,
                dim=n,
                inputs=[
                    rows,
                    _pixel_words(images),
                    pixel_stride,
                    self._pixels,
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
            wp.launch(
                _store_float,
                dim=n * self._threads,
                inputs=[rows, pixel_stride, self._mode, self._wp_head, self._wp_fresh, self._threads],
                outputs=[self._wp_ring, self.channels],
                device=self.device,
            )
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
        elif (
            tuple(out.shape) != self.shape
            or out.dtype != torch.float32
            or out.device != self._means.device
            or not out.is_contiguous()
        ):
            raise ValueError(
                f"NewtonCameraFrameStack ({self.data_type}): out must be a contiguous float32 tensor of shape"
                f" {self.shape} on {self._means.device}, got {out.dtype} {tuple(out.shape)} on {out.device}"
                f"{'' if out.is_contiguous() else ' (not contiguous)'}."
            )
        rows = wp.from_torch(out.view(self._num_envs, -1))
        channel_first = 1 if self.channel_first else 0
        if self._mode == _COLOR:
            inputs = [self._wp_ring, self._wp_means, self._wp_head, self._pixels, channel_first]
            outputs = [rows, _vector_rows(out, self._pixels) if self.channel_first else None]
            wp.launch(
                _stack_color, dim=self._num_envs * self._groups, inputs=inputs, outputs=outputs, device=self.device
            )
        else:
            inputs = [self._wp_ring, self.channels, self._wp_head, channel_first, self._threads]
            wp.launch(
                _stack_float, dim=self._num_envs * self._threads, inputs=inputs, outputs=[rows], device=self.device
            )
        return out


def _pixel_words(images: torch.Tensor) -> wp.array | None:
    """Colour images (N, H, W, C) whose pixels are four bytes apart from a 4-byte aligned start (RGBA, or its RGB
    channels) as N rows of 32-bit pixel words, or ``None`` (the store then loads each channel's byte)."""
    n, h, w, _ = images.shape
    if images.stride()[:3] != (h * w * 4, w * 4, 4) or images.data_ptr() % 4 != 0:
        return None
    return wp.array(
        ptr=images.data_ptr(),
        dtype=wp.uint32,
        shape=(n, h * w),
        strides=(h * w * 4, 4),
        device=str(images.device),
        copy=False,
    )


def _vector_rows(out: torch.Tensor, pixels: int) -> wp.array | None:
    """A contiguous channel-first stack's rows as 16-byte vectors of four pixels, or ``None`` where a plane's pixels
    are not a multiple of four or the buffer is not 16-byte aligned (the colour stack then stores one float at a
    time)."""
    if pixels % _PIXELS_PER_WORD != 0 or out.data_ptr() % 16 != 0:
        return None
    return wp.from_torch(out.view(out.shape[0], -1, 4), dtype=wp.vec4)


def _image_rows(images: torch.Tensor, channels: int) -> tuple[wp.array, int]:
    """``images`` (N, H, W, C) as N rows of their pixels' channels, ``rows[b, p * S + c]``, and ``S``, the pixel stride.

    Raises:
        ValueError: If the pixels are not evenly spaced in memory with adjacent channels (a contiguous buffer or a
            channel slice of one, as cameras write them).
    """
    n, h, w, c = images.shape
    # the stride between pixels, read from a dimension of more than one entry (a single pixel: its channels)
    pixel_stride = images.stride(2) if w > 1 else images.stride(1) if h > 1 else images.stride(0) if n > 1 else c
    expected = (h * w * pixel_stride, w * pixel_stride, pixel_stride, 1)
    dims = zip(images.shape, images.stride(), expected, strict=True)
    if any(size > 1 and stride != want for size, stride, want in dims):
        raise ValueError(
            f"NewtonCameraFrameStack: images of strides {images.stride()} do not lay their pixels out evenly with"
            f" adjacent channels (expected {expected}); pass a contiguous buffer or a channel slice of one."
        )
    dtype = wp.uint8 if images.dtype == torch.uint8 else wp.float32
    rows = wp.array(
        ptr=images.data_ptr(),
        dtype=dtype,
        shape=(n, (h * w - 1) * pixel_stride + channels),
        strides=(h * w * pixel_stride * images.element_size(), images.element_size()),
        device=str(images.device),
        copy=False,
    )
    return rows, pixel_stride
