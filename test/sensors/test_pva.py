"""Isaac Lab's Pva on the Newton backend: coordinate accelerations from BODY_QDD, pose and velocity from the state."""

from __future__ import annotations

import math

import numpy as np

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonManager

from .conftest import HALF, _author_two_env_boxes

G = 9.81


def _make_pva(pos=(0.0, 0.0, 0.0), rot=(0.0, 0.0, 0.0, 1.0)):
    from isaaclab.sensors import Pva, PvaCfg

    return Pva(PvaCfg(prim_path="/World/envs/env_[0-9]+/Box", offset=PvaCfg.OffsetCfg(pos=pos, rot=rot)))


def test_free_fall_reads_gravity_and_rest_reads_zero(make_sim):
    """A free-falling box's Pva reads a = g (down), v = g t; the resting box reads zero acceleration and velocity."""
    sim = make_sim(MJWarpSolverCfg())
    _author_two_env_boxes(sim.stage)
    pva = _make_pva()
    assert type(pva).__module__.startswith("isaaclab_newton.sensors.pva")
    sim.reset()
    steps = 60
    for _ in range(steps):
        sim.step(render=False)
    acc = pva.data.lin_acc_b.torch.cpu().numpy()
    vel = pva.data.lin_vel_b.torch.cpu().numpy()
    np.testing.assert_allclose(acc[1], [0.0, 0.0, -G], atol=1.0e-3 * G)
    np.testing.assert_allclose(vel[1], [0.0, 0.0, -G * steps * sim.get_physics_dt()], rtol=1.0e-3, atol=1.0e-3)
    np.testing.assert_allclose(acc[0], 0.0, atol=0.01 * G)
    np.testing.assert_allclose(vel[0], 0.0, atol=1.0e-2)
    pos = pva.data.pos_w.torch.cpu().numpy()
    np.testing.assert_allclose(pos[0], [0.0, 0.0, HALF], atol=2.0e-3)
    np.testing.assert_allclose(pva.data.projected_gravity_b.torch.cpu().numpy(), [[0.0, 0.0, -1.0]] * 2, atol=1.0e-4)
    assert float(NewtonManager.get_state_0().body_q.numpy()[1, 2]) < 20.0 - 0.2


def test_offset_frame_rotates_readings(make_sim):
    """A frame rolled +90 degrees about x (its y axis along world +z) reads free-fall gravity on its -y axis."""
    sim = make_sim(MJWarpSolverCfg())
    _author_two_env_boxes(sim.stage)
    s = math.sqrt(0.5)
    pva = _make_pva(pos=(0.05, 0.0, 0.0), rot=(s, 0.0, 0.0, s))
    sim.reset()
    for _ in range(30):
        sim.step(render=False)
    acc = pva.data.lin_acc_b.torch.cpu().numpy()
    # world -z expressed in a frame whose y axis points along world +z is -y
    np.testing.assert_allclose(acc[1], [0.0, -G, 0.0], atol=1.0e-3 * G)
    pos = pva.data.pos_w.torch.cpu().numpy()
    np.testing.assert_allclose(pos[0], [0.05, 0.0, HALF], atol=2.0e-3)
