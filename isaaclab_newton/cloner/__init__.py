"""Replicate Isaac Lab's env-0 prototypes into Newton worlds."""

from .replicate_context import NewtonReplicateContext
from .world_hooks import WorldHook, copy_newton_clone_source, newton_builder_world_hook

__all__ = ["NewtonReplicateContext", "WorldHook", "copy_newton_clone_source", "newton_builder_world_hook"]
