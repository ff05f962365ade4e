"""ChosenParticles: the drawn envs' particles (and global ones) and no other world's."""

from __future__ import annotations

import newton
import numpy as np
import warp as wp
from conftest import TEST_DEVICE

from isaaclab_contrib.viewer.chosen_particles import ChosenParticles


def test_points_are_the_chosen_worlds_particles():
    """Of three worlds with two particles each plus one global particle, worlds 0 and 2 give five points."""
    builder = newton.ModelBuilder()
    builder.add_particle((0.0, 0.0, -1.0), (0.0, 0.0, 0.0), mass=1.0, radius=0.05)  # global (world -1)
    for world in range(3):
        builder.begin_world()
        for k in range(2):
            builder.add_particle((float(world), float(k), 1.0), (0.0, 0.0, 0.0), mass=1.0, radius=0.01 * (world + 1))
        builder.end_world()
    model = builder.finalize(device=TEST_DEVICE)
    chosen = ChosenParticles(model, [0, 2])
    points = chosen.points(model.state()).numpy()
    assert sorted(map(tuple, points.tolist())) == [
        (0.0, 0.0, -1.0),
        (0.0, 0.0, 1.0),
        (0.0, 1.0, 1.0),
        (2.0, 0.0, 1.0),
        (2.0, 1.0, 1.0),
    ]
    assert np.allclose(sorted(chosen.radii.numpy()), [0.01, 0.01, 0.03, 0.03, 0.05])
    assert chosen.points(model.state()).dtype == wp.vec3
