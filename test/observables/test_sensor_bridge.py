"""Newton sensors fed through the manager: an IMU on a resting box, a contact sensor on a standing robot."""

from __future__ import annotations

import math

import newton
import numpy as np
import pytest
import warp as wp
from observable_scenes import BOX_HALF, DEVICE, GRAVITY

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonManager
from isaaclab_newton.physics.sensor_bridge import ContactSensorBridge, ImuBridge

YAW = math.pi / 3.0
"""Yaw [rad] of the resting box, so the IMU frame differs from the world frame about z."""

TILT = wp.quat_from_axis_angle(wp.normalize(wp.vec3(1.0, 1.0, 0.0)), 1.0)
"""Orientation of a second IMU site in the box frame (1 rad about a horizontal axis)."""


def _imu_scene() -> None:
    """An 8 kg box resting on the ground, yawed by :data:`YAW`, with an IMU site at its center."""
    builder = NewtonManager.create_builder()
    builder.add_ground_plane()
    yaw = wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), YAW)
    body = builder.add_body(xform=wp.transform((0.0, 0.0, BOX_HALF), yaw), label="box")
    builder.add_shape_box(body, hx=BOX_HALF, hy=BOX_HALF, hz=BOX_HALF)
    builder.add_site(body, label="imu")
    builder.add_site(body, xform=wp.transform((0.05, 0.0, 0.0), TILT), label="imu_tilted")


def _standing_robot() -> float:
    """A 3-body articulation (free base on two drive-held legs) standing on the ground; returns its mass [kg]."""
    builder = NewtonManager.create_builder()
    builder.add_ground_plane()
    base = builder.add_link(xform=wp.transform((0.0, 0.0, 0.35), wp.quat_identity()), label="base")
    builder.add_shape_box(base, hx=0.2, hy=0.1, hz=0.05)
    joints = [builder.add_joint_free(base)]
    for side, x in (("left", 0.15), ("right", -0.15)):
        leg = builder.add_link(xform=wp.transform((x, 0.0, 0.15), wp.quat_identity()), label=f"leg_{side}")
        builder.add_shape_box(leg, hx=0.03, hy=0.03, hz=0.15)
        joints.append(
            builder.add_joint_revolute(
                parent=base,
                child=leg,
                parent_xform=wp.transform((x, 0.0, -0.05), wp.quat_identity()),
                child_xform=wp.transform((0.0, 0.0, 0.15), wp.quat_identity()),
                axis=(0.0, 1.0, 0.0),
                target_q=0.0,
                target_ke=2000.0,
                target_kd=100.0,
                actuator_mode=newton.JointTargetMode.POSITION,
            )
        )
    builder.add_articulation(joints)
    return float(sum(builder.body_mass))


def test_imu_of_resting_body_reads_gravity_up(make_sim):
    """IMUs on a resting box read +g upward in their own frames (site-aligned: (0, 0, g)) and no rotation."""
    sim = make_sim(MJWarpSolverCfg(), device=DEVICE)
    _imu_scene()
    imu = ImuBridge(["imu", "imu_tilted"])
    sim.reset()
    assert "body_qdd" in NewtonManager.get_observables().kinds
    for _ in range(60):
        sim.step(render=False)
    readings = imu.accelerometer.numpy()
    np.testing.assert_allclose(readings[0], [0.0, 0.0, GRAVITY], atol=0.01 * GRAVITY)
    body_quat = wp.quat(*NewtonManager.get_state_0().body_q.numpy()[0, 3:])
    up_in_tilted = wp.quat_rotate_inv(body_quat * TILT, wp.vec3(0.0, 0.0, GRAVITY))
    np.testing.assert_allclose(readings[1], np.array(up_in_tilted), atol=0.01 * GRAVITY)
    assert abs(readings[1][2]) < 0.7 * GRAVITY, "the tilted site must not read g along its own z"
    np.testing.assert_allclose(imu.gyroscope.numpy(), 0.0, atol=1e-3)


def test_hard_reset_rebuilds_bridge_sensor(make_sim):
    """After a hard reset the bridge builds a new sensor on the new model, and it still reads +g."""
    sim = make_sim(MJWarpSolverCfg(), device=DEVICE)
    _imu_scene()
    imu = ImuBridge("imu")
    sim.reset()
    first = imu.sensor
    sim.step(render=False)
    sim.reset()
    assert imu.sensor is not first
    assert NewtonManager.get_observables().model is NewtonManager.get_model()
    for _ in range(30):
        sim.step(render=False)
    assert imu.accelerometer.numpy()[0, 2] == pytest.approx(GRAVITY, rel=0.01)
    assert len(NewtonManager._sensor_updates) == 1, "the bridge must not register its update twice"


def test_contact_sensor_of_standing_robot_reads_its_weight(make_sim):
    """Contact forces on a standing 3-body robot, summed over its bodies, equal its weight (within 1%)."""
    sim = make_sim(MJWarpSolverCfg(), device=DEVICE)
    mass = _standing_robot()
    contact = ContactSensorBridge(sensing_bodies=["base", "leg_left", "leg_right"])
    sim.reset()
    assert "contact_f" in NewtonManager.get_observables().kinds
    for _ in range(240):
        sim.step(render=False)
    base_z = NewtonManager.get_state_0().body_q.numpy()[0, 2]
    assert base_z == pytest.approx(0.35, abs=0.01), "the robot should stand, not fall"
    total = contact.total_force.numpy().sum(axis=0)
    np.testing.assert_allclose(total, [0.0, 0.0, mass * GRAVITY], atol=0.01 * mass * GRAVITY)


def test_bridge_after_reset_is_refused(make_sim):
    """Creating a bridge once the solver runs raises, naming the fix (create it before sim.reset())."""
    sim = make_sim(MJWarpSolverCfg(), device=DEVICE)
    _imu_scene()
    sim.reset()
    with pytest.raises(RuntimeError, match="before sim.reset"):
        ImuBridge("imu")


def test_bridge_every_substep_request_reaches_schedule(make_sim):
    """ImuBridge(every_substep=True) puts BODY_QDD into the subset passed on the earlier substeps."""
    sim = make_sim(MJWarpSolverCfg(), device=DEVICE, num_substeps=2)
    _imu_scene()
    imu = ImuBridge("imu", every_substep=True)
    sim.reset()
    schedule = NewtonManager._observable_schedule
    assert schedule.early is not None and schedule.early.kinds == {"body_qdd"}
    assert schedule.for_substep(0, 2) is schedule.early and schedule.for_substep(1, 2) is schedule.container
    for _ in range(30):
        sim.step(render=False)
    assert imu.accelerometer.numpy()[0, 2] == pytest.approx(GRAVITY, rel=0.01)
