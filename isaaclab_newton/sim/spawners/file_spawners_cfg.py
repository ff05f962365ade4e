"""Configurations of the offline file spawners.

These spawners author only a transform prim on the USD stage (so that scene queries and renderers see
where the asset is); the physics content is imported from the file by
:class:`~isaaclab_newton.cloner.NewtonReplicateContext` with Newton's MJCF, URDF or USD importer,
once for the env-0 prototype, and then replicated into every world. No Isaac Sim importer is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from isaaclab.sim.spawners.spawner_cfg import SpawnerCfg
from isaaclab.utils import configclass


@configclass
class NewtonFileCfg(SpawnerCfg):
    """Common settings of assets imported from a file by Newton's importers."""

    func: Callable | str = "isaaclab_newton.sim.spawners.file_spawners:spawn_newton_file"

    asset_path: str = ""
    """Absolute path of the robot file."""

    floating: bool | None = None
    """Root joint: ``True`` free (6 DOF), ``False`` fixed to the world, ``None`` as the file says."""

    enable_self_collisions: bool = False
    """Whether bodies of the same articulation collide with each other."""

    collapse_fixed_joints: bool = False
    """Merge bodies connected by fixed joints into their parent."""

    articulation_props: Any = None
    """Articulation-root fragments (e.g. :class:`~isaaclab_newton.sim.schemas.NewtonArticulationCfg`).

    Only ``NewtonArticulationCfg.self_collision_enabled`` is read (it overrides
    :attr:`enable_self_collisions`); fragments of other backends are ignored.
    """

    override_root_xform: bool = True
    """Place the root body at the asset's initial pose (``init_state``), ignoring the root's own pose in the
    file, as referencing a file in Isaac Lab does. ``False`` composes the file's root pose with it."""

    importer_kwargs: dict = {}
    """Extra keyword arguments passed to the Newton importer (e.g. ``{"parse_visuals": False}``)."""

    file_format: str = ""
    """Importer name (``"urdf"``, ``"mjcf"`` or ``"usd"``), set by the concrete configurations."""


@configclass
class UrdfFileCfg(NewtonFileCfg):
    """A URDF file imported with :meth:`newton.ModelBuilder.add_urdf`."""

    file_format: str = "urdf"


@configclass
class MjcfFileCfg(NewtonFileCfg):
    """An MJCF (MuJoCo XML) file imported with :meth:`newton.ModelBuilder.add_mjcf`."""

    file_format: str = "mjcf"


@configclass
class NewtonUsdFileCfg(NewtonFileCfg):
    """A USD file imported with :meth:`newton.ModelBuilder.add_usd` (not referenced into the stage)."""

    file_format: str = "usd"

    root_path: str = "/"
    """Prim path inside the file whose subtree is imported (e.g. ``"/cartpole"``)."""


@configclass
class GroundPlaneCfg(SpawnerCfg):
    """An infinite ground plane added with :meth:`newton.ModelBuilder.add_ground_plane` (no Nucleus asset)."""

    func: Callable | str = "isaaclab_newton.sim.spawners.file_spawners:spawn_ground_plane_marker"

    static_friction: float | None = None
    """Friction coefficient of the plane. ``None`` keeps Newton's default shape friction."""
