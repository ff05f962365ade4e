"""Batched inverse kinematics with Newton's :mod:`newton.ik` over an articulation's environments."""

from .ik_model import build_articulation_ik_model
from .newton_ik_objectives import NewtonIKJointLimitObjective, NewtonIKPoseObjective
from .newton_ik_objectives_cfg import NewtonIKJointLimitObjectiveCfg, NewtonIKPoseObjectiveCfg
from .newton_ik_solver import NewtonIKSolver
from .newton_ik_solver_cfg import NewtonIKSolverCfg

__all__ = [
    "NewtonIKJointLimitObjective",
    "NewtonIKJointLimitObjectiveCfg",
    "NewtonIKPoseObjective",
    "NewtonIKPoseObjectiveCfg",
    "NewtonIKSolver",
    "NewtonIKSolverCfg",
    "build_articulation_ik_model",
]
