"""The seeds' MySolverCfg / NewtonMySolverManager example runs unchanged through SimulationContext."""

from __future__ import annotations

from newton.solvers import SolverXPBD

from isaaclab_newton.physics import NewtonManager

from . import scenes
from .my_solver_manager import MySolverCfg


def test_my_solver_example_drops_a_box_to_rest(make_sim):
    """The example's {DIR} class_type resolves to its manager, which builds the solver and rests a box on the ground."""
    sim = make_sim(MySolverCfg(iterations=4))
    assert sim.physics_manager.__name__ == "NewtonMySolverManager"
    body = scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    solver = NewtonManager.get_solver()
    assert isinstance(solver, SolverXPBD) and solver.iterations == 4
    for _ in range(360):
        sim.step(render=False)
    height = float(NewtonManager.get_state_0().body_q.numpy()[body, 2])
    assert abs(height - scenes.BOX_HALF_EXTENT) < 2.0e-3
