"""Isaac Lab asset backends on Newton: core's factories resolve ``isaaclab.assets.X`` to these classes."""

from .articulation import Articulation, ArticulationData
from .deformable_object import DeformableObject, DeformableObjectData
from .rigid_object import RigidObject, RigidObjectData
from .rigid_object_collection import RigidObjectCollection, RigidObjectCollectionData

__all__ = [
    "Articulation",
    "ArticulationData",
    "DeformableObject",
    "DeformableObjectData",
    "RigidObject",
    "RigidObjectCollection",
    "RigidObjectCollectionData",
    "RigidObjectData",
]
