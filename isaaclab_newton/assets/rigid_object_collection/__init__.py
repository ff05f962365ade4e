"""Isaac Lab ``RigidObjectCollection`` on Newton: K free rigid bodies per environment."""

from .rigid_object_collection import RigidObjectCollection
from .rigid_object_collection_data import RigidObjectCollectionData

__all__ = ["RigidObjectCollection", "RigidObjectCollectionData"]
