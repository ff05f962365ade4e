"""Spawn functions of the offline file spawners: they author a transform prim and validate the file."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from isaaclab.sim.utils import create_prim, get_current_stage

from .file_checks import check_xml_file

if TYPE_CHECKING:
    from pxr import Usd

    from .file_spawners_cfg import GroundPlaneCfg, NewtonFileCfg

_FORMATS = ("urdf", "mjcf", "usd")


def spawn_newton_file(
    prim_path: str,
    cfg: NewtonFileCfg,
    translation: tuple[float, float, float] | None = None,
    orientation: tuple[float, float, float, float] | None = None,
    **kwargs,
) -> Usd.Prim:
    """Author the asset's root transform; the file is imported later by the Newton clone context.

    Args:
        prim_path: Where the asset's root prim is authored (the env-0 prototype path).
        cfg: The spawner configuration.
        translation: Position of the asset relative to its parent prim [m].
        orientation: Orientation relative to its parent prim, quaternion (x, y, z, w).

    Returns:
        The authored transform prim.

    Raises:
        FileNotFoundError: If ``cfg.asset_path`` does not exist.
        ValueError: If ``cfg.file_format`` is not one of ``urdf``, ``mjcf``, ``usd``, or an MJCF/URDF file is not
            well-formed XML (the message names the file, line and column).
    """
    if cfg.file_format not in _FORMATS:
        raise ValueError(f"{type(cfg).__name__}.file_format must be one of {_FORMATS}, got {cfg.file_format!r}.")
    if not cfg.asset_path or not os.path.isfile(cfg.asset_path):
        raise FileNotFoundError(
            f"{type(cfg).__name__}.asset_path {cfg.asset_path!r} is not a file; pass an absolute path to a local"
            f" {cfg.file_format.upper()} file (e.g. newton.examples.get_asset('cartpole.urdf'))."
        )
    if cfg.file_format in ("mjcf", "urdf"):
        check_xml_file(cfg.asset_path, file_format=cfg.file_format, field=f"{type(cfg).__name__}.asset_path")
    stage = get_current_stage()
    if stage.GetPrimAtPath(prim_path).IsValid():
        raise ValueError(f"A prim already exists at {prim_path!r}; pick another prim_path.")
    return create_prim(prim_path, "Xform", translation=translation, orientation=orientation, stage=stage)


def spawn_ground_plane_marker(
    prim_path: str,
    cfg: GroundPlaneCfg,
    translation: tuple[float, float, float] | None = None,
    orientation: tuple[float, float, float, float] | None = None,
    **kwargs,
) -> Usd.Prim:
    """Author the ground plane's transform prim; the clone context adds the plane to the shared world.

    Args:
        prim_path: Path of the ground prim.
        cfg: The spawner configuration.
        translation: Position of the plane [m]; its height sets the plane's height.
        orientation: Orientation of the plane, quaternion (x, y, z, w).

    Returns:
        The authored transform prim.
    """
    stage = get_current_stage()
    return create_prim(prim_path, "Xform", translation=translation, orientation=orientation, stage=stage)
