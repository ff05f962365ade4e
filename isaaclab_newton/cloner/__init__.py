"""Replicate Isaac Lab's env-0 prototypes into Newton worlds."""

from .layout import AssetLayout, SceneLayout, get_scene_layout
from .replicate_context import NewtonReplicateContext

__all__ = ["AssetLayout", "NewtonReplicateContext", "SceneLayout", "get_scene_layout"]
