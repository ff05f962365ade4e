"""The base configuration every Newton solver configuration derives from."""

from __future__ import annotations

from collections.abc import Iterable
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


def cfg_kwargs(cfg: object, names: Iterable[str] = (), *, optional: Iterable[str] = ()) -> dict[str, Any]:
    """Keyword arguments named like ``cfg``'s fields: every field in ``names``, and those in ``optional`` that are set.

    Args:
        cfg: A configuration whose field names are the keyword names.
        names: Fields passed whatever their value.
        optional: Fields passed only where not ``None`` (so the callee keeps its own default).

    Returns:
        Field name -> value.
    """
    kwargs = {name: getattr(cfg, name) for name in names}
    kwargs.update({name: getattr(cfg, name) for name in optional if getattr(cfg, name) is not None})
    return kwargs
