"""NewtonManager's extension contract: slots, substep ping-pong, resets and decimation paths (CPU, XPBD)."""

from __future__ import annotations

import newton
import numpy as np
import pytest
from isaaclab.utils import configclass
from newton.solvers import SolverXPBD

from isaaclab_newton.physics import (
    NewtonManager,
    NewtonSolverCfg,
    SemiImplicitSolverCfg,
    SolverSlots,
    VBDSolverCfg,
    XPBDSolverCfg,
)

from . import scenes


class NewtonNoSlotsManager(NewtonManager):
    """Builds the solver but returns nothing (the old contract assigned class attributes instead)."""

    @classmethod
    def _build_solver(cls, model, solver_cfg) -> None:
        SolverXPBD(model)


class NewtonBareSolverManager(NewtonManager):
    """Returns the solver itself instead of its slots."""

    @classmethod
    def _build_solver(cls, model, solver_cfg):
        return SolverXPBD(model)


@configclass
class _NoSlotsCfg(NewtonSolverCfg):
    class_type: type = NewtonNoSlotsManager


@configclass
class _BareSolverCfg(NewtonSolverCfg):
    class_type: type = NewtonBareSolverManager


@pytest.mark.parametrize("cfg_type, returned", [(_NoSlotsCfg, "NoneType"), (_BareSolverCfg, "SolverXPBD")])
def test_build_solver_must_return_slots(make_sim, cfg_type, returned):
    """A _build_solver() that returns anything but SolverSlots fails sim.reset() with a TypeError naming the fix."""
    sim = make_sim(cfg_type())
    scenes.add_dropped_box(NewtonManager.create_builder())
    with pytest.raises(TypeError, match=rf"_build_solver\(\) returned {returned}; it must return SolverSlots"):
        sim.reset()
    assert NewtonManager.get_solver() is None


def test_slots_reject_a_non_solver():
    """SolverSlots refuses a solver that is not a Newton solver, and non-bool settings."""
    with pytest.raises(TypeError, match="must be a newton.solvers.SolverBase"):
        SolverSlots(object())
    builder = newton.ModelBuilder()
    scenes.add_dropped_box(builder)
    with pytest.raises(TypeError, match="use_single_state must be a bool"):
        SolverSlots(SolverXPBD(builder.finalize(device="cpu")), use_single_state=None)


def test_manager_state_has_one_copy(make_sim):
    """After a reset and steps, neither NewtonManager nor the active subclass holds its own copy of the state."""
    from isaaclab_newton.physics.manager_state import NewtonManagerState

    sim = make_sim(XPBDSolverCfg(iterations=2))
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    for _ in range(2):
        sim.step(render=False)
    names = set(NewtonManagerState.__annotations__)
    for manager in (NewtonManager, sim.physics_manager):
        assert not names & set(vars(manager)), f"{manager.__name__} shadows the manager state"


def _raw_xpbd_drop(num_substeps: int, steps: int, dt: float) -> np.ndarray:
    """Step the box drop with a plain Newton loop (no manager): collide, step, swap; return the final body_q."""
    builder = newton.ModelBuilder(up_axis=newton.Axis.Z, gravity=(0.0, 0.0, -9.81))
    scenes.add_dropped_box(builder, height=0.12)
    model = builder.finalize(device="cpu")
    solver = SolverXPBD(model, iterations=2)
    pipeline = newton.CollisionPipeline(model)
    contacts = pipeline.contacts()
    state_0, state_1, control = model.state(), model.state(), model.control()
    newton.eval_fk(model, model.joint_q, model.joint_qd, state_0)
    for _ in range(steps * num_substeps):
        state_0.clear_forces()
        pipeline.collide(state_0, contacts)
        solver.step(state_0, state_1, control, contacts, dt / num_substeps)
        state_0, state_1 = state_1, state_0
    return state_0.body_q.numpy()


@pytest.mark.parametrize("num_substeps", [2, 3])
def test_substeps_leave_result_in_state_0(make_sim, num_substeps):
    """Odd and even substep counts leave the result in the same get_state_0() object, equal to a raw loop."""
    dt, steps = 1.0 / 60.0, 12
    sim = make_sim(XPBDSolverCfg(iterations=2), dt=dt, num_substeps=num_substeps)
    scenes.add_dropped_box(NewtonManager.create_builder(), height=0.12)
    sim.reset()
    state = NewtonManager.get_state_0()
    for _ in range(steps):
        sim.step(render=False)
        assert NewtonManager.get_state_0() is state
    expected = _raw_xpbd_drop(num_substeps, steps, dt)
    assert expected[0, 2] < 0.11  # the box fell and touched the ground within the run
    np.testing.assert_array_equal(NewtonManager.get_state_0().body_q.numpy(), expected)


def test_hard_reset_refinalizes_the_model(make_sim):
    """A hard reset builds a new Model and solver from the builder and restores the initial pose."""
    sim = make_sim(XPBDSolverCfg())
    body = scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    model, solver = NewtonManager.get_model(), NewtonManager.get_solver()
    for _ in range(10):
        sim.step(render=False)
    assert float(NewtonManager.get_state_0().body_q.numpy()[body, 2]) < 0.3
    sim.reset()
    assert NewtonManager.get_model() is not model
    assert NewtonManager.get_solver() is not solver
    assert float(NewtonManager.get_state_0().body_q.numpy()[body, 2]) == pytest.approx(0.3)


def test_soft_reset_keeps_model_solver_and_contacts(make_sim):
    """A soft reset keeps the Model, solver and contacts objects and the current state."""
    sim = make_sim(XPBDSolverCfg())
    body = scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    model, solver, contacts = NewtonManager.get_model(), NewtonManager.get_solver(), NewtonManager.get_contacts()
    for _ in range(10):
        sim.step(render=False)
    height = float(NewtonManager.get_state_0().body_q.numpy()[body, 2])
    sim.reset(soft=True)
    assert NewtonManager.get_model() is model
    assert NewtonManager.get_solver() is solver
    assert NewtonManager.get_contacts() is contacts
    assert float(NewtonManager.get_state_0().body_q.numpy()[body, 2]) == height


@pytest.mark.parametrize(
    "solver_cfg", [XPBDSolverCfg(), SemiImplicitSolverCfg(), VBDSolverCfg()], ids=["xpbd", "semi_implicit", "vbd"]
)
def test_forward_keeps_stepped_pose_of_maximal_coordinate_solvers(make_sim, solver_cfg):
    """After stepping a solver that only advances bodies, joint_q follows the bodies and forward() keeps the pose."""
    sim = make_sim(solver_cfg)
    body = scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    for _ in range(30):
        sim.step(render=False)
    state = NewtonManager.get_state_0()
    body_q = state.body_q.numpy().copy()
    assert body_q[body, 2] < 0.25
    np.testing.assert_allclose(state.joint_q.numpy()[:3], body_q[body, :3], atol=1.0e-6)
    sim.physics_manager.forward()
    np.testing.assert_allclose(NewtonManager.get_state_0().body_q.numpy(), body_q, atol=1.0e-5)


def test_context_holds_the_manager_class(make_sim):
    """A config naming its manager as a "module:Class" string leaves the class itself on the simulation context."""
    from isaaclab_newton.physics.xpbd_manager import NewtonXPBDManager

    sim = make_sim(XPBDSolverCfg())
    assert isinstance(sim.cfg.physics.class_type, str)
    assert sim.physics_manager is NewtonXPBDManager
