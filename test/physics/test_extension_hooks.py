"""The extension contract's optional hooks run where the contract says, with their data as arguments (CPU, XPBD)."""

from __future__ import annotations

import math
from typing import ClassVar

import newton
import warp as wp
from isaaclab.utils import configclass
from newton.solvers import SolverXPBD

from isaaclab_newton.physics import NewtonManager, NewtonSolverCfg, SolverSlots

from . import scenes

NUM_WORLDS = 3


class NewtonHookedManager(NewtonManager):
    """Defers graph capture to the first step and records what its hooks are called with."""

    status_checks: ClassVar[list[int]] = []
    reset_masks: ClassVar[list[list[bool]]] = []
    allocated_kinds: ClassVar[list[frozenset[str]]] = []

    @classmethod
    def _build_solver(cls, model, solver_cfg) -> SolverSlots:
        return SolverSlots(SolverXPBD(model, iterations=2))

    @classmethod
    def _requires_initial_reset_before_graph_capture(cls) -> bool:
        return True

    @classmethod
    def _check_solver_status(cls) -> None:
        cls.status_checks.append(NewtonManager.get_state_stamp())

    @classmethod
    def _reset_solver_internals(cls, state, world_mask) -> None:
        cls.reset_masks.append(world_mask.numpy().tolist())
        super()._reset_solver_internals(state, world_mask)

    @classmethod
    def _allocate_observables(cls, requests):
        cls.allocated_kinds.append(requests.all)
        return super()._allocate_observables(requests)


@configclass
class _HookedCfg(NewtonSolverCfg):
    class_type: type = NewtonHookedManager


def test_deferred_capture_waits_for_the_first_step(make_sim):
    """With _requires_initial_reset_before_graph_capture() the first step, not sim.reset(), captures the graph."""
    sim = make_sim(_HookedCfg(), use_cpu_graph=True)
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    assert not NewtonManager.uses_graph(), "capture is deferred past initialize_solver()"
    sim.step(render=False)
    assert NewtonManager.uses_graph(), "the first step captures the substep loop"


def test_status_check_runs_once_per_step(make_sim):
    """_check_solver_status() runs after every physics step, after the step's state changed."""
    NewtonHookedManager.status_checks = []
    sim = make_sim(_HookedCfg())
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    stamps = []
    for _ in range(3):
        sim.step(render=False)
        stamps.append(NewtonManager.get_state_stamp())
    assert NewtonHookedManager.status_checks == stamps


def test_world_reset_hook_gets_the_marked_worlds_once(make_sim):
    """_reset_solver_internals(state, world_mask) gets the requested worlds, and the base clears the marks after it."""
    NewtonHookedManager.reset_masks = []
    sim = make_sim(_HookedCfg())
    box = newton.ModelBuilder()
    body = box.add_body(xform=wp.transform((0.0, 0.0, 0.3), wp.quat_identity()), label="box")
    box.add_shape_box(body, hx=0.1, hy=0.1, hz=0.1)
    NewtonManager.create_builder().replicate(box, NUM_WORLDS)
    sim.reset()
    NewtonManager.request_world_reset([1])
    sim.step(render=False)
    sim.step(render=False)
    assert NewtonHookedManager.reset_masks == [[False, True, False, False]], "world 1 once; the last entry is world -1"


def test_observables_hook_gets_the_requests(make_sim):
    """_allocate_observables(requests) gets the union of the cfg's and the consumers' requested kinds."""
    NewtonHookedManager.allocated_kinds = []
    sim = make_sim(_HookedCfg(), observables=("contact_f",))
    scenes.add_dropped_box(NewtonManager.create_builder())
    NewtonManager.request_observables({"body_parent_f"})
    sim.reset()
    assert NewtonHookedManager.allocated_kinds == [frozenset({"contact_f", "body_parent_f"})]


def test_xpbd_joint_coordinates_follow_the_bodies(make_sim):
    """A manager of Newton's XPBD (guessed by type name, no solver module imported) re-derives joint_q from bodies."""
    sim = make_sim(_HookedCfg(), dt=1.0 / 120.0)
    body = scenes.add_pendulum(NewtonManager.create_builder())
    sim.reset()
    assert not NewtonManager._solver_writes_joint_coordinates()
    for _ in range(30):
        sim.step(render=False)
    state = NewtonManager.get_state_0()
    _, qy, _, qw = state.body_q.numpy()[body, 3:]
    body_angle = 2.0 * math.atan2(qy, qw)  # the bob's rotation about the hinge axis (+y)
    assert abs(body_angle - scenes.RELEASE_ANGLE) > 0.05, "the pendulum swung"
    assert abs(float(state.joint_q.numpy()[0]) - body_angle) < 1.0e-4
