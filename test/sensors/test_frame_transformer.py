"""Isaac Lab's FrameTransformer on the Newton backend: relative poses match the kinematics of a swinging pendulum."""

from __future__ import annotations

import math

import numpy as np
import warp as wp
from conftest import solid_inertia

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonManager

ARM = 0.5  # pivot to bob frame [m]
RELEASE = math.radians(30.0)


def _swinging_pendulums(num_envs: int) -> None:
    """Per world: a base welded to the world at the pivot and a 2 kg bob hinged to it about +y, released at 30 deg."""
    import newton

    builder = NewtonManager.create_builder()
    no_mass = newton.ModelBuilder.ShapeConfig(density=0.0)
    for env in range(num_envs):
        builder.begin_world(label=f"/World/envs/env_{env}")
        pivot = wp.vec3(2.0 * env, 0.0, 2.0)
        base = builder.add_link(
            xform=wp.transform(pivot, wp.quat_identity()),
            mass=1.0,
            inertia=solid_inertia(newton.GeoType.BOX, (0.05, 0.05, 0.05), 1.0),
            label=f"/World/envs/env_{env}/Pendulum/base",
        )
        builder.add_shape_box(base, hx=0.05, hy=0.05, hz=0.05, cfg=no_mass)
        bob = builder.add_link(
            xform=wp.transform(pivot + wp.vec3(0.0, 0.0, -ARM), wp.quat_identity()),
            mass=2.0,
            inertia=solid_inertia(newton.GeoType.SPHERE, (0.05, 0.0, 0.0), 2.0),
            label=f"/World/envs/env_{env}/Pendulum/bob",
        )
        builder.add_shape_sphere(bob, radius=0.05, cfg=no_mass)
        weld = builder.add_joint_fixed(parent=-1, child=base, parent_xform=wp.transform(pivot, wp.quat_identity()))
        hinge = builder.add_joint_revolute(
            parent=base,
            child=bob,
            axis=(0.0, 1.0, 0.0),
            parent_xform=wp.transform_identity(),
            child_xform=wp.transform(wp.vec3(0.0, 0.0, ARM), wp.quat_identity()),
        )
        builder.add_articulation([weld, hinge], label=f"/World/envs/env_{env}/Pendulum")
        builder.joint_q[builder.joint_q_start[hinge]] = RELEASE
        builder.end_world()
    NewtonManager.set_builder(builder)


def test_relative_pose_follows_hinge_angle(make_sim):
    """The bob frame (and a 0.1 m offset point) in the base frame equals R_y(q) applied to the hinge arm."""
    from isaaclab.sensors import FrameTransformer, FrameTransformerCfg
    from isaaclab.sensors.frame_transformer.frame_transformer_cfg import OffsetCfg
    from pxr import UsdGeom

    sim = make_sim(MJWarpSolverCfg())
    for env in range(2):
        for prim in ("", "/Pendulum/base", "/Pendulum/bob"):
            UsdGeom.Xform.Define(sim.stage, f"/World/envs/env_{env}{prim}")
    root = "/World/envs/env_[0-9]+/Pendulum"
    sensor = FrameTransformer(
        FrameTransformerCfg(
            prim_path=f"{root}/base",
            target_frames=[
                FrameTransformerCfg.FrameCfg(prim_path=f"{root}/bob"),
                FrameTransformerCfg.FrameCfg(prim_path=f"{root}/bob", name="tip", offset=OffsetCfg(pos=(0, 0, -0.1))),
            ],
        )
    )
    assert type(sensor).__module__.startswith("isaaclab_newton.sensors.frame_transformer")
    _swinging_pendulums(2)
    sim.reset()
    for _ in range(25):
        sim.step(render=False)
    assert sensor.data.target_frame_names == ["bob", "tip"]
    model = NewtonManager.get_model()
    hinge_q = model.joint_q_start.numpy()[1::2]
    angles = NewtonManager.get_state_0().joint_q.numpy()[hinge_q]
    assert abs(angles[0] - RELEASE) > 0.05, "the pendulum must have swung"
    pos = sensor.data.target_pos_source.torch.cpu().numpy()
    quat = sensor.data.target_quat_source.torch.cpu().numpy()
    for env, angle in enumerate(angles):
        direction = np.array([-math.sin(angle), 0.0, -math.cos(angle)])
        np.testing.assert_allclose(pos[env, 0], ARM * direction, atol=1.0e-4)
        np.testing.assert_allclose(pos[env, 1], (ARM + 0.1) * direction, atol=1.0e-4)
        expected = [0.0, math.sin(angle / 2.0), 0.0, math.cos(angle / 2.0)]
        np.testing.assert_allclose(quat[env, 0], expected, atol=1.0e-4)
    source = sensor.data.source_pos_w.torch.cpu().numpy()
    np.testing.assert_allclose(source, [[0.0, 0.0, 2.0], [2.0, 0.0, 2.0]], atol=1.0e-5)
