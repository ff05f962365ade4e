"""MDP terms for multirotors: thrust and navigation (velocity-command) action terms."""

from .thrust_actions import NavigationAction, ThrustAction
from .thrust_actions_cfg import NavigationActionCfg, ThrustActionCfg

__all__ = ["NavigationAction", "NavigationActionCfg", "ThrustAction", "ThrustActionCfg"]
