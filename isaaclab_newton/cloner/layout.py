"""Where each cloned asset landed in the Newton model: per-world index ranges keyed by prim path."""

from __future__ import annotations

from dataclasses import dataclass, field

import newton
import numpy as np

_COUNTERS = ("body", "joint", "articulation", "shape", "joint_dof", "joint_coord", "particle", "tri", "tet")


def builder_counts(builder: newton.ModelBuilder) -> dict[str, int]:
    """Return the builder's current entity counts (bodies, joints, articulations, shapes, DOFs, coordinates,
    particles, triangles, tetrahedra)."""
    return {
        "body": builder.body_count,
        "joint": builder.joint_count,
        "articulation": builder.articulation_count,
        "shape": builder.shape_count,
        "joint_dof": builder.joint_dof_count,
        "joint_coord": builder.joint_coord_count,
        "particle": builder.particle_count,
        "tri": builder.tri_count,
        "tet": builder.tet_count,
    }


@dataclass
class AssetLayout:
    """Index ranges of one declared asset in every world that holds it.

    ``starts[kind][i]`` is the first model index of entity ``kind`` (``body``, ``joint``, ``articulation``,
    ``shape``, ``joint_dof``, ``joint_coord``, ``particle``, ``tri``, ``tet``) of the asset in world
    ``world_ids[i]``; ``counts[kind]`` is how many it owns per world (the same in every world).
    """

    prim_path: str
    world_ids: np.ndarray
    starts: dict[str, np.ndarray] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def indices(self, kind: str) -> np.ndarray:
        """Model indices of entity ``kind``, shape (num_worlds, count)."""
        return self.starts[kind][:, None] + np.arange(self.counts[kind])[None, :]


@dataclass
class SceneLayout:
    """Layouts of all cloned assets of the scene built by one :class:`NewtonReplicateContext`."""

    builder: newton.ModelBuilder
    num_worlds: int
    assets: dict[str, AssetLayout] = field(default_factory=dict)

    def find(self, prim_path: str) -> AssetLayout | None:
        """Return the layout declared under ``prim_path`` (the asset cfg's ``prim_path``), if any."""
        return self.assets.get(prim_path)


_ACTIVE: SceneLayout | None = None


def set_scene_layout(layout: SceneLayout | None) -> None:
    """Publish the layout of the scene that was just built (``None`` clears it)."""
    global _ACTIVE
    _ACTIVE = layout


def get_scene_layout() -> SceneLayout | None:
    """Return the layout of the last replicated scene, or ``None`` when no scene was replicated."""
    return _ACTIVE
