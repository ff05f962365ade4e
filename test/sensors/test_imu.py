"""Isaac Lab's Imu on the Newton backend reads the BODY_QDD observable through the manager."""

from __future__ import annotations

import math

import numpy as np
import pytest

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonManager, XPBDSolverCfg

from .conftest import _author_two_env_boxes

G = 9.81


def _make_imu(rot=(0.0, 0.0, 0.0, 1.0)):
    from isaaclab.sensors import Imu, ImuCfg

    return Imu(ImuCfg(prim_path="/World/envs/env_[0-9]+/Box", offset=ImuCfg.OffsetCfg(pos=(0.05, 0.0, 0.0), rot=rot)))


def test_imu_reads_plus_g_at_rest_and_zero_in_free_fall(make_sim):
    """A resting box's IMU reads +g upward; a free-falling box's reads zero; gyros read zero."""
    sim = make_sim(MJWarpSolverCfg())
    _author_two_env_boxes(sim.stage)
    imu = _make_imu()
    assert type(imu).__module__.startswith("isaaclab_newton.sensors.imu")
    sim.reset()
    for _ in range(60):
        sim.step(render=False)
        imu.update(sim.get_physics_dt())
    acc = imu.data.lin_acc_b.torch.cpu().numpy()
    gyro = imu.data.ang_vel_b.torch.cpu().numpy()
    np.testing.assert_allclose(acc[0], [0.0, 0.0, G], atol=0.01 * G)
    np.testing.assert_allclose(acc[1], [0.0, 0.0, 0.0], atol=1.0e-3 * G)
    np.testing.assert_allclose(gyro, 0.0, atol=1.0e-3)
    assert float(NewtonManager.get_state_0().body_q.numpy()[1, 2]) < 20.0 - 0.2


def test_imu_offset_rotation_rotates_gravity_reading(make_sim):
    """An IMU frame rolled +90 degrees about x (its y axis along world +z) reads the +g reaction on its y axis."""
    sim = make_sim(MJWarpSolverCfg())
    _author_two_env_boxes(sim.stage)
    s = math.sqrt(0.5)
    imu = _make_imu(rot=(s, 0.0, 0.0, s))
    sim.reset()
    for _ in range(60):  # 0.5 s: the box has settled (on CUDA it still rebounds after 30 steps)
        sim.step(render=False)
    acc = imu.data.lin_acc_b.torch.cpu().numpy()
    np.testing.assert_allclose(acc[0], [0.0, G, 0.0], atol=0.01 * G)


def test_imu_reads_plus_g_again_after_a_hard_reset(make_sim):
    """After a hard reset (new model, new solver) the IMU re-resolves its body and the resting box reads +g."""
    sim = make_sim(MJWarpSolverCfg())
    _author_two_env_boxes(sim.stage)
    imu = _make_imu()
    sim.reset()
    first_model = NewtonManager.get_model()
    sim.step(render=False)
    sim.reset()
    assert NewtonManager.get_model() is not first_model
    for _ in range(60):
        sim.step(render=False)
    acc = imu.data.lin_acc_b.torch.cpu().numpy()
    np.testing.assert_allclose(acc[0], [0.0, 0.0, G], atol=0.01 * G)


def test_imu_on_solver_without_body_qdd_raises(make_sim):
    """XPBD has no BODY_QDD: sim.reset() fails with the manager's unsupported-observable error."""
    sim = make_sim(XPBDSolverCfg())
    _author_two_env_boxes(sim.stage)
    _imu = _make_imu()
    with pytest.raises(ValueError, match="body_qdd"):
        sim.reset()
