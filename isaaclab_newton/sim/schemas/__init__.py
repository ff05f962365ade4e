"""Newton schema fragments that Isaac Lab asset configurations import (e.g. ``CARTPOLE_CFG``)."""

from isaaclab.sim.schemas.backend_hooks import register_articulation_root_companion

from .schemas_cfg import NewtonArticulationCfg

register_articulation_root_companion("NewtonArticulationRootAPI", "newton")

__all__ = ["NewtonArticulationCfg"]
