"""The extension contract's hooks run where the seeds' lifecycle table says, with the seeds' arguments (XPBD)."""

from __future__ import annotations

import math
from typing import ClassVar

import newton
import numpy as np
import warp as wp
from conftest import EAGER
from isaaclab.utils import configclass
from newton import Model
from newton.solvers import SolverXPBD

from isaaclab_newton.physics import NewtonManager, NewtonSolverCfg

from . import scenes

NUM_WORLDS = 3


class NewtonHookedManager(NewtonManager):
    """Overrides every hook of the seeds' lifecycle table with the page's signature and records the calls."""

    calls: ClassVar[list[str]] = []
    reset_masks: ClassVar[list[list[bool]]] = []
    deferred_capture: ClassVar[bool] = False

    @classmethod
    def _build_solver(cls, model: Model, solver_cfg: NewtonSolverCfg) -> None:
        cls.calls.append("_build_solver")
        NewtonManager._solver = cls._create_solver(model, solver_cfg)
        NewtonManager._use_single_state = False
        NewtonManager._needs_collision_pipeline = True
        NewtonManager._supports_rigid_body_force_input = True

    @classmethod
    def _create_solver(cls, model: Model, solver_cfg: NewtonSolverCfg) -> SolverXPBD:
        cls.calls.append("_create_solver")
        return SolverXPBD(model, iterations=2)

    @classmethod
    def _initialize_contacts(cls) -> None:
        cls.calls.append("_initialize_contacts")
        super()._initialize_contacts()

    @classmethod
    def _step_solver(cls, state_0, state_1, control, contacts, substep_dt) -> None:
        cls.calls.append("_step_solver")
        super()._step_solver(state_0, state_1, control, contacts, substep_dt)

    @classmethod
    def _simulate_physics_only(cls) -> None:
        cls.calls.append("_simulate_physics_only")
        super()._simulate_physics_only()

    @classmethod
    def _reset_solver_internals(cls) -> None:
        cls.calls.append("_reset_solver_internals")
        cls.reset_masks.append(NewtonManager.get_reset_world_mask().numpy().tolist())
        super()._reset_solver_internals()

    @classmethod
    def _register_builder_attributes(cls, builder) -> None:
        cls.calls.append("_register_builder_attributes")

    @classmethod
    def _prepare_builder_for_finalize(cls, builder) -> None:
        cls.calls.append("_prepare_builder_for_finalize")

    @classmethod
    def _supports_cuda_graph_capture(cls) -> bool:
        cls.calls.append("_supports_cuda_graph_capture")
        return True

    @classmethod
    def _requires_initial_reset_before_graph_capture(cls) -> bool:
        cls.calls.append("_requires_initial_reset_before_graph_capture")
        return cls.deferred_capture

    @classmethod
    def _solver_specific_clear(cls) -> None:
        cls.calls.append("_solver_specific_clear")

    @classmethod
    def _check_solver_status(cls) -> None:
        cls.calls.append("_check_solver_status")

    @classmethod
    def _log_solver_debug(cls) -> None:
        cls.calls.append("_log_solver_debug")


@configclass
class _HookedCfg(NewtonSolverCfg):
    class_type: type = NewtonHookedManager


def _replicated_boxes() -> None:
    box = newton.ModelBuilder()
    body = box.add_body(xform=wp.transform((0.0, 0.0, 0.3), wp.quat_identity()), label="box")
    box.add_shape_box(body, hx=0.1, hy=0.1, hz=0.1)
    NewtonManager.create_builder().replicate(box, NUM_WORLDS)


def _take_calls() -> list[str]:
    calls, NewtonHookedManager.calls = NewtonHookedManager.calls, []
    return calls


_HARD_RESET = ["_register_builder_attributes", "_prepare_builder_for_finalize", "_build_solver", "_create_solver"]
_SUBSTEPS = ["_simulate_physics_only", "_step_solver", "_step_solver"]  # two substeps per physics step
_AFTER_STEP = ["_check_solver_status", "_log_solver_debug"]


def test_hooks_run_in_the_order_of_the_lifecycle_table(make_sim):
    """Build, hard and soft reset, 3 steps on each decimation path, pre_render and close call the table's hooks."""
    NewtonHookedManager.calls, NewtonHookedManager.deferred_capture = [], False
    dt = 1.0 / 240.0
    sim = make_sim(_HookedCfg(), dt=dt, num_substeps=2, debug_mode=True, fold_decimation=True, **EAGER)
    manager = sim.physics_manager
    _replicated_boxes()
    assert _take_calls() == ["_register_builder_attributes"], "create_builder()"
    sim.reset()
    # fold_decimation: capture waits for set_decimation() (or the first step), as the table's graph-safe path says
    assert _take_calls() == [*_HARD_RESET, "_initialize_contacts"], "hard reset"

    NewtonManager.request_world_reset([1])
    for _ in range(3):
        sim.step(render=False)  # the env drives decimation: one physics step per call
    first = ["_reset_solver_internals", "_supports_cuda_graph_capture", *_SUBSTEPS, *_AFTER_STEP]
    assert _take_calls() == first + 2 * [*_SUBSTEPS, *_AFTER_STEP], "three env-driven steps"
    assert not manager.handles_decimation()

    NewtonManager.request_world_reset([2])
    sim.reset(soft=True)
    assert _take_calls() == ["_reset_solver_internals"], "soft reset: pending world resets only"

    manager.set_decimation(2)
    assert manager.handles_decimation()
    assert _take_calls() == ["_requires_initial_reset_before_graph_capture", "_supports_cuda_graph_capture"]
    time = manager.get_simulation_time()
    for _ in range(3):
        sim.step(render=False)  # the manager runs the decimation loop: two physics steps per call
    assert _take_calls() == 3 * [*_SUBSTEPS, *_SUBSTEPS, *_AFTER_STEP], "three folded steps"
    assert math.isclose(manager.get_simulation_time() - time, 3 * 2 * dt)

    NewtonManager.request_world_reset([0])
    manager.pre_render()
    assert _take_calls() == ["_reset_solver_internals"], "pre_render() via forward()"
    assert NewtonHookedManager.reset_masks == [
        [False, True, False, False],
        [False, False, True, False],
        [True, False, False, False],
    ], "each reset saw its own worlds (the last entry is world -1)"

    sim.reset()
    # the decimation is known now, so initialize_solver() captures the folded loop itself
    capture = ["_requires_initial_reset_before_graph_capture", "_supports_cuda_graph_capture"]
    assert _take_calls() == [*_HARD_RESET, "_initialize_contacts", *capture], "a second hard reset rebuilds"
    assert manager.handles_decimation(), "the folded path survives the hard reset"
    manager.close()
    assert _take_calls() == ["_solver_specific_clear"], "close()"


def test_deferred_capture_waits_for_the_first_step(make_sim):
    """With _requires_initial_reset_before_graph_capture() the first step, not sim.reset(), captures the graph."""
    NewtonHookedManager.deferred_capture = True
    try:
        sim = make_sim(_HookedCfg(), use_cpu_graph=True)
        scenes.add_dropped_box(NewtonManager.create_builder())
        sim.reset()
        assert not NewtonManager.uses_graph(), "capture is deferred past initialize_solver()"
        sim.step(render=False)
        assert NewtonManager.uses_graph(), "the first step captures the substep loop"
    finally:
        NewtonHookedManager.deferred_capture = False


def test_folded_steps_equal_env_driven_steps(make_sim):
    """Two folded physics steps per step() leave the same state, bit for bit, as twice as many unfolded steps."""
    finals = []
    for fold in (False, True):
        sim = make_sim(_HookedCfg(), fold_decimation=fold)
        scenes.add_dropped_box(NewtonManager.create_builder(), height=0.12)
        sim.reset()
        sim.physics_manager.set_decimation(2)
        assert sim.physics_manager.handles_decimation() is fold
        assert NewtonManager.uses_graph()
        for _ in range(12 if fold else 24):
            sim.step(render=False)
        finals.append(NewtonManager.get_state_0().body_q.numpy().copy())
    assert finals[0][0, 2] < 0.11, "the box fell onto the ground within the run"
    np.testing.assert_array_equal(finals[1], finals[0])


def test_folded_decimation_survives_a_hard_reset(make_sim):
    """After a hard reset, one step() still advances the env's decimation (2 physics steps), as the env expects."""
    dt = 1.0 / 240.0
    sim = make_sim(_HookedCfg(), dt=dt, fold_decimation=True)
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    sim.physics_manager.set_decimation(2)
    sim.reset()
    assert sim.physics_manager.handles_decimation() and NewtonManager.uses_graph()
    time = sim.physics_manager.get_simulation_time()
    sim.step(render=False)
    assert math.isclose(sim.physics_manager.get_simulation_time() - time, 2 * dt)


def test_xpbd_joint_coordinates_follow_the_bodies(make_sim):
    """A manager of Newton's XPBD (guessed by type name, no solver module imported) re-derives joint_q from bodies."""
    sim = make_sim(_HookedCfg(), dt=1.0 / 120.0)
    body = scenes.add_pendulum(NewtonManager.create_builder())
    sim.reset()
    assert not NewtonManager._solver_writes_joint_coordinates()  # private: the hook under test
    for _ in range(30):
        sim.step(render=False)
    state = NewtonManager.get_state_0()
    _, qy, _, qw = state.body_q.numpy()[body, 3:]
    body_angle = 2.0 * math.atan2(qy, qw)  # the bob's rotation about the hinge axis (+y)
    assert abs(body_angle - scenes.RELEASE_ANGLE) > 0.05, "the pendulum swung"
    assert abs(float(state.joint_q.numpy()[0]) - body_angle) < 1.0e-4
