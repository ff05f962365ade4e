"""Kamino-specific manager behaviour: the task-facing cfg name, world resets, and Kamino's own contact detector."""

from __future__ import annotations

import numpy as np

from isaaclab_newton.physics import KaminoPADMMSolverCfg, KaminoSolverCfg, NewtonCfg, NewtonManager

from . import scenes


def test_padmm_alias_is_the_kamino_cfg():
    """KaminoPADMMSolverCfg (the name Isaac Lab's tasks import) is KaminoSolverCfg and routes to the Kamino manager."""
    assert KaminoPADMMSolverCfg is KaminoSolverCfg
    cfg = NewtonCfg(solver_cfg=KaminoPADMMSolverCfg(sparse_jacobian=True))
    assert cfg.class_type.__name__ == "NewtonKaminoManager"


def test_world_reset_restores_initial_pose(make_sim):
    """request_world_reset() + forward() puts the world back to the model's initial pose, like the other solvers."""
    sim = make_sim(KaminoSolverCfg())
    body = scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    initial = NewtonManager.get_state_0().body_q.numpy().copy()
    for _ in range(30):
        sim.step(render=False)
    assert NewtonManager.get_state_0().body_q.numpy()[body, 2] < 0.25
    NewtonManager.request_world_reset([0])
    sim.physics_manager.forward()
    np.testing.assert_allclose(NewtonManager.get_state_0().body_q.numpy(), initial, atol=1.0e-6)
    assert float(np.abs(NewtonManager.get_state_0().body_qd.numpy()).max()) == 0.0


def test_own_collision_detector_rests_box_without_manager_pipeline(make_sim):
    """With use_collision_detector=True the manager owns no pipeline and Kamino's contacts rest the box (2 mm)."""
    sim = make_sim(KaminoSolverCfg(use_collision_detector=True))
    body = scenes.add_dropped_box(NewtonManager.create_builder(), height=0.15)
    sim.reset()
    assert NewtonManager.get_collision_pipeline() is None and NewtonManager.get_contacts() is None
    for _ in range(60):
        sim.step(render=False)
    state = NewtonManager.get_state_0()
    assert abs(float(state.body_q.numpy()[body, 2]) - scenes.BOX_HALF_EXTENT) < 2.0e-3
    assert float(np.abs(state.body_qd.numpy()[body]).max()) < 1.0e-2
