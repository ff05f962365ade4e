"""Isaac Lab asset backends on Newton: core's factories resolve ``isaaclab.assets.X`` to these classes.

``MPMObject`` (granular / elasto-plastic particle media) has no core counterpart; configure it with ``MPMObjectCfg``.
"""

from .articulation import Articulation, ArticulationData
from .deformable_object import DeformableObject, DeformableObjectData
from .mpm_object import MPMObject, MPMObjectCfg, MPMObjectData
from .rigid_object import RigidObject, RigidObjectData
from .rigid_object_collection import RigidObjectCollection, RigidObjectCollectionData

__all__ = [
    "Articulation",
    "ArticulationData",
    "DeformableObject",
    "DeformableObjectData",
    "MPMObject",
    "MPMObjectCfg",
    "MPMObjectData",
    "RigidObject",
    "RigidObjectCollection",
    "RigidObjectCollectionData",
    "RigidObjectData",
]
