"""The base configuration every Newton solver configuration derives from."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from isaaclab.utils import configclass

if TYPE_CHECKING:
    from .newton_manager import NewtonManager


@configclass
class NewtonSolverCfg:
    """Base configuration of a Newton solver.

    Every concrete solver configuration names the manager class that builds its solver through
    :attr:`class_type`, either as a class or as a ``"module:Class"`` string. A string may start
    with ``{DIR}``, which resolves to the package of the module that declares the field.
    """

    class_type: type[NewtonManager] | Any = None
    """Manager subclass (or ``"module:Class"`` string) that builds this solver."""

    solver_type: str = "none"
    """Short name of the solver, used in logs and error messages."""
