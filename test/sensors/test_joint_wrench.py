"""Isaac Lab's JointWrenchSensor on the Newton backend reads BODY_PARENT_F in the incoming joint frame."""

from __future__ import annotations

import numpy as np
import warp as wp
from conftest import solid_inertia

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonManager

G = 9.81
MASS = 2.0
ARM = 0.5


def _hanging_pendulums(num_envs: int):
    """One pendulum per world: a 2 kg ball hanging 0.5 m below a revolute hinge to the world (at rest)."""
    import newton

    builder = NewtonManager.create_builder()
    for env in range(num_envs):
        builder.begin_world(label=f"/World/envs/env_{env}")
        anchor = wp.vec3(2.0 * env, 0.0, 2.0)
        body = builder.add_link(
            xform=wp.transform(anchor + wp.vec3(0.0, 0.0, -ARM), wp.quat_identity()),
            mass=MASS,
            inertia=solid_inertia(newton.GeoType.SPHERE, (0.05, 0.0, 0.0), MASS),
            label=f"/World/envs/env_{env}/Pendulum/bob",
        )
        builder.add_shape_sphere(body, radius=0.05, cfg=newton.ModelBuilder.ShapeConfig(density=0.0))
        joint = builder.add_joint_revolute(
            parent=-1,
            child=body,
            axis=(0.0, 1.0, 0.0),
            parent_xform=wp.transform(anchor, wp.quat_identity()),
            child_xform=wp.transform(wp.vec3(0.0, 0.0, ARM), wp.quat_identity()),
        )
        builder.add_articulation([joint], label=f"/World/envs/env_{env}/Pendulum")
        builder.end_world()
    NewtonManager.set_builder(builder)


def test_hanging_pendulum_joint_force_carries_weight(make_sim):
    """At rest, each hinge pushes the bob up with m*g and, about the hinge, exerts no torque."""
    from isaaclab.sensors import JointWrenchSensor, JointWrenchSensorCfg
    from pxr import UsdGeom

    sim = make_sim(MJWarpSolverCfg())
    for env in range(2):
        UsdGeom.Xform.Define(sim.stage, f"/World/envs/env_{env}")
    sensor = JointWrenchSensor(JointWrenchSensorCfg(prim_path="/World/envs/env_[0-9]+/Pendulum"))
    _hanging_pendulums(2)
    sim.reset()
    for _ in range(20):
        sim.step(render=False)
    assert sensor.body_names == ["bob"]
    force = sensor.data.force.torch.cpu().numpy()
    torque = sensor.data.torque.torch.cpu().numpy()
    assert force.shape == (2, 1, 3)
    np.testing.assert_allclose(force[:, 0], [[0.0, 0.0, MASS * G]] * 2, atol=0.01 * MASS * G)
    np.testing.assert_allclose(torque[:, 0], 0.0, atol=1.0e-3 * MASS * G * ARM)


def _pendulums_on_fixed_root(num_envs: int):
    """Per world: a 1 kg root link welded to the world by a fixed root joint, carrying the hinged 2 kg bob."""
    import newton

    builder = NewtonManager.create_builder()
    for env in range(num_envs):
        builder.begin_world(label=f"/World/envs/env_{env}")
        anchor = wp.vec3(2.0 * env, 0.0, 2.0)
        root = builder.add_link(
            xform=wp.transform(anchor, wp.quat_identity()),
            mass=1.0,
            inertia=solid_inertia(newton.GeoType.BOX, (0.05, 0.05, 0.05), 1.0),
            label=f"/World/envs/env_{env}/Pendulum/base",
        )
        builder.add_shape_box(root, hx=0.05, hy=0.05, hz=0.05, cfg=newton.ModelBuilder.ShapeConfig(density=0.0))
        weld = builder.add_joint_fixed(parent=-1, child=root, parent_xform=wp.transform(anchor, wp.quat_identity()))
        bob = builder.add_link(
            xform=wp.transform(anchor + wp.vec3(0.0, 0.0, -ARM), wp.quat_identity()),
            mass=MASS,
            inertia=solid_inertia(newton.GeoType.SPHERE, (0.05, 0.0, 0.0), MASS),
            label=f"/World/envs/env_{env}/Pendulum/bob",
        )
        builder.add_shape_sphere(bob, radius=0.05, cfg=newton.ModelBuilder.ShapeConfig(density=0.0))
        joint = builder.add_joint_revolute(
            parent=root,
            child=bob,
            axis=(0.0, 1.0, 0.0),
            parent_xform=wp.transform_identity(),
            child_xform=wp.transform(wp.vec3(0.0, 0.0, ARM), wp.quat_identity()),
        )
        builder.add_articulation([weld, joint], label=f"/World/envs/env_{env}/Pendulum")
        builder.end_world()
    NewtonManager.set_builder(builder)


def test_fixed_root_is_not_reported(make_sim):
    """A root welded to the world by its fixed root joint is left out of body_names; the hinged bob reads m*g."""
    from isaaclab.sensors import JointWrenchSensor, JointWrenchSensorCfg
    from pxr import UsdGeom

    sim = make_sim(MJWarpSolverCfg())
    for env in range(2):
        UsdGeom.Xform.Define(sim.stage, f"/World/envs/env_{env}")
    sensor = JointWrenchSensor(JointWrenchSensorCfg(prim_path="/World/envs/env_[0-9]+/Pendulum"))
    _pendulums_on_fixed_root(2)
    sim.reset()
    for _ in range(20):
        sim.step(render=False)
    assert sensor.body_names == ["bob"]
    force = sensor.data.force.torch.cpu().numpy()
    assert force.shape == (2, 1, 3)
    np.testing.assert_allclose(force[:, 0], [[0.0, 0.0, MASS * G]] * 2, atol=0.01 * MASS * G)
