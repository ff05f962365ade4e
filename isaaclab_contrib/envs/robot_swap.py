"""A robot swapped into an upstream config: the offline robot and how upstream's name patterns read on it.

Used by the upstream velocity configs on the offline Unitree robots and by the Franka reach on the offline Panda.
"""

from __future__ import annotations

import dataclasses

from isaaclab.assets import ArticulationCfg
from isaaclab.managers import SceneEntityCfg


@dataclasses.dataclass(frozen=True)
class RobotSwap:
    """An offline robot and how upstream's name patterns for the robot it replaces read on it."""

    robot: ArticulationCfg
    """The robot that replaces ``scene.robot`` (its ``prim_path`` is kept from the upstream config)."""

    names: dict[str, str | None]
    """Upstream body or joint pattern -> pattern on :attr:`robot`; ``None`` for parts it does not have. Patterns
    not listed are kept (upstream's and the robot's names agree)."""


def rename_pattern(pattern: str, names: dict[str, str | None]) -> str | None:
    """``pattern`` as :attr:`RobotSwap.names` maps it: kept when not listed, ``None`` for a part the robot lacks."""
    return names.get(pattern, pattern)


def rename_entity(entity: SceneEntityCfg, names: dict[str, str | None]) -> bool:
    """Rename ``entity``'s body and joint patterns; ``False`` when a list it had is left empty."""
    for field in ("body_names", "joint_names"):
        patterns = getattr(entity, field)
        if patterns is None:
            continue
        single = isinstance(patterns, str)
        renamed = [new for new in (rename_pattern(p, names) for p in ([patterns] if single else patterns)) if new]
        if not renamed:
            return False
        setattr(entity, field, renamed[0] if single and len(renamed) == 1 else renamed)
    return True
