"""Ray caster on Newton's shape BVH: height scans and distance rays against the terrain and scene shapes."""

from .ray_caster import RayCaster

__all__ = ["RayCaster"]
