"""Replicate Isaac Lab's env-0 prototypes into Newton worlds."""

from .replicate_context import NewtonReplicateContext

__all__ = ["NewtonReplicateContext"]
