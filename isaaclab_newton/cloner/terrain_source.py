"""Core's terrains into the Newton builder: generated ones as heightfields where core tags them and exact triangle
meshes else, planes as Newton's ground plane."""

from __future__ import annotations

import copy
import logging
from typing import Any

import newton
import numpy as np
import warp as wp

logger = logging.getLogger(__name__)

HEIGHTFIELD_ATTR = "newton:heightfield:resolution"
"""Attribute core's ``TerrainImporter`` authors on a generated terrain that may collide as a heightfield [m]."""


def add_generated_terrain(builder: newton.ModelBuilder, cfg: Any, root_path: str, stage: Any) -> None:
    """Add the collision meshes core's ``TerrainImporter`` authored under ``root_path`` as static shapes.

    A mesh tagged with :data:`HEIGHTFIELD_ATTR` (on itself or an ancestor below ``root_path``) is rasterized at that
    horizontal resolution into a :class:`newton.Heightfield` (exact for core's height-field sub-terrains, which are
    sampled on the same grid); every other mesh becomes a triangle mesh shape, which Newton's collision pipeline
    collides triangle by triangle. Friction and restitution come from ``cfg.physics_material``.

    Args:
        builder: The builder of the shared world.
        cfg: The ``TerrainImporterCfg``.
        root_path: The terrain's prim path (``cfg.prim_path``).
        stage: The USD stage holding the generated meshes.

    Raises:
        ValueError: If an untagged mesh would be collided by MuJoCo's own contact detection, which uses a mesh's
            convex hull; the message names the two fixes.
    """
    from pxr import Usd, UsdGeom, UsdPhysics

    shape_cfg = _terrain_shape_cfg(builder, cfg)
    for prim in Usd.PrimRange(stage.GetPrimAtPath(root_path)):
        if not (prim.IsA(UsdGeom.Mesh) and prim.HasAPI(UsdPhysics.CollisionAPI)):
            continue
        points, faces = _world_triangles(UsdGeom.Mesh(prim))
        path = str(prim.GetPath())
        resolution = _heightfield_resolution(prim, root_path)
        if resolution is not None:
            mesh = wp.Mesh(points=wp.array(points, dtype=wp.vec3), indices=wp.array(faces.ravel(), dtype=wp.int32))
            _warn_of_vertical_steps(path, mesh, points, resolution)
            field, xform = newton.Heightfield.create_from_mesh(mesh, resolution)
            builder.add_shape_heightfield(xform=xform, heightfield=field, cfg=shape_cfg, label=path)
        else:
            _check_mesh_collision_path(path)
            builder.add_shape_mesh(body=-1, mesh=newton.Mesh(points, faces.ravel()), cfg=shape_cfg, label=path)


def add_plane_terrain(builder: newton.ModelBuilder, cfg: Any) -> None:
    """Add the infinite ground plane at z = 0 of a ``TerrainImporterCfg(terrain_type="plane")`` as a static shape.

    Friction and restitution come from ``cfg.physics_material``. The plane needs no USD asset: the stage holds only
    the marker prim :class:`~isaaclab_newton.terrains.NewtonTerrainImporter` authors.

    Args:
        builder: The builder of the shared world.
        cfg: The ``TerrainImporterCfg``.
    """
    builder.add_ground_plane(cfg=_terrain_shape_cfg(builder, cfg), label=f"{cfg.prim_path}/terrain")


def _terrain_shape_cfg(builder: newton.ModelBuilder, cfg: Any) -> newton.ModelBuilder.ShapeConfig:
    shape_cfg = copy.copy(builder.default_shape_cfg)
    material = getattr(cfg, "physics_material", None)
    if material is not None:
        shape_cfg.mu = float(material.static_friction)
        shape_cfg.restitution = float(material.restitution)
    return shape_cfg


def _world_triangles(mesh: Any) -> tuple[np.ndarray, np.ndarray]:
    """Vertices in the world frame [m] and triangle indices (N, 3) of a USD mesh.

    Raises:
        ValueError: If the mesh has faces that are not triangles.
    """
    counts = np.asarray(mesh.GetFaceVertexCountsAttr().Get())
    if counts.size and (counts != 3).any():
        raise ValueError(
            f"Terrain mesh {mesh.GetPath()} has non-triangular faces; core's TerrainImporter writes triangle meshes,"
            " triangulate a mesh of your own before importing it as terrain."
        )
    points = np.asarray(mesh.GetPointsAttr().Get(), dtype=np.float64)
    matrix = np.asarray(mesh.ComputeLocalToWorldTransform(0.0), dtype=np.float64)  # row-vector convention
    world = points @ matrix[:3, :3] + matrix[3, :3]
    faces = np.asarray(mesh.GetFaceVertexIndicesAttr().Get(), dtype=np.int32).reshape(-1, 3)
    return world.astype(np.float32), faces


def _heightfield_resolution(prim: Any, root_path: str) -> float | None:
    """The ``newton:heightfield:resolution`` of the mesh or its closest tagged ancestor below ``root_path``."""
    while prim.IsValid() and str(prim.GetPath()).startswith(root_path):
        attr = prim.GetAttribute(HEIGHTFIELD_ATTR)
        if attr.IsValid() and attr.Get() is not None:
            return float(attr.Get())
        prim = prim.GetParent()
    return None


def vertical_steps(mesh: wp.Mesh, points: np.ndarray, resolution: float) -> tuple[int, float]:
    """Grid points where a terrain mesh's top surface steps vertically, and the largest step [m].

    A heightfield holds one height per grid point. Core's generator moves the vertices of steep height-field cells
    one cell sideways (``TerrainGeneratorCfg.slope_threshold``) to make vertical walls, and neighbouring sub-terrains
    can meet at different heights. At each point of the heightfield's grid, four rays cast straight down just beside
    it (0.1 mm off, one per quadrant) see the same height on a continuous surface and different heights at a wall.

    Args:
        mesh: The terrain as a Warp mesh (world frame).
        points: Its vertices (N, 3) [m], which set the grid's extent.
        resolution: Horizontal grid spacing [m] of the heightfield.
    """
    lower, upper = points.min(axis=0), points.max(axis=0)
    ncol, nrow = (np.round((upper[:2] - lower[:2]) / resolution).astype(int) + 1).tolist()
    steps = wp.zeros(nrow * ncol, dtype=wp.float32, device=mesh.device)
    wp.launch(
        _grid_point_steps,
        dim=nrow * ncol,
        inputs=[mesh.id, wp.vec2(*lower[:2]), float(resolution), ncol, float(upper[2]) + 1.0],
        outputs=[steps],
        device=mesh.device,
    )
    spread = steps.numpy()
    walls = spread > 1e-3
    return int(walls.sum()), float(spread.max(initial=0.0))


@wp.kernel(enable_backward=False)
def _grid_point_steps(
    mesh: wp.uint64, origin: wp.vec2, resolution: float, ncol: int, top: float, steps: wp.array(dtype=wp.float32)
):
    point = wp.tid()
    row = point // ncol
    x = origin[0] + float(point - row * ncol) * resolution
    y = origin[1] + float(row) * resolution
    low = float(1.0e30)  # noqa: UP018 - Warp: a variable changed in a dynamic loop is declared by its type
    high = float(-1.0e30)  # noqa: UP018
    hits = int(0)  # noqa: UP018
    for quadrant in range(4):
        dx = 1.0e-4 * (1.0 - 2.0 * float(quadrant % 2))
        dy = 1.0e-4 * (1.0 - 2.0 * float(quadrant // 2))
        query = wp.mesh_query_ray(mesh, wp.vec3(x + dx, y + dy, top), wp.vec3(0.0, 0.0, -1.0), 1.0e6)
        if query.result:
            height = top - query.t
            low = wp.min(low, height)
            high = wp.max(high, height)
            hits += 1
    if hits == 4:
        steps[point] = high - low


def _warn_of_vertical_steps(path: str, mesh: wp.Mesh, points: np.ndarray, resolution: float) -> None:
    count, largest = vertical_steps(mesh, points, resolution)
    if count:
        logger.warning(
            "Terrain %s imports as a heightfield, but at %d grid points its mesh has vertical steps (up to %.3f m),"
            " which a heightfield cannot hold: contacts there follow the sampled heights, not the mesh. Core makes"
            " such steps where TerrainGeneratorCfg.slope_threshold moves steep cells sideways; set"
            " slope_threshold=None for a heightfield that follows the mesh's triangles, or leave"
            " convert_to_heightfield unset to collide the mesh triangle by triangle.",
            path,
            count,
            largest,
        )


def _check_mesh_collision_path(path: str) -> None:
    """Refuse a mesh terrain that MuJoCo's own contact detection would collide as its convex hull."""
    from isaaclab.sim import SimulationContext

    sim = SimulationContext.instance()
    solver_cfg = getattr(getattr(getattr(sim, "cfg", None), "physics", None), "solver_cfg", None)
    if getattr(solver_cfg, "solver_type", None) == "mujoco_warp" and getattr(solver_cfg, "use_mujoco_contacts", False):
        raise ValueError(
            f"The terrain mesh {path!r} would collide as its convex hull under MuJoCo's own contact detection"
            " (MJWarpSolverCfg.use_mujoco_contacts=True). Set MJWarpSolverCfg(use_mujoco_contacts=False) so Newton's"
            " collision pipeline collides its triangles, or set convert_to_heightfield=True on every sub-terrain so"
            " it imports as a heightfield."
        )
