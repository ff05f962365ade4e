"""Newton physics backend for Isaac Lab.

Importing the package wires the layers together: the physics manager (lowest layer) learns the clone context of
the cloner above it, which Isaac Lab's ``replicate()`` reads from ``PhysicsManager.clone_context_type``.
"""

from .cloner import NewtonReplicateContext
from .physics import NewtonManager

NewtonManager.clone_context_type = NewtonReplicateContext

__version__ = "0.1.0"
