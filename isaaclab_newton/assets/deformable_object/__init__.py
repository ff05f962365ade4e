"""Deformable bodies (soft bodies and cloth) on Newton's particles."""

from .deformable_object import DeformableObject
from .deformable_object_data import DeformableObjectData

__all__ = ["DeformableObject", "DeformableObjectData"]
