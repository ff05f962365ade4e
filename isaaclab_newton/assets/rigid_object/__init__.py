"""Rigid object (one free body per environment) on Newton."""

from .rigid_object import RigidObject
from .rigid_object_data import RigidObjectData

__all__ = ["RigidObject", "RigidObjectData"]
