"""Import one asset prototype into a builder: Newton file importers for our spawners, USD stage otherwise."""

from __future__ import annotations

from typing import Any

import newton
import numpy as np
import warp as wp

from ..physics.scene_index import builder_counts
from ..sim.spawners.deformable_spawners import add_deformable
from ..sim.spawners.deformable_spawners_cfg import DeformableSpawnerCfg
from ..sim.spawners.file_checks import check_xml_file, describe_import_error
from ..sim.spawners.file_spawners_cfg import GroundPlaneCfg, NewtonFileCfg
from ..sim.spawners.mpm import MPMGridCfg, add_mpm_grid
from .terrain_source import add_generated_terrain, add_plane_terrain


def _self_collisions(spawn: NewtonFileCfg) -> bool:
    """Resolve self-collisions from ``articulation_props`` fragments, else the spawner field."""
    from ..sim.schemas import NewtonArticulationCfg

    props = spawn.articulation_props
    fragments = props if isinstance(props, (list, tuple)) else [props]
    for fragment in fragments:
        if isinstance(fragment, NewtonArticulationCfg) and fragment.self_collision_enabled is not None:
            return bool(fragment.self_collision_enabled)
    return bool(spawn.enable_self_collisions)


def init_transform(cfg: Any) -> wp.transform:
    """Return the asset's initial pose relative to its environment (``cfg.init_state``; identity if absent)."""
    init = getattr(cfg, "init_state", None)
    if init is None:
        return wp.transform_identity()
    pos = tuple(float(v) for v in init.pos)
    rot = tuple(float(v) for v in init.rot)  # Isaac Lab 3 uses (x, y, z, w), like Warp
    return wp.transform(pos, wp.quat(*rot))


def import_file_asset(
    builder: newton.ModelBuilder, spawn: NewtonFileCfg, xform: wp.transform, *, load_visual_shapes: bool = True
) -> None:
    """Import a URDF/MJCF/USD file with Newton's importer at ``xform``.

    Args:
        builder: Builder receiving the asset.
        spawn: The file spawner configuration.
        xform: Pose of the asset's root in the builder's frame.
        load_visual_shapes: Whether visual-only shapes are imported (:attr:`NewtonCfg.load_visual_shapes`).

    Raises:
        ValueError: If visual shapes are to be skipped for a URDF file (Newton's URDF importer always adds them).

    Raises:
        ValueError: If an MJCF/URDF file is malformed or holds a value the importer rejects; the message names
            the file and, where it can be found, the element, attribute and line.
    """
    kwargs = dict(
        xform=xform,
        floating=spawn.floating,
        enable_self_collisions=_self_collisions(spawn),
        collapse_fixed_joints=spawn.collapse_fixed_joints,
        override_root_xform=spawn.override_root_xform,
    )
    if spawn.file_format == "mjcf":
        kwargs["parse_visuals"] = load_visual_shapes
    elif spawn.file_format == "usd":
        kwargs["load_visual_shapes"] = load_visual_shapes
    elif not load_visual_shapes:
        raise ValueError(
            f"NewtonCfg.load_visual_shapes=False cannot be honoured for the URDF file {spawn.asset_path!r}: Newton's"
            " URDF importer always adds visual shapes. Set load_visual_shapes=True or convert the asset to MJCF/USD."
        )
    kwargs.update(spawn.importer_kwargs)
    if spawn.file_format in ("urdf", "mjcf"):
        field = f"{type(spawn).__name__}.asset_path"
        check_xml_file(spawn.asset_path, file_format=spawn.file_format, field=field)
        importer = builder.add_urdf if spawn.file_format == "urdf" else builder.add_mjcf
        try:
            importer(spawn.asset_path, **kwargs)
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            raise describe_import_error(
                spawn.asset_path, file_format=spawn.file_format, field=field, error=exc
            ) from exc
    elif spawn.file_format == "usd":
        builder.add_usd(spawn.asset_path, root_path=spawn.root_path, **kwargs)
    else:
        raise ValueError(f"Unknown file_format {spawn.file_format!r} in {type(spawn).__name__}.")


def has_physics(stage: Any, root_path: str) -> bool:
    """Whether the USD subtree at ``root_path`` holds rigid bodies, colliders or articulation roots."""
    from pxr import Usd, UsdPhysics

    root = stage.GetPrimAtPath(root_path)
    if not root.IsValid():
        return False
    apis = (UsdPhysics.RigidBodyAPI, UsdPhysics.CollisionAPI, UsdPhysics.ArticulationRootAPI)
    return any(any(prim.HasAPI(api) for api in apis) for prim in Usd.PrimRange(root))


def world_to_env_transform(stage: Any, env_root: str | None) -> wp.transform:
    """Inverse of the env root prim's world pose (identity when there is no env root)."""
    if env_root is None:
        return wp.transform_identity()
    from pxr import UsdGeom

    prim = stage.GetPrimAtPath(env_root)
    if not prim.IsValid():
        return wp.transform_identity()
    matrix = UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(0.0)
    t = matrix.ExtractTranslation()
    q = matrix.ExtractRotationQuat()
    im = q.GetImaginary()
    pose = wp.transform((t[0], t[1], t[2]), wp.quat(im[0], im[1], im[2], q.GetReal()))
    return wp.transform_inverse(pose)


_LABELED = (
    ("body", "body_label"),
    ("joint", "joint_label"),
    ("shape", "shape_label"),
    ("articulation", "articulation_label"),
)


def relabel(builder: newton.ModelBuilder, before: dict[str, int], prefix: str, *, strip: str = "") -> None:
    """Rename labels of entities added since ``before`` to ``prefix/<label without strip>``.

    Newton's importers label entities with the file's own prim paths (``/cartpole/pole``) or with the env-0
    stage path; after this they read as the asset's path below the env root (``Robot/pole``), so that the
    replicated worlds carry ``/World/envs/env_<i>/Robot/pole``.

    Args:
        builder: Builder whose new entities are relabeled.
        before: Entity counts before the asset was added (``scene_index.builder_counts``).
        prefix: Asset path relative to its env root (no leading ``/``), or the absolute path of a shared asset.
        strip: Leading path removed from each label first (the file's root path or the env root).
    """
    strip = strip.rstrip("/")
    for kind, attr in _LABELED:
        labels = getattr(builder, attr)
        for i in range(before[kind], len(labels)):
            label = labels[i]
            if strip and (label == strip or label.startswith(strip + "/")):
                label = label[len(strip) :]
            label = label.strip("/")
            labels[i] = f"{prefix}/{label}" if label else prefix


def add_asset_prototype(
    builder: newton.ModelBuilder,
    cfg: Any,
    source_path: str,
    stage: Any,
    *,
    env_root: str | None,
    load_visual_shapes: bool,
) -> str | None:
    """Add one declared asset to ``builder``.

    Args:
        builder: The builder receiving the asset (a world prototype or the shared world).
        cfg: The asset configuration from the clone plan.
        source_path: The prim path where the prototype was authored.
        stage: The USD stage.
        env_root: Env-0 root prim for per-environment assets (their poses become env-local); ``None`` for
            shared assets.
        load_visual_shapes: Whether importers add visual-only shapes (the manager's
            :meth:`~isaaclab_newton.physics.NewtonManager.load_visual_shapes`).

    Returns:
        The asset's path relative to ``env_root`` (absolute for shared assets) that its entities are labelled
        under, or ``None`` when nothing physical was added.
    """
    spawn = getattr(cfg, "spawn", None)
    visuals = load_visual_shapes
    before = builder_counts(builder)
    if env_root is not None and (source_path == env_root or source_path.startswith(env_root.rstrip("/") + "/")):
        prefix = source_path[len(env_root.rstrip("/")) :].strip("/")
    else:
        prefix = source_path
    if isinstance(spawn, NewtonFileCfg):
        import_file_asset(builder, spawn, init_transform(cfg), load_visual_shapes=visuals)
        root = spawn.root_path if spawn.file_format == "usd" else ""
        relabel(builder, before, prefix, strip="" if root == "/" else root)
        return prefix
    if isinstance(spawn, DeformableSpawnerCfg):
        add_deformable(builder, spawn, init_transform(cfg), label=prefix)
        return prefix
    if isinstance(spawn, MPMGridCfg):
        add_mpm_grid(builder, spawn, init_transform(cfg))
        return prefix
    if isinstance(spawn, GroundPlaneCfg):
        pose = init_transform(cfg)
        cfg_kwargs = {}
        if spawn.static_friction is not None:
            cfg_kwargs["cfg"] = newton.ModelBuilder.ShapeConfig(mu=spawn.static_friction)
        builder.add_ground_plane(height=float(np.asarray(pose.p)[2]), **cfg_kwargs)
        relabel(builder, before, prefix)
        return prefix
    if getattr(cfg, "terrain_type", None) == "plane" and not (stage is not None and has_physics(stage, source_path)):
        add_plane_terrain(builder, cfg)  # NewtonTerrainImporter's marker; core's own importer references a USD plane
        return prefix
    if stage is None or not has_physics(stage, source_path):
        return None
    if getattr(cfg, "terrain_type", None) == "generator":
        add_generated_terrain(builder, cfg, source_path, stage)
        return prefix
    builder.add_usd(
        stage, root_path=source_path, xform=world_to_env_transform(stage, env_root), load_visual_shapes=visuals
    )
    relabel(builder, before, prefix, strip=source_path)
    return prefix
