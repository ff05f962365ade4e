"""Questions about a finalized model that solver managers ask before they accept a scene (host reads, build time)."""

from __future__ import annotations

import newton
import numpy as np


def has_dynamic_bodies(model: newton.Model) -> bool:
    """Whether ``model`` has a body with nonzero inverse mass (one a solver must integrate)."""
    return bool(model.body_count) and bool(np.any(model.body_inv_mass.numpy() > 0.0))


def unjointed_bodies(model: newton.Model) -> list[int]:
    """Indices of ``model``'s bodies that are the child of no joint (reduced-coordinate solvers cannot move them)."""
    if not model.body_count:
        return []
    children = set(model.joint_child.numpy().tolist()) if model.joint_count else set()
    return [body for body in range(model.body_count) if body not in children]
