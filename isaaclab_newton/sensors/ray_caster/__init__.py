"""Core's ray casters and ray-caster cameras on Newton: height scans, distance rays and depth images."""

from .multi_mesh_ray_caster import LegacyMultiMeshRayCaster, LegacyMultiMeshRayCasterCamera, TrackedBodyPoses
from .ray_caster import RayCaster
from .ray_caster_camera import LegacyRayCasterCamera

__all__ = [
    "LegacyMultiMeshRayCaster",
    "LegacyMultiMeshRayCasterCamera",
    "LegacyRayCasterCamera",
    "RayCaster",
    "TrackedBodyPoses",
]
