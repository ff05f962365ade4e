"""The "Newton Manager Abstraction" page's ``MySolverCfg`` and ``NewtonMySolverManager``, as written there.

The page's two code blocks are one module here (its imports first).
"""

from isaaclab.utils.configclass import configclass
from newton import Model
from newton.solvers import SolverXPBD as SolverMySolver

from isaaclab_newton.physics import NewtonManager, NewtonSolverCfg


@configclass
class MySolverCfg(NewtonSolverCfg):
    class_type: type[NewtonManager] | str = "{DIR}.my_solver_manager:NewtonMySolverManager"
    solver_type: str = "my_solver"
    iterations: int = 16


class NewtonMySolverManager(NewtonManager):
    @classmethod
    def _build_solver(cls, model: Model, solver_cfg: MySolverCfg) -> None:
        NewtonManager._solver = SolverMySolver(model, iterations=solver_cfg.iterations)
        NewtonManager._use_single_state = False
        NewtonManager._needs_collision_pipeline = True
