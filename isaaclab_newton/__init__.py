"""Newton physics backend for Isaac Lab.

Importing the package wires the layers together: the physics manager (lowest layer) learns the clone context of
the cloner above it, which Isaac Lab's ``replicate()`` reads from ``PhysicsManager.clone_context_type``. It also
gives ``newton.actuators`` the name ``Clamping`` (Newton 1.8's ``ClampingBase``) that core's
``isaaclab/actuators/newton/adapter.py`` imports, so core terms that load that adapter (``randomize_actuator_gains``)
run on Newton 1.8.
"""

import newton.actuators

from .cloner import NewtonReplicateContext
from .physics import NewtonManager

NewtonManager.clone_context_type = NewtonReplicateContext
if not hasattr(newton.actuators, "Clamping"):  # the name before Newton 1.8
    newton.actuators.Clamping = newton.actuators.ClampingBase

__version__ = "0.1.0"
