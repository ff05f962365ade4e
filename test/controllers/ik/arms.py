"""A 6-DOF spatial arm (yaw, pitch, pitch, roll, pitch, roll; 0.7 m reach) as MJCF, for IK tests."""

from __future__ import annotations

import newton
import numpy as np
import warp as wp

ARM6_MJCF = """<mujoco model="arm6">
  <worldbody>
    <body name="base" pos="0 0 0">
      <geom type="cylinder" size="0.05 0.05" mass="1"/>
      <body name="l1" pos="0 0 0.1">
        <joint name="j1" type="hinge" axis="0 0 1" range="-170 170"/>
        <geom type="capsule" fromto="0 0 0 0 0 0.2" size="0.03" mass="1"/>
        <body name="l2" pos="0 0 0.2">
          <joint name="j2" type="hinge" axis="0 1 0" range="-100 100"/>
          <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1"/>
          <body name="l3" pos="0.3 0 0">
            <joint name="j3" type="hinge" axis="0 1 0" range="-150 150"/>
            <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.03" mass="1"/>
            <body name="l4" pos="0.25 0 0">
              <joint name="j4" type="hinge" axis="1 0 0" range="-170 170"/>
              <geom type="capsule" fromto="0 0 0 0.05 0 0" size="0.02" mass="0.5"/>
              <body name="l5" pos="0.05 0 0">
                <joint name="j5" type="hinge" axis="0 1 0" range="-120 120"/>
                <geom type="capsule" fromto="0 0 0 0.05 0 0" size="0.02" mass="0.5"/>
                <body name="hand" pos="0.05 0 0">
                  <joint name="j6" type="hinge" axis="1 0 0" range="-170 170"/>
                  <geom type="box" size="0.02 0.02 0.02" mass="0.2"/>
                </body>
              </body>
            </body>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
"""
"""Bodies base, l1..l5, hand; joints j1..j6 (revolute, limits from the ranges in degrees)."""

ARM6_GOALS = np.array(
    [[0.3, 0.4, -0.6, 0.2, 0.5, -0.3], [-0.5, 0.2, 0.8, -0.4, -0.3, 0.6], [1.0, -0.3, 0.5, 0.1, 0.2, 0.0]],
    dtype=np.float32,
)
"""Joint configurations [rad] (one per row) whose hand poses serve as reachable targets."""


def arm6_model(device: str = "cpu") -> newton.Model:
    """The arm as a finalized Newton model (base fixed to the world at the origin)."""
    builder = newton.ModelBuilder()
    builder.add_mjcf(ARM6_MJCF)
    return builder.finalize(device=device)


def forward_kinematics(model: newton.Model, joint_q: np.ndarray, body: int) -> np.ndarray:
    """World poses ``(x, y, z, qx, qy, qz, qw)`` of ``body`` for each row of ``joint_q`` [rad]."""
    state = model.state()
    poses = []
    for q in np.atleast_2d(joint_q):
        model.joint_q.assign(np.asarray(q, dtype=np.float32))
        newton.eval_fk(model, model.joint_q, model.joint_qd, state)
        poses.append(state.body_q.numpy()[body].copy())
    return np.array(poses)


def rotation_angle(quat_a: np.ndarray, quat_b: np.ndarray) -> np.ndarray:
    """Angle [rad] between rows of two ``(x, y, z, w)`` quaternion arrays."""
    a, b = np.asarray(quat_a, dtype=np.float64), np.asarray(quat_b, dtype=np.float64)
    # vector and scalar parts of conj(a) * b
    vec = a[..., 3:] * b[..., :3] - b[..., 3:] * a[..., :3] - np.cross(a[..., :3], b[..., :3])
    w = np.sum(a * b, axis=-1)
    return 2.0 * np.arctan2(np.linalg.norm(vec, axis=-1), np.abs(w))


def seeds(rows: np.ndarray, device: str = "cpu") -> wp.array:
    """Float32 Warp seed array on ``device`` from joint configurations [rad]."""
    return wp.array(np.asarray(rows, dtype=np.float32), dtype=wp.float32, device=device)
