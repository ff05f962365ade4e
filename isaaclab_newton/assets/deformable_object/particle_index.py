"""Where a deformable's nodes live in the Newton model: the one lookup the deformable asset uses."""

from __future__ import annotations

import numpy as np

from ..articulation.binding import ArticulationBinding


def deformable_particle_indices(prim_path: str) -> tuple[np.ndarray, np.ndarray]:
    """Return the world ids and model particle indices of the deformable declared at ``prim_path``.

    Args:
        prim_path: The asset configuration's prim path (regex over environments).

    Returns:
        ``(world_ids, indices)``: world of each env, shape (N,), and particle indices, shape (N, P).

    Raises:
        RuntimeError: If no cloned asset matches ``prim_path``.
        ValueError: If the asset holds no particles.
    """
    layout = ArticulationBinding._find_layout(prim_path)
    if layout.counts.get("particle", 0) == 0:
        raise ValueError(
            f"{prim_path!r} holds no particles; spawn a deformable with SoftGridCfg, SoftMeshCfg, ClothGridCfg or"
            " ClothMeshCfg (isaaclab_newton.sim)."
        )
    return np.asarray(layout.world_ids), layout.indices("particle")
