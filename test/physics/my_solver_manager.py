"""The seeds' ``MySolverCfg`` / ``NewtonMySolverManager`` example in this package's contract, with a real solver.

``SolverMySolver`` stands for :class:`newton.solvers.SolverXPBD`, which takes the example's ``iterations`` keyword.
The manager returns its :class:`~isaaclab_newton.physics.SolverSlots` instead of assigning class attributes.
"""

from isaaclab.utils import configclass
from newton import Model
from newton.solvers import SolverXPBD as SolverMySolver

from isaaclab_newton.physics import NewtonManager, NewtonSolverCfg, SolverSlots


@configclass
class MySolverCfg(NewtonSolverCfg):
    class_type: type[NewtonManager] | str = "{DIR}.my_solver_manager:NewtonMySolverManager"
    solver_type: str = "my_solver"
    iterations: int = 16


class NewtonMySolverManager(NewtonManager):
    @classmethod
    def _build_solver(cls, model: Model, solver_cfg: MySolverCfg) -> SolverSlots:
        return SolverSlots(SolverMySolver(model, iterations=solver_cfg.iterations))
