"""MPM particle objects (granular and elasto-plastic media) on Newton's implicit MPM."""

from .mpm_object import MPMObject
from .mpm_object_cfg import MPMObjectCfg
from .mpm_object_data import MPMObjectData

__all__ = ["MPMObject", "MPMObjectCfg", "MPMObjectData"]
