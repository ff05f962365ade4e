"""Both seed pages' MySolverCfg / NewtonMySolverManager examples run as written through SimulationContext."""

from __future__ import annotations

import pytest
from conftest import TEST_DEVICE
from isaaclab.sim import SimulationCfg, SimulationContext
from newton.solvers import SolverXPBD

from isaaclab_newton.physics import NewtonCfg, NewtonManager

from . import scenes
from .seed_examples.abstraction import my_solver_manager as abstraction_example
from .seed_examples.extending import my_solver_manager as extending_example


def _drop_box(solver_cfg) -> float:
    """The pages' user code: SimulationCfg(physics=NewtonCfg(solver_cfg=..., num_substeps=2)); a box dropped 0.3 m
    settles for 1.5 s; return its final center height [m]."""
    SimulationContext.clear_instance()
    sim = SimulationContext(
        SimulationCfg(dt=1 / 240, device=TEST_DEVICE, physics=NewtonCfg(solver_cfg=solver_cfg, num_substeps=2))
    )
    try:
        assert sim.physics_manager.__name__ == "NewtonMySolverManager"
        body = scenes.add_dropped_box(NewtonManager.create_builder())
        sim.reset()
        solver = NewtonManager.get_solver()
        assert isinstance(solver, SolverXPBD) and solver.iterations == 32
        for _ in range(360):
            sim.step(render=False)
        return float(NewtonManager.get_state_0().body_q.numpy()[body, 2])
    finally:
        SimulationContext.clear_instance()


def test_extending_page_example_rests_a_box_at_its_half_height():
    """The "Extending Newton Solvers" example (four slots) rests a dropped box at its half height within 1 mm."""
    height = _drop_box(extending_example.MySolverCfg(iterations=32))
    assert abs(height - scenes.BOX_HALF_EXTENT) < 1.0e-3


def test_abstraction_page_example_rests_a_box_and_warns_about_its_unset_slot():
    """The "Newton Manager Abstraction" example (three slots) rests the box and warns once about the fourth slot."""
    with pytest.warns(UserWarning, match=r"left NewtonManager\._supports_rigid_body_force_input unset") as record:
        height = _drop_box(abstraction_example.MySolverCfg(iterations=32))
    assert abs(height - scenes.BOX_HALF_EXTENT) < 1.0e-3
    assert len([w for w in record if "unset" in str(w.message)]) == 1
