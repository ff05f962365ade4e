"""FollowCamera: chase-view tiles of chosen worlds (the frames of MP4 videos)."""

from __future__ import annotations

import newton
import numpy as np
import pytest
import warp as wp
from conftest import TEST_DEVICE

from isaaclab_newton.renderers.follow_camera import FollowCamera


@pytest.fixture(scope="module")
def two_world_model() -> newton.Model:
    """Two worlds, each one sphere of radius 0.2 m at rest on a shared ground plane."""
    world = newton.ModelBuilder()
    body = world.add_body(xform=wp.transform((0.0, 0.0, 0.2), wp.quat_identity()), mass=1.0)
    world.add_shape_sphere(body, radius=0.2)
    builder = newton.ModelBuilder()
    builder.replicate(world, 2)
    builder.add_ground_plane()
    return builder.finalize(device=TEST_DEVICE)


def _ground_tones(tile: np.ndarray) -> set[int]:
    """Distinct grey levels of the tile's lower rows (ground only, below the sphere)."""
    rows = tile[-20:].reshape(-1, 3).astype(int)
    grey = rows[(rows.max(axis=1) - rows.min(axis=1)) < 8]
    return {int(v) // 8 for v in grey[:, 0]}


def test_ground_shows_a_checkerboard(two_world_model):
    """The ground under a chase view shows at least two tones (the 0.5 m squares), not one flat colour."""
    camera = FollowCamera(two_world_model, [0, 1], width=64, height=48)
    frame = camera.frame(two_world_model.state())
    assert frame.shape == (48, 2 * 64, 3)
    assert len(_ground_tones(frame[:, :64])) >= 2


def test_world_without_bodies_is_refused(two_world_model):
    """A world index outside the model is refused, naming the model's world count."""
    with pytest.raises(ValueError, match=r"worlds \[5\] do not exist.*has 2"):
        FollowCamera(two_world_model, [0, 5])
