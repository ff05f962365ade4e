"""Kamino-specific manager behaviour: world resets clear solver internals but keep the asset-written state."""

from __future__ import annotations

import numpy as np

from isaaclab_newton.physics import KaminoPADMMSolverCfg, KaminoSolverCfg, NewtonCfg, NewtonManager

from . import scenes


def test_padmm_alias_is_the_kamino_cfg():
    """KaminoPADMMSolverCfg (the name Isaac Lab's tasks import) is KaminoSolverCfg and routes to the Kamino manager."""
    assert KaminoPADMMSolverCfg is KaminoSolverCfg
    cfg = NewtonCfg(solver_cfg=KaminoPADMMSolverCfg(sparse_jacobian=True))
    assert cfg.class_type.__name__ == "NewtonKaminoManager"


def test_world_reset_keeps_current_poses(make_sim):
    """request_world_reset() resets Kamino's internals without moving bodies back to their initial poses."""
    sim = make_sim(KaminoSolverCfg())
    body = scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    for _ in range(30):
        sim.step(render=False)
    body_q = NewtonManager.get_state_0().body_q.numpy().copy()
    assert body_q[body, 2] < 0.25
    NewtonManager.request_world_reset()
    sim.physics_manager.forward()
    np.testing.assert_allclose(NewtonManager.get_state_0().body_q.numpy(), body_q, atol=1.0e-6)


def test_own_collision_detector_rests_box_without_manager_pipeline(make_sim):
    """With use_collision_detector=True the manager owns no pipeline and Kamino's contacts rest the box (2 mm)."""
    sim = make_sim(KaminoSolverCfg(use_collision_detector=True))
    body = scenes.add_dropped_box(NewtonManager.create_builder(), height=0.15)
    sim.reset()
    assert NewtonManager._collision_pipeline is None and NewtonManager.get_contacts() is None
    for _ in range(60):
        sim.step(render=False)
    state = NewtonManager.get_state_0()
    assert abs(float(state.body_q.numpy()[body, 2]) - scenes.BOX_HALF_EXTENT) < 2.0e-3
    assert float(np.abs(state.body_qd.numpy()[body]).max()) < 1.0e-2
