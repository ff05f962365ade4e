"""NewtonCameraFrameStack: Isaac Lab's camera frame stack and normalization, bit for bit, in Warp kernels."""

from __future__ import annotations

import functools

import pytest
import torch
import warp as wp
from conftest import TEST_DEVICE, cuda_only
from isaaclab.utils.images import CameraFrameStack, normalize_camera_image

from isaaclab_newton.renderers.frame_stack import NewtonCameraFrameStack

NUM_ENVS, HEIGHT, WIDTH = 3, 5, 7


def _frames(data_type: str, count: int, height: int = HEIGHT, width: int = WIDTH) -> list[torch.Tensor]:
    """``count`` random camera outputs of ``data_type`` as the renderer writes them (colour: RGBA uint8)."""
    generator = torch.Generator().manual_seed(7)
    frames = []
    for _ in range(count):
        if data_type in ("rgb", "albedo", "rgba", "semantic_segmentation"):
            image = torch.randint(0, 256, (NUM_ENVS, height, width, 4), generator=generator, dtype=torch.uint8)
        elif data_type == "normals":
            image = torch.rand((NUM_ENVS, HEIGHT, WIDTH, 3), generator=generator) * 2.0 - 1.0
        else:
            image = torch.rand((NUM_ENVS, HEIGHT, WIDTH, 1), generator=generator) * 20.0
            image[0, 0, 0, 0] = float("inf")  # a miss
            image[1, 2, 3, 0] = float("nan")
        frames.append(image.to(TEST_DEVICE))
    return frames


def _camera_view(data_type: str, image: torch.Tensor) -> torch.Tensor:
    """What upstream's cartpole camera env hands its frame stack: RGB is a strided view of the RGBA buffer."""
    return image[..., :3] if data_type in ("rgb", "albedo") else image


@pytest.mark.parametrize("frames", [1, 2, 3])
@pytest.mark.parametrize("data_type", ["rgb", "albedo", "rgba", "semantic_segmentation", "depth", "normals"])
def test_matches_isaaclab_frame_stack_bit_for_bit(data_type, frames):
    """Every step's observation equals upstream's CameraFrameStack + normalize_camera_image exactly, resets included."""
    upstream = CameraFrameStack(NUM_ENVS, TEST_DEVICE, frames, channel_first=True)
    normalize = functools.partial(normalize_camera_image, data_type=data_type)
    ours = NewtonCameraFrameStack(NUM_ENVS, HEIGHT, WIDTH, data_type, TEST_DEVICE, frames=frames)
    resets = {2: [1], 4: [0, 2]}
    for step, image in enumerate(_frames(data_type, 6)):
        if step in resets:
            upstream.reset(resets[step])
            mask = torch.zeros(NUM_ENVS, dtype=torch.bool, device=TEST_DEVICE)
            mask[resets[step]] = True
            ours.reset_mask(mask)
        expected = upstream(_camera_view(data_type, image), normalize)
        ours.push(_camera_view(data_type, image))
        got = ours.stacked()
        assert got.shape == expected.shape
        assert torch.equal(got, expected), f"step {step}: max diff {(got - expected).abs().max().item()}"


@pytest.mark.parametrize("data_type", ["rgb", "rgba"])
def test_colour_planes_of_whole_words_match_isaaclab(data_type):
    """With a multiple of four pixels (the stack's 16-byte stores) colour still equals upstream's stack exactly."""
    height, width = 4, 6
    upstream = CameraFrameStack(NUM_ENVS, TEST_DEVICE, 2, channel_first=True)
    normalize = functools.partial(normalize_camera_image, data_type=data_type)
    ours = NewtonCameraFrameStack(NUM_ENVS, height, width, data_type, TEST_DEVICE, frames=2)
    for image in _frames(data_type, 3, height, width):
        ours.push(_camera_view(data_type, image))
        assert torch.equal(ours.stacked(), upstream(_camera_view(data_type, image), normalize))


def test_contiguous_rgb_images_match_isaaclab():
    """Three-byte RGB pixels (no alpha between them: read a byte per channel) stack as upstream's stack does."""
    upstream = CameraFrameStack(NUM_ENVS, TEST_DEVICE, 2, channel_first=True)
    normalize = functools.partial(normalize_camera_image, data_type="rgb")
    ours = NewtonCameraFrameStack(NUM_ENVS, HEIGHT, WIDTH, "rgb", TEST_DEVICE, frames=2)
    for image in _frames("rgb", 3):
        rgb = image[..., :3].contiguous()
        ours.push(rgb)
        assert torch.equal(ours.stacked(), upstream(rgb, normalize))


def test_channel_last_layout_matches_isaaclab():
    """With channel_first=False the stack is laid out (N, H, W, K * C) like upstream's channel-last stack."""
    upstream = CameraFrameStack(NUM_ENVS, TEST_DEVICE, 2, channel_first=False)
    normalize = functools.partial(normalize_camera_image, data_type="rgb")
    ours = NewtonCameraFrameStack(NUM_ENVS, HEIGHT, WIDTH, "rgb", TEST_DEVICE, frames=2, channel_first=False)
    for image in _frames("rgb", 3):
        ours.push(image[..., :3])
        assert torch.equal(ours.stacked(), upstream(image[..., :3], normalize))


def test_reset_by_index_fills_every_frame_with_the_next():
    """After reset([1]) env 1's stacked frames are all its next frame; env 0 keeps its history."""
    ours = NewtonCameraFrameStack(2, 1, 1, "depth", TEST_DEVICE, frames=3)
    for value in (1.0, 2.0):
        ours.push(torch.full((2, 1, 1, 1), value, device=TEST_DEVICE))
    ours.reset([1])
    ours.push(torch.full((2, 1, 1, 1), 3.0, device=TEST_DEVICE))
    got = ours.stacked()
    assert got[:, :, 0, 0].tolist() == [[1.0, 2.0, 3.0], [3.0, 3.0, 3.0]]


def test_each_stack_is_a_new_tensor_that_later_pushes_leave_alone():
    """stacked() returns a new tensor per call: a later push does not change a stack the caller holds."""
    ours = NewtonCameraFrameStack(1, 1, 1, "depth", TEST_DEVICE, frames=2)
    ours.push(torch.full((1, 1, 1, 1), 1.0, device=TEST_DEVICE))
    held = ours.stacked()
    ours.push(torch.full((1, 1, 1, 1), 2.0, device=TEST_DEVICE))
    assert held[0, :, 0, 0].tolist() == [1.0, 1.0]
    assert ours.stacked()[0, :, 0, 0].tolist() == [1.0, 2.0]


def test_stacked_writes_into_a_given_tensor_of_its_shape_only():
    """stacked(out) fills out; an out of another shape is refused naming the expected one."""
    ours = NewtonCameraFrameStack(NUM_ENVS, HEIGHT, WIDTH, "rgb", TEST_DEVICE, frames=2)
    ours.push(_frames("rgb", 1)[0][..., :3])
    out = torch.empty(ours.shape, device=TEST_DEVICE)
    assert ours.stacked(out) is out
    assert torch.equal(out, ours.stacked())
    with pytest.raises(ValueError, match=r"shape \(3, 6, 5, 7\)"):
        ours.stacked(torch.empty((NUM_ENVS, 3, HEIGHT, WIDTH), device=TEST_DEVICE))


def test_wrong_images_are_refused():
    """Images of another dtype or size are refused with the expected shape in the message."""
    ours = NewtonCameraFrameStack(NUM_ENVS, HEIGHT, WIDTH, "rgb", TEST_DEVICE)
    with pytest.raises(ValueError, match=r"expected torch.uint8 images of shape \(3, 5, 7, C\)"):
        ours.push(torch.zeros((NUM_ENVS, HEIGHT, WIDTH, 3), device=TEST_DEVICE))


def test_stacked_refuses_an_out_that_is_not_contiguous():
    """stacked(out) with a strided view of the right shape is refused (the kernel writes rows of a flat buffer)."""
    ours = NewtonCameraFrameStack(NUM_ENVS, HEIGHT, WIDTH, "depth", TEST_DEVICE, frames=2)
    ours.push(_frames("depth", 1)[0])
    strided = torch.empty((NUM_ENVS, HEIGHT, WIDTH, 2), device=TEST_DEVICE).permute(0, 3, 1, 2)
    with pytest.raises(ValueError, match="not contiguous"):
        ours.stacked(strided)


def test_images_whose_channels_are_not_adjacent_are_refused():
    """Channel-first images viewed as (N, H, W, C) are refused naming the layout expected, not read wrongly."""
    ours = NewtonCameraFrameStack(NUM_ENVS, HEIGHT, WIDTH, "normals", TEST_DEVICE)
    images = torch.zeros((NUM_ENVS, 3, HEIGHT, WIDTH), device=TEST_DEVICE).permute(0, 2, 3, 1)
    with pytest.raises(ValueError, match="do not lay their pixels out evenly with adjacent channels"):
        ours.push(images)


def test_unsupported_data_type_is_refused():
    """A data type the kernels do not normalize is refused, naming the supported ones."""
    with pytest.raises(ValueError, match="'motion_vectors' is not supported"):
        NewtonCameraFrameStack(NUM_ENVS, HEIGHT, WIDTH, "motion_vectors", TEST_DEVICE)


@cuda_only("records a CUDA graph")
def test_push_replays_from_a_cuda_graph():
    """A push recorded in a Warp CUDA graph and replayed on new frames stacks as upstream's eager frame stack."""
    frames = _frames("rgb", 4)
    upstream = CameraFrameStack(NUM_ENVS, TEST_DEVICE, 2, channel_first=True)
    normalize = functools.partial(normalize_camera_image, data_type="rgb")
    ours = NewtonCameraFrameStack(NUM_ENVS, HEIGHT, WIDTH, "rgb", TEST_DEVICE, frames=2)
    camera = frames[0].clone()
    ours.push(camera[..., :3])  # first push: kernels loaded
    upstream(frames[0][..., :3], normalize)
    with wp.ScopedCapture(device=TEST_DEVICE) as capture:
        ours.push(camera[..., :3])
    for image in frames[1:]:
        camera.copy_(image)
        wp.capture_launch(capture.graph)
        assert torch.equal(ours.stacked(), upstream(image[..., :3], normalize))


def test_colour_stack_writes_four_pixels_in_one_16_byte_store(tmp_path):
    """Compiled for sm_90 by Warp's NVRTC (no GPU needed), the colour stack's vector path stores four pixels with one
    st.global.v4.f32 (a plain vec4 assignment compiles to four st.global.f32)."""
    from warp._src import build

    from isaaclab_newton.renderers import frame_stack

    module = frame_stack._stack_color.module
    options = {**module.options, "block_dim": module.options.get("block_dim", 256)}
    source = module._run_codegen(options, is_cpu=False)[0]
    (tmp_path / "stack.cu").write_text(source)
    build.build_cuda(
        str(tmp_path / "stack.cu"),
        90,
        str(tmp_path / "stack.ptx"),
        pch_dir=str(tmp_path),
        use_precompiled_headers=False,
    )
    ptx = (tmp_path / "stack.ptx").read_text()
    kernel = ptx[ptx.index(".entry _stack_color") :]
    kernel = kernel[: kernel.index("\n}\n")]
    assert kernel.count("st.global.v4.f32") == 4  # one per colour channel slot (up to four)
