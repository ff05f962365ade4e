"""Solver x observable matrix through the manager: each supported kind carries the expected physics.

Each solver runs one scene once (resting box, falling ball, hanging pendulum, and for MuJoCo a drive-held
arm), requesting every kind of the matrix it supports; the tests then check one quantity each.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
import warp as wp
from observable_scenes import ARM_LENGTH, DEVICE, GRAVITY, KINDS, SOLVERS, Scene, build_scene, solver_params

from isaaclab_newton.physics import NewtonManager

NUM_STEPS = 120
"""Physics steps of 1/240 s: the box settles, the ball is still in free fall."""


@dataclass
class Run:
    """Numpy copies of what one solver produced after :data:`NUM_STEPS` steps."""

    scene: Scene
    supported: frozenset[str]
    body_mass: np.ndarray
    body_q: np.ndarray
    body_com: np.ndarray
    joint_q: np.ndarray
    joint_q_start: np.ndarray
    joint_qd_start: np.ndarray
    arrays: dict[str, np.ndarray]
    rigid_count: int
    shape0: np.ndarray | None
    shape1: np.ndarray | None


_RUNS: dict[str, Run] = {}


def _run_solver(make_sim, name: str) -> Run:
    cfg_factory, kinds = SOLVERS[name]
    sim = make_sim(cfg_factory(), device=DEVICE)
    scene = build_scene(NewtonManager.create_builder(), actuated_arm="qfrc_actuator" in kinds)
    NewtonManager.request_observables(kinds)
    sim.reset()
    for _ in range(NUM_STEPS if kinds else 0):
        sim.step(render=False)
    model, state, observables = NewtonManager.get_model(), NewtonManager.get_state_0(), NewtonManager.get_observables()
    assert (observables is None) == (not kinds)
    arrays = {kind: getattr(observables, kind).numpy() for kind in kinds}
    contacts = None if observables is None else observables.contacts
    rigid_count = 0 if contacts is None else int(contacts.rigid_contact_count.numpy()[0])
    return Run(
        scene=scene,
        supported=frozenset(NewtonManager.supported_observables()),
        body_mass=model.body_mass.numpy(),
        body_q=state.body_q.numpy(),
        body_com=model.body_com.numpy(),
        joint_q=state.joint_q.numpy(),
        joint_q_start=model.joint_q_start.numpy(),
        joint_qd_start=model.joint_qd_start.numpy(),
        arrays=arrays,
        rigid_count=rigid_count,
        shape0=None if contacts is None else contacts.rigid_contact_shape0.numpy()[:rigid_count],
        shape1=None if contacts is None else contacts.rigid_contact_shape1.numpy()[:rigid_count],
    )


@pytest.fixture
def solver_run(make_sim):
    """Return the (cached) run of a solver by name; each solver is simulated once per session."""

    def get(name: str) -> Run:
        if name not in _RUNS:
            _RUNS[name] = _run_solver(make_sim, name)
        return _RUNS[name]

    return get


@pytest.mark.parametrize("solver", solver_params())
def test_supported_kinds_match_table(solver_run, solver):
    """The manager reports exactly the measured support of each solver within the matrix kinds."""
    run = solver_run(solver)
    assert run.supported & KINDS == SOLVERS[solver][1]


@pytest.mark.parametrize("solver", solver_params("contact_f"))
def test_resting_box_contact_forces_sum_to_weight(solver_run, solver):
    """CONTACT_F rows touching the resting 8 kg box sum to m*g upward on the box (within 1%)."""
    run = solver_run(solver)
    box_shape = run.scene.box_shape
    forces = run.arrays["contact_f"][: run.rigid_count, :3]  # linear part: force on shape0's body by shape1
    sign = np.where(run.shape0 == box_shape, 1.0, np.where(run.shape1 == box_shape, -1.0, 0.0))
    assert np.count_nonzero(sign) > 0, "no contact rows touch the box"
    weight = run.body_mass[run.scene.box] * GRAVITY
    assert run.body_mass[run.scene.box] == pytest.approx(8.0, rel=1e-6)
    total = (sign[:, None] * forces).sum(axis=0)
    np.testing.assert_allclose(total, [0.0, 0.0, weight], rtol=0.0, atol=0.01 * weight)


@pytest.mark.parametrize("solver", solver_params("body_qdd"))
def test_free_falling_body_qdd_is_gravity(solver_run, solver):
    """BODY_QDD of the falling ball is (0, 0, -g) linear (first three entries) and zero angular."""
    run = solver_run(solver)
    qdd = run.arrays["body_qdd"][run.scene.ball]
    assert run.body_q[run.scene.ball, 2] > 3.0, "the ball should still be in the air"
    np.testing.assert_allclose(qdd[:3], [0.0, 0.0, -GRAVITY], atol=0.01 * GRAVITY)
    np.testing.assert_allclose(qdd[3:], 0.0, atol=1e-3)


@pytest.mark.parametrize("solver", solver_params("body_parent_f"))
def test_hanging_pendulum_parent_force_carries_weight(solver_run, solver):
    """BODY_PARENT_F of a hanging pendulum bob is its weight, pointing up (within 1%)."""
    run = solver_run(solver)
    bob = run.scene.bob
    weight = run.body_mass[bob] * GRAVITY
    np.testing.assert_allclose(run.body_q[bob, :3], np.add(run.scene.bob_pivot, (0, 0, -ARM_LENGTH)), atol=1e-3)
    np.testing.assert_allclose(run.arrays["body_parent_f"][bob, :3], [0.0, 0.0, weight], atol=0.01 * weight)


@pytest.mark.parametrize("solver", solver_params("qfrc_actuator"))
def test_held_arm_actuator_torque_balances_gravity(solver_run, solver):
    """QFRC_ACTUATOR of a drive-held arm at rest cancels the gravity torque about its hinge (within 1%)."""
    run = solver_run(solver)
    arm, joint = run.scene.arm, run.scene.arm_joint
    angle = run.joint_q[run.joint_q_start[joint]]
    assert 0.4 < angle < 0.7, f"the drive should hold the arm near 0.6 rad, got {angle}"
    pose = run.body_q[arm]
    com = wp.transform_point(wp.transform(wp.vec3(*pose[:3]), wp.quat(*pose[3:])), wp.vec3(*run.body_com[arm]))
    lever = np.array(com) - np.array(run.scene.arm_pivot)
    gravity_torque = np.cross(lever, [0.0, 0.0, -run.body_mass[arm] * GRAVITY])[1]  # about the hinge axis +y
    actuator_torque = run.arrays["qfrc_actuator"][run.joint_qd_start[joint]]
    assert abs(gravity_torque) > 1.0
    assert actuator_torque == pytest.approx(-gravity_torque, rel=0.01)


@pytest.mark.parametrize("solver", [p for p in solver_params() if SOLVERS[p.values[0]][1] != KINDS])
def test_unsupported_kinds_raise_manager_error(make_sim, solver):
    """Requesting kinds a solver lacks fails at allocation, naming the manager, the kinds and the supported set."""
    cfg_factory, kinds = SOLVERS[solver]
    missing = sorted(KINDS - kinds)
    sim = make_sim(cfg_factory(), device=DEVICE)
    build_scene(NewtonManager.create_builder(), actuated_arm=False)
    NewtonManager.request_observables(missing)
    with pytest.raises(ValueError) as info:
        sim.reset()
    message = str(info.value)
    assert sim.physics_manager.__name__ in message
    assert "solver.supported_observables" in message
    for kind in missing:
        assert repr(kind) in message
