"""Schema fragments writing Newton's ``newton:*`` USD attributes."""

from __future__ import annotations

from typing import ClassVar

from isaaclab.sim.schemas.schemas_cfg import ArticulationRootFragment
from isaaclab.utils import configclass


@configclass
class NewtonArticulationCfg(ArticulationRootFragment):
    """``newton:*`` articulation-root attributes (``NewtonArticulationRootAPI``).

    Core's articulation-root writer authors each set field as ``newton:<camelCase(field)>`` on the
    articulation root prim; Newton's USD importer reads them. The offline file spawners of
    :mod:`isaaclab_newton.sim.spawners` read the same fields directly.
    """

    _usd_namespace: ClassVar[str | None] = "newton"
    _usd_applied_schema: ClassVar[str | None] = "NewtonArticulationRootAPI"

    self_collision_enabled: bool | None = None
    """Whether bodies of the same articulation collide with each other. ``None`` keeps the file's setting."""
