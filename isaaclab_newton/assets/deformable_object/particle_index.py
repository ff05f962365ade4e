"""Where a deformable's nodes live in the Newton model: the one lookup the deformable asset and couplers use."""

from __future__ import annotations

import numpy as np

from ..particle_rows import find_particle_rows

DEFORMABLE_SPAWNERS = "SoftGridCfg, SoftMeshCfg, ClothGridCfg or ClothMeshCfg (isaaclab_newton.sim)"
"""The spawners that make a deformable, named when a prim holds no particles."""


def deformable_particle_indices(prim_path: str) -> tuple[np.ndarray, np.ndarray]:
    """Return the world ids, shape (N,), and model particle indices, shape (N, P), of the deformable at ``prim_path``.

    See :func:`~isaaclab_newton.assets.particle_rows.find_particle_rows` (errors included).
    """
    return find_particle_rows(prim_path, spawners=DEFORMABLE_SPAWNERS)
