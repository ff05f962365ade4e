"""Partitioned coupling: entries of one shared model stepped by different Newton solvers (proxy or ADMM)."""

from .coupler_cfg import CouplerAdmmCfg, CouplerEntryCfg, CouplerProxyCfg, CouplerProxyMappingCfg
from .newton_coupler_manager import NewtonCouplerManager

__all__ = [
    "CouplerAdmmCfg",
    "CouplerEntryCfg",
    "CouplerProxyCfg",
    "CouplerProxyMappingCfg",
    "NewtonCouplerManager",
]
