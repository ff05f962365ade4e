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
