"""MDP terms for manager-based environments on the Newton backend."""

from .actions import NewtonInverseKinematicsAction, NewtonInverseKinematicsActionCfg

__all__ = ["NewtonInverseKinematicsAction", "NewtonInverseKinematicsActionCfg"]
