"""Scenes and solver configurations shared by the solver observable tests (imported by the test modules)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import newton
import pytest
import warp as wp

DEVICE = os.environ.get("ISAACLAB_NEWTON_TEST_DEVICE", "cpu")
"""Device of the test run (the same switch as ``test/conftest.py``)."""

GRAVITY = 9.81
"""Magnitude of gravity [m/s^2] in every scene (along -z)."""

BOX_HALF = 0.1
"""Half extent [m] of the resting box; with Newton's default density (1000 kg/m^3) it weighs 8 kg."""

BOB_RADIUS = 0.1
"""Radius [m] of the spheres used as pendulum bobs and falling ball."""

ARM_LENGTH = 0.5
"""Distance [m] from a pendulum pivot to its bob's center of mass."""


@dataclass(frozen=True)
class Scene:
    """Indices of the bodies, shapes and joints of :func:`build_scene`."""

    box: int
    box_shape: int
    ball: int
    bob: int
    bob_pivot: tuple[float, float, float]
    arm: int | None
    arm_joint: int | None
    arm_pivot: tuple[float, float, float]


def _pendulum(
    builder: newton.ModelBuilder, pivot: tuple[float, float, float], label: str, **joint_kwargs
) -> tuple[int, int]:
    """Add a sphere hanging ``ARM_LENGTH`` below ``pivot`` on a revolute joint about +y; return (body, joint)."""
    x, y, z = pivot
    body = builder.add_link(xform=wp.transform((x, y, z - ARM_LENGTH), wp.quat_identity()), label=label)
    builder.add_shape_sphere(body, radius=BOB_RADIUS)
    joint = builder.add_joint_revolute(
        parent=-1,
        child=body,
        parent_xform=wp.transform(pivot, wp.quat_identity()),
        child_xform=wp.transform((0.0, 0.0, ARM_LENGTH), wp.quat_identity()),
        axis=(0.0, 1.0, 0.0),
        **joint_kwargs,
    )
    builder.add_articulation([joint])
    return body, joint


def build_scene(builder: newton.ModelBuilder, *, actuated_arm: bool) -> Scene:
    """Ground, an 8 kg box resting on it, a ball falling from 5 m, a hanging pendulum.

    With ``actuated_arm``, also a pendulum held at 0.6 rad by a stiff position drive (MuJoCo actuator).
    """
    builder.add_ground_plane()
    box = builder.add_body(xform=wp.transform((0.0, 0.0, BOX_HALF), wp.quat_identity()), label="box")
    box_shape = builder.add_shape_box(box, hx=BOX_HALF, hy=BOX_HALF, hz=BOX_HALF)
    ball = builder.add_body(xform=wp.transform((2.0, 0.0, 5.0), wp.quat_identity()), label="ball")
    builder.add_shape_sphere(ball, radius=BOB_RADIUS)
    bob_pivot = (-2.0, 0.0, 1.5)
    bob, _ = _pendulum(builder, bob_pivot, "bob")
    arm = arm_joint = None
    arm_pivot = (-4.0, 0.0, 1.5)
    if actuated_arm:
        arm, arm_joint = _pendulum(
            builder,
            arm_pivot,
            "arm",
            target_q=0.6,
            target_ke=2000.0,
            target_kd=100.0,
            actuator_mode=newton.JointTargetMode.POSITION,
        )
        builder.joint_q[builder.joint_q_start[arm_joint]] = 0.6
    return Scene(box, box_shape, ball, bob, bob_pivot, arm, arm_joint, arm_pivot)


KINDS = frozenset({"body_qdd", "body_parent_f", "contact_f", "qfrc_actuator"})
"""The observable kinds the matrix covers."""


def _solver_cfgs() -> dict[str, tuple[Callable[[], object], frozenset[str]]]:
    from isaaclab_newton.physics import (
        FeatherstoneSolverCfg,
        KaminoSolverCfg,
        MJWarpSolverCfg,
        SemiImplicitSolverCfg,
        VBDSolverCfg,
        XPBDSolverCfg,
    )

    return {
        "mjwarp": (MJWarpSolverCfg, KINDS),
        "mjwarp_newton_contacts": (lambda: MJWarpSolverCfg(use_mujoco_contacts=False), KINDS),
        "mujoco_cpu": (lambda: MJWarpSolverCfg(use_mujoco_cpu=True), KINDS),
        "xpbd": (XPBDSolverCfg, frozenset({"body_parent_f", "contact_f"})),
        "featherstone": (FeatherstoneSolverCfg, frozenset({"body_parent_f"})),
        "vbd": (VBDSolverCfg, frozenset({"contact_f"})),
        "kamino": (KaminoSolverCfg, frozenset({"body_qdd", "contact_f"})),
        "semi_implicit": (SemiImplicitSolverCfg, frozenset()),
    }


SOLVERS = _solver_cfgs()
"""Solver name -> (configuration factory, kinds of :data:`KINDS` it supports, as measured)."""


def solver_params(kind: str | None = None, *, supported: bool = True) -> list:
    """Pytest params over the solvers that support (or, with ``supported=False``, lack) ``kind``.

    MuJoCo C runs on the CPU only, so its param is skipped on a CUDA test device.
    """
    params = []
    for name, (_, kinds) in SOLVERS.items():
        if kind is not None and (kind in kinds) != supported:
            continue
        marks = [pytest.mark.skipif(DEVICE != "cpu", reason="MuJoCo C runs on the CPU only")]
        params.append(pytest.param(name, id=name, marks=marks if name == "mujoco_cpu" else []))
    return params
