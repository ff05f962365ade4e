"""Spawn functions of the Newton physics materials that cannot be authored on this backend."""

from __future__ import annotations


def reject_newton_deformable_material(prim_path: str, cfg) -> None:
    """Refuse to spawn a deformable material: the Newton backend does not simulate Isaac Lab deformables yet."""
    raise NotImplementedError(
        f"{type(cfg).__name__} at {prim_path!r}: deformable bodies are not supported by the isaaclab_newton backend"
        " yet. Remove the deformable object from the scene."
    )
