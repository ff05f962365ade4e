"""The particles of the drawn envs: Newton's viewers draw every world's particles, the live viewer only its own."""

from __future__ import annotations

from collections.abc import Sequence

import newton
import torch
import warp as wp

PARTICLE_COLOR = (0.7, 0.6, 0.4)
"""Colour of drawn particles (linear RGB)."""


class ChosenParticles:
    """Particles of the worlds ``env_ids`` (and global ones), gathered on the device each frame.

    Args:
        model: The Newton model (with particles).
        env_ids: The drawn worlds.
    """

    def __init__(self, model: newton.Model, env_ids: Sequence[int]) -> None:
        world = wp.to_torch(model.particle_world)
        chosen = torch.tensor(list(env_ids), dtype=world.dtype, device=world.device)
        self.rows = torch.nonzero(torch.isin(world, chosen) | (world < 0)).squeeze(-1)
        self.radii = wp.from_torch(wp.to_torch(model.particle_radius)[self.rows].contiguous())

    def points(self, state: newton.State) -> wp.array:
        """Positions [m] of the chosen particles in ``state`` (a new device array)."""
        return wp.from_torch(wp.to_torch(state.particle_q)[self.rows].contiguous(), dtype=wp.vec3)

    def draw(self, viewer, state: newton.State) -> None:
        """Log the chosen particles into ``viewer`` (between ``begin_frame`` and ``end_frame``)."""
        viewer.log_points("/particles", self.points(state), self.radii, PARTICLE_COLOR)
