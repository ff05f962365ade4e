"""Where a deformable's nodes live in the Newton model: the one lookup the deformable asset and couplers use."""

from __future__ import annotations

import numpy as np

from ...physics import NewtonManager


def deformable_particle_indices(prim_path: str) -> tuple[np.ndarray, np.ndarray]:
    """Return the world ids and model particle indices of the deformable at ``prim_path`` in the scene index.

    Args:
        prim_path: The asset configuration's prim path (regex over environments).

    Returns:
        ``(world_ids, indices)``: world of each env, shape (N,), and particle indices, shape (N, P).

    Raises:
        RuntimeError: If the model is not finalized (before ``sim.reset()``).
        ValueError: If no prim matches ``prim_path`` or it holds no particles.
    """
    entities = NewtonManager.get_scene_index().find(prim_path)
    if entities.count("particle") == 0:
        raise ValueError(
            f"{prim_path!r} holds no particles; spawn a deformable with SoftGridCfg, SoftMeshCfg, ClothGridCfg or"
            " ClothMeshCfg (isaaclab_newton.sim)."
        )
    return np.asarray(entities.world_ids), entities.indices("particle")
