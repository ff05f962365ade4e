"""Core's ``TerrainImporter`` with a plane that needs no asset server: Newton's own ground plane."""

from __future__ import annotations

from isaaclab.sim.utils import create_prim, get_current_stage
from isaaclab.terrains import TerrainImporter


class NewtonTerrainImporter(TerrainImporter):
    """``TerrainImporter`` whose ``terrain_type="plane"`` works offline.

    Core's importer references Isaac Lab's grid ground-plane USD from the asset server for a plane. This one authors
    only a transform prim at ``<prim_path>/terrain``; the Newton clone context adds an infinite ground plane at
    z = 0 there, with the friction and restitution of ``cfg.physics_material``. Generator and USD terrains are
    core's. Select it with ``TerrainImporterCfg(class_type=NewtonTerrainImporter, terrain_type="plane", ...)``.
    """

    def import_ground_plane(self, name: str, size: tuple[float, float] | None = None) -> None:
        """Author the plane's marker prim ``<prim_path>/<name>`` (``size`` is visual only and unused).

        Raises:
            ValueError: If a terrain named ``name`` exists already.
        """
        prim_path = f"{self.cfg.prim_path}/{name}"
        if prim_path in self.terrain_prim_paths:
            raise ValueError(f"A terrain named {name!r} exists already at {prim_path}; pick another name.")
        self.terrain_prim_paths.append(prim_path)
        create_prim(prim_path, "Xform", stage=get_current_stage())
