"""NewtonManager's extension contract: the four slots, substep ping-pong, resets and decimation paths (XPBD)."""

from __future__ import annotations

import warnings

import newton
import numpy as np
import pytest
from newton.solvers import SolverXPBD

from isaaclab_newton.physics import NewtonManager, NewtonSolverCfg, SemiImplicitSolverCfg, VBDSolverCfg, XPBDSolverCfg

from . import scenes


class NewtonUnsetSolverManager(NewtonManager):
    """Builds a solver but never assigns it."""

    @classmethod
    def _build_solver(cls, model, solver_cfg) -> None:
        SolverXPBD(model)


class NewtonSlotOnClsManager(NewtonManager):
    """Assigns the slots on its own class instead of on NewtonManager."""

    @classmethod
    def _build_solver(cls, model, solver_cfg) -> None:
        cls._solver = SolverXPBD(model)
        cls._use_single_state = False


class NewtonWrongSolverManager(NewtonManager):
    """Assigns the solver's model instead of a solver."""

    @classmethod
    def _build_solver(cls, model, solver_cfg) -> None:
        NewtonManager._solver = model


class NewtonWrongFlagManager(NewtonManager):
    """Assigns a string where a bool slot belongs."""

    @classmethod
    def _build_solver(cls, model, solver_cfg) -> None:
        NewtonManager._solver = SolverXPBD(model)
        NewtonManager._use_single_state = "no"


class NewtonSolverOnlyManager(NewtonManager):
    """Assigns only the solver, leaving the three other slots at their defaults."""

    @classmethod
    def _build_solver(cls, model, solver_cfg) -> None:
        NewtonManager._solver = SolverXPBD(model)


def _cfg(manager: type[NewtonManager]) -> NewtonSolverCfg:
    cfg = NewtonSolverCfg()
    cfg.class_type = manager
    return cfg


def _reset_box(make_sim, manager: type[NewtonManager]):
    sim = make_sim(_cfg(manager))
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    return sim


def test_unset_solver_fails_reset(make_sim):
    """A _build_solver() that leaves NewtonManager._solver unset fails sim.reset() with a RuntimeError."""
    with pytest.raises(RuntimeError, match=r"NewtonUnsetSolverManager._build_solver\(\) did not assign NewtonManager"):
        _reset_box(make_sim, NewtonUnsetSolverManager)
    assert NewtonManager.get_solver() is None


def test_slot_assigned_on_cls_is_refused(make_sim):
    """Slots assigned on the subclass (cls) instead of NewtonManager fail sim.reset() naming the fix."""
    with pytest.raises(RuntimeError, match=r"assigned _solver, _use_single_state on NewtonSlotOnClsManager"):
        _reset_box(make_sim, NewtonSlotOnClsManager)
    assert "_solver" not in vars(NewtonSlotOnClsManager), "the stray copy is removed, not left to shadow the slot"


@pytest.mark.parametrize(
    "manager, message",
    [
        (
            NewtonWrongSolverManager,
            r"assigned a Model to NewtonManager._solver; it must be a newton.solvers.SolverBase",
        ),
        (NewtonWrongFlagManager, r"set NewtonManager._use_single_state = 'no'; it must be a bool"),
    ],
)
def test_slot_of_the_wrong_type_is_refused(make_sim, manager, message):
    """A slot holding the wrong type fails sim.reset() with a TypeError naming the slot."""
    with pytest.raises(TypeError, match=message):
        _reset_box(make_sim, manager)


def test_unset_slots_warn_once_and_run_with_their_defaults(make_sim):
    """Three slots left unset warn once over two hard resets, naming them, and run as False (no pipeline, no body_f)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        sim = _reset_box(make_sim, NewtonSolverOnlyManager)
        sim.reset()
    unset = [w for w in caught if "left NewtonManager._use_single_state" in str(w.message)]
    assert len(unset) == 1
    assert "_needs_collision_pipeline = False" in str(unset[0].message)
    assert NewtonManager._use_single_state is False and NewtonManager._needs_collision_pipeline is False
    assert NewtonManager.get_collision_pipeline() is None and NewtonManager.get_contacts() is None
    with pytest.raises(RuntimeError, match="ignores State.body_f"):
        NewtonManager.get_external_wrench()


def test_manager_state_has_one_copy(make_sim):
    """After a reset and steps, the active subclass holds no copy of NewtonManager's class-level state."""
    sim = make_sim(XPBDSolverCfg(iterations=2))
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    for _ in range(2):
        sim.step(render=False)
    names = set(NewtonManager.__annotations__)
    assert {"_solver", "_state_0", "_model", "_contacts"} <= names <= set(vars(NewtonManager))
    assert not names & set(vars(sim.physics_manager)), f"{sim.physics_manager.__name__} shadows the manager state"


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
