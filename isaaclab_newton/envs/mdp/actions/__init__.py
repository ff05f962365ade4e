"""Action terms on the Newton backend."""

from .newton_ik_actions import NewtonInverseKinematicsAction
from .newton_ik_actions_cfg import NewtonInverseKinematicsActionCfg

__all__ = ["NewtonInverseKinematicsAction", "NewtonInverseKinematicsActionCfg"]
