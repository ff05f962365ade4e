"""Small Newton scenes and measurements shared by the physics-layer tests (no tests here)."""

from __future__ import annotations

import math

import newton
import numpy as np
import warp as wp

BOX_HALF_EXTENT = 0.1
"""Half extent of the dropped box [m]."""

PIVOT_HEIGHT = 1.0
"""Height of the pendulum pivot above the origin [m]."""

ROD_LENGTH = 0.25
"""Distance from the pendulum pivot to the bob's center of mass [m]."""

BOB_RADIUS = 0.02
"""Radius of the pendulum bob [m]."""

RELEASE_ANGLE = math.radians(10.0)
"""Release angle of the pendulum [rad]."""


def add_dropped_box(
    builder: newton.ModelBuilder,
    *,
    height: float = 0.3,
    contact_ke: float | None = None,
    contact_kd: float | None = None,
) -> int:
    """Add a ground plane and a free box (half extent 0.1 m, 8 kg) whose center starts at ``height`` [m].

    Args:
        builder: Builder to add to.
        height: Initial height of the box center [m].
        contact_ke: Contact stiffness of both shapes [N/m]; ``None`` keeps Newton's default. Penalty-contact
            solvers (Featherstone, semi-implicit, VBD) rest ``m*g/ke`` deep in the ground.
        contact_kd: Contact damping of both shapes [N s/m]; ``None`` keeps Newton's default.

    Returns:
        The box body index.
    """
    cfg = newton.ModelBuilder.ShapeConfig()
    if contact_ke is not None:
        cfg.ke = contact_ke
    if contact_kd is not None:
        cfg.kd = contact_kd
    builder.add_ground_plane(cfg=cfg)
    body = builder.add_body(xform=wp.transform((0.0, 0.0, height), wp.quat_identity()), label="box")
    builder.add_shape_box(body, hx=BOX_HALF_EXTENT, hy=BOX_HALF_EXTENT, hz=BOX_HALF_EXTENT, cfg=cfg)
    return body


def add_pendulum(
    builder: newton.ModelBuilder,
    *,
    angle: float = RELEASE_ANGLE,
    bob_radius: float = BOB_RADIUS,
    bob_density: float = 1000.0,
) -> int:
    """Add a bob on a massless rod, hinged to the world about +y at ``PIVOT_HEIGHT``, released at ``angle``.

    The body pose is consistent with the joint angle (solvers that read ``Model.body_q`` as the rest pose see
    the same configuration as those that read ``Model.joint_q``). The bob does not collide.

    Args:
        builder: Builder to add to.
        angle: Release angle [rad].
        bob_radius: Radius of the spherical bob [m].
        bob_density: Density of the bob [kg/m^3].

    Returns:
        The bob body index.
    """
    rot = wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), angle)
    pos = wp.vec3(-ROD_LENGTH * math.sin(angle), 0.0, PIVOT_HEIGHT - ROD_LENGTH * math.cos(angle))
    body = builder.add_link(xform=wp.transform(pos, rot), label="bob")
    cfg = newton.ModelBuilder.ShapeConfig(density=bob_density, has_shape_collision=False, has_particle_collision=False)
    builder.add_shape_sphere(body, radius=bob_radius, cfg=cfg)
    joint = builder.add_joint_revolute(
        parent=-1,
        child=body,
        parent_xform=wp.transform((0.0, 0.0, PIVOT_HEIGHT), wp.quat_identity()),
        child_xform=wp.transform((0.0, 0.0, ROD_LENGTH), wp.quat_identity()),
        axis=(0.0, 1.0, 0.0),
    )
    builder.joint_q[builder.joint_q_start[joint]] = angle
    builder.add_articulation([joint])
    return body


def pendulum_angle(body_q: np.ndarray, body: int) -> float:
    """Return the pendulum angle [rad] from the bob's world position (positive about +y)."""
    x, _, z = body_q[body, :3]
    return math.atan2(-x, PIVOT_HEIGHT - z)


def analytic_period(model: newton.Model, body: int, gravity: float = 9.81) -> float:
    """Return the small-angle period 2*pi*sqrt(I/(m*g*d)) [s] of the hinged bob from the model's mass properties."""
    mass = float(model.body_mass.numpy()[body])
    inertia_cm = float(model.body_inertia.numpy()[body][1, 1])
    pivot_inertia = inertia_cm + mass * ROD_LENGTH**2
    return 2.0 * math.pi * math.sqrt(pivot_inertia / (mass * gravity * ROD_LENGTH))


def measured_period(times: np.ndarray, angles: np.ndarray) -> float:
    """Return the period [s] from the zero crossings of ``angles`` (linear interpolation), averaging half periods.

    Raises:
        AssertionError: If fewer than two zero crossings were recorded.
    """
    crossings = []
    for i in range(1, len(angles)):
        a0, a1 = angles[i - 1], angles[i]
        if a0 == 0.0 or a0 * a1 < 0.0:
            crossings.append(times[i - 1] + (times[i] - times[i - 1]) * a0 / (a0 - a1))
    assert len(crossings) >= 2, f"pendulum crossed zero {len(crossings)} times; it did not swing"
    return 2.0 * float(np.mean(np.diff(crossings)))
