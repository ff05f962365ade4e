"""Isaac Lab's ContactSensor on the Newton backend reads the CONTACT_F observable through the manager."""

from __future__ import annotations

import numpy as np
import pytest

from isaaclab_newton.physics import MJWarpSolverCfg

G = 9.81
M_BOTTOM = 8.0
M_TOP = 2.0
HALF = 0.1


def _author_stacks(stage, num_envs: int = 2) -> None:
    """Per env: an 8 kg box on the ground slab with a 2 kg box stacked on top of it."""
    from pxr import Gf, UsdGeom, UsdPhysics

    UsdGeom.Xform.Define(stage, "/World")
    ground = UsdGeom.Cube.Define(stage, "/World/Ground")
    ground.GetSizeAttr().Set(1.0)
    ground.AddTranslateOp().Set(Gf.Vec3d(0.0, 0.0, -0.5))
    ground.AddScaleOp().Set(Gf.Vec3f(20.0, 20.0, 1.0))
    UsdPhysics.CollisionAPI.Apply(ground.GetPrim())
    for env in range(num_envs):
        UsdGeom.Xform.Define(stage, f"/World/envs/env_{env}")
        for name, z, mass in (("Bottom", HALF, M_BOTTOM), ("Top", 3.0 * HALF, M_TOP)):
            box = UsdGeom.Cube.Define(stage, f"/World/envs/env_{env}/{name}")
            box.GetSizeAttr().Set(2.0 * HALF)
            box.AddTranslateOp().Set(Gf.Vec3d(3.0 * env, 0.0, z))
            UsdPhysics.RigidBodyAPI.Apply(box.GetPrim())
            UsdPhysics.CollisionAPI.Apply(box.GetPrim())
            UsdPhysics.MassAPI.Apply(box.GetPrim()).GetMassAttr().Set(mass)


def _sensor(**kwargs):
    from isaaclab.sensors import ContactSensor, ContactSensorCfg

    return ContactSensor(ContactSensorCfg(prim_path="/World/envs/env_[0-9]+/Bottom", **kwargs))


def _settle(sim, sensor, steps: int = 240, *, average_last: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Step; return the net force and force matrix averaged over the last ``average_last`` steps.

    Stacked boxes keep micro-vibrating on compliant contacts, so single-step forces jitter by a few percent; by
    momentum balance the time average of the contact force on a body at rest equals its weight.
    """
    net_sum, matrix_sum = 0.0, 0.0
    for i in range(steps):
        sim.step(render=False)
        sensor.update(sim.get_physics_dt())
        if i >= steps - average_last:
            net_sum = net_sum + sensor.data.net_forces_w.torch.cpu().numpy()
            matrix = sensor.data.force_matrix_w
            matrix_sum = matrix_sum + (0.0 if matrix is None else matrix.torch.cpu().numpy())
    n = max(average_last, 1)
    return net_sum / n, matrix_sum / n


def test_resting_box_net_force_and_filtered_partner(make_sim):
    """Bottom box: net contact force = its own weight up; the filtered top box pushes down with its weight."""
    sim = make_sim(MJWarpSolverCfg())
    _author_stacks(sim.stage)
    sensor = _sensor(filter_prim_paths_expr=["/World/envs/env_[0-9]+/Top"], history_length=3, track_air_time=True)
    sim.reset()
    mean_net, matrix = _settle(sim, sensor, steps=360, average_last=120)
    assert sensor.body_names == ["Bottom"] and sensor.num_sensors == 1
    net = sensor.data.net_forces_w.torch.cpu().numpy()
    normal = sensor.data.net_normal_forces_w.torch.cpu().numpy()
    np.testing.assert_allclose(mean_net[:, 0], [[0.0, 0.0, M_BOTTOM * G]] * 2, atol=0.01 * M_BOTTOM * G)
    friction = sensor.data.net_friction_forces_w.torch.cpu().numpy()
    np.testing.assert_allclose(normal + friction, net, atol=1e-4)
    np.testing.assert_allclose(normal, net, atol=0.01 * M_BOTTOM * G)
    assert matrix.shape == (2, 1, 1, 3)
    np.testing.assert_allclose(matrix[:, 0, 0], [[0.0, 0.0, -M_TOP * G]] * 2, atol=0.01 * M_TOP * G)
    history = sensor.data.net_forces_w_history.torch.cpu().numpy()
    assert history.shape == (2, 3, 1, 3)
    np.testing.assert_allclose(history[:, 0], net, atol=1e-5)
    contact_time = sensor.data.current_contact_time.torch.cpu().numpy()
    elapsed = 360 * sim.get_physics_dt()  # the time summed in float32 step by step: a relative tolerance
    assert (contact_time > 0.0).all() and (contact_time <= elapsed * (1.0 + 1e-5)).all(), (contact_time, elapsed)
    assert (sensor.data.current_air_time.torch.cpu().numpy() == 0.0).all()


def test_reset_clears_contact_data(make_sim):
    """sensor.reset(env_ids) zeroes that environment's forces, history and times only."""
    sim = make_sim(MJWarpSolverCfg())
    _author_stacks(sim.stage)
    sensor = _sensor(history_length=2, track_air_time=True)
    sim.reset()
    _settle(sim, sensor, steps=60)
    data = sensor._data  # private: raw buffers: .data would refresh the reset env
    # private: raw buffers: .data would refresh the reset env
    before = [array.numpy().copy() for array in (data._net[0], data._net_hist[0], data._times[2])]
    assert all(np.abs(values[1]).max() > 0.0 for values in before), "env 1 must have contact data to clear"
    sensor.reset(env_ids=[1])
    # private: raw buffers: .data would refresh the reset env
    for before_values, after_values in zip(before, (data._net[0], data._net_hist[0], data._times[2]), strict=True):
        after_values = after_values.numpy()
        assert np.abs(after_values[1]).max() == 0.0
        np.testing.assert_array_equal(after_values[0], before_values[0])


def test_unsupported_options_raise(make_sim):
    """Contact points and shape-level sensing raise NotImplementedError naming the option."""
    make_sim()
    with pytest.raises(NotImplementedError, match="track_contact_points"):
        _sensor(track_contact_points=True)
