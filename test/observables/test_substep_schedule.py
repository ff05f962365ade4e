"""The per-substep observable schedule: every-substep kinds on each substep, the rest on the last one only.

A MuJoCo Warp manager subclass records, in ``_step_solver``, which container each substep receives, and
copies the full container's arrays and the output pose after each substep into per-substep snapshots
(device copies, so a captured CUDA graph replays them too).
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
import pytest
import warp as wp
from observable_scenes import ARM_LENGTH, BOB_RADIUS, DEVICE, GRAVITY

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonManager
from isaaclab_newton.physics.mjwarp_manager import NewtonMJWarpManager

NUM_SUBSTEPS = 4
RELEASE_ANGLE = 0.8
"""Initial pendulum angle [rad] about +y."""
PIVOT = (0.0, 0.0, 1.5)


class RecordingMJWarpManager(NewtonMJWarpManager):
    """MuJoCo Warp manager that records the observables passed on each substep."""

    calls: ClassVar[list] = []
    snapshots: ClassVar[dict[str, list[wp.array]]] = {}

    @classmethod
    def _build_solver(cls, model, solver_cfg) -> None:
        super()._build_solver(model, solver_cfg)
        cls.calls = []
        cls.snapshots = {
            name: [wp.zeros(model.body_count, dtype=dtype, device=model.device) for _ in range(NUM_SUBSTEPS)]
            for name, dtype in (
                ("body_qdd", wp.spatial_vector),
                ("body_parent_f", wp.spatial_vector),
                ("body_q", wp.transform),
            )
        }

    @classmethod
    def _step_solver(cls, state_0, state_1, control, contacts, substep_dt) -> None:
        observables = NewtonManager.get_substep_observables()
        super()._step_solver(state_0, state_1, control, contacts, substep_dt)
        substep = len(cls.calls) % NUM_SUBSTEPS
        cls.calls.append(observables)
        full = NewtonManager.get_observables()
        for kind in ("body_qdd", "body_parent_f"):
            if full is not None and full.is_requested(kind):
                wp.copy(cls.snapshots[kind][substep], getattr(full, kind))
        wp.copy(cls.snapshots["body_q"][substep], state_1.body_q)


def _pendulum_sim(make_sim, **cfg):
    """A sphere swinging on a hinge, released at :data:`RELEASE_ANGLE`; 4 substeps per 1/60 s step."""
    sim = make_sim(
        MJWarpSolverCfg(class_type=RecordingMJWarpManager),
        device=DEVICE,
        dt=1.0 / 60.0,
        num_substeps=NUM_SUBSTEPS,
        **cfg,
    )
    builder = NewtonManager.create_builder()
    body = builder.add_link(label="bob")
    builder.add_shape_sphere(body, radius=BOB_RADIUS)
    joint = builder.add_joint_revolute(
        parent=-1,
        child=body,
        parent_xform=wp.transform(PIVOT, wp.quat_identity()),
        child_xform=wp.transform((0.0, 0.0, ARM_LENGTH), wp.quat_identity()),
        axis=(0.0, 1.0, 0.0),
    )
    builder.add_articulation([joint])
    builder.joint_q[0] = RELEASE_ANGLE
    return sim, body


def _snapshots(name: str) -> np.ndarray:
    return np.stack([snap.numpy() for snap in RecordingMJWarpManager.snapshots[name]])


def _angle(body_q: np.ndarray) -> float:
    """Hinge angle [rad] about +y from a body pose (x, y, z, qx, qy, qz, qw)."""
    return 2.0 * math.atan2(body_q[4], body_q[6])


def test_every_substep_kind_written_each_substep_final_kind_on_last_only(make_sim):
    """BODY_QDD (every substep) reaches all 4 substeps through one subset; BODY_PARENT_F only the last."""
    sim, _ = _pendulum_sim(make_sim)
    NewtonManager.request_observables({"body_qdd"}, every_substep=True)
    NewtonManager.request_observables({"body_parent_f"})
    sim.reset()
    sim.step(render=False)
    full = NewtonManager.get_observables()
    calls = RecordingMJWarpManager.calls
    assert calls and len(calls) % NUM_SUBSTEPS == 0
    early = calls[0]
    assert early is not full and early.kinds == {"body_qdd"} and early.body_parent_f is None
    assert early.body_qdd is full.body_qdd, "the subset must share the container's arrays"
    for i, passed in enumerate(calls):
        assert passed is (full if i % NUM_SUBSTEPS == NUM_SUBSTEPS - 1 else early)
    assert full.kinds == {"body_qdd", "body_parent_f"}


def test_schedule_values_follow_each_substep(make_sim):
    """Per-substep snapshots: BODY_QDD matches each substep's pendulum dynamics; BODY_PARENT_F changes only last."""
    sim, bob = _pendulum_sim(make_sim)
    NewtonManager.request_observables({"body_qdd"}, every_substep=True)
    NewtonManager.request_observables({"body_parent_f"})
    sim.reset()
    model = NewtonManager.get_model()
    mass = float(model.body_mass.numpy()[bob])
    inertia_pivot = float(model.body_inertia.numpy()[bob][1, 1]) + mass * ARM_LENGTH**2

    sim.step(render=False)
    qdd, parent_f, body_q = _snapshots("body_qdd"), _snapshots("body_parent_f"), _snapshots("body_q")
    angles_in = [RELEASE_ANGLE] + [_angle(body_q[k, bob]) for k in range(NUM_SUBSTEPS - 1)]
    for k, angle in enumerate(angles_in):
        expected = -mass * GRAVITY * ARM_LENGTH * math.sin(angle) / inertia_pivot
        assert qdd[k, bob, 4] == pytest.approx(expected, rel=0.02), f"substep {k}"
    assert len({round(float(qdd[k, bob, 4]), 6) for k in range(NUM_SUBSTEPS)}) == NUM_SUBSTEPS
    np.testing.assert_array_equal(parent_f[: NUM_SUBSTEPS - 1], 0.0)  # never written before the last substep
    last_f = parent_f[-1, bob, :3]
    np.testing.assert_allclose(last_f, mass * (qdd[-1, bob, :3] - [0.0, 0.0, -GRAVITY]), rtol=0.01, atol=1e-3)

    sim.step(render=False)
    parent_f_2 = _snapshots("body_parent_f")
    for k in range(NUM_SUBSTEPS - 1):
        np.testing.assert_array_equal(parent_f_2[k], parent_f[-1])  # still the previous step's value
    assert not np.allclose(parent_f_2[-1], parent_f[-1])


def test_final_only_request_passes_none_on_earlier_substeps(make_sim):
    """With only final-substep kinds (from NewtonCfg.observables), earlier substeps get observables=None."""
    sim, _ = _pendulum_sim(make_sim, observables=("body_parent_f",))
    sim.reset()
    sim.step(render=False)
    full = NewtonManager.get_observables()
    assert full.kinds == {"body_parent_f"}
    calls = RecordingMJWarpManager.calls
    assert calls and len(calls) % NUM_SUBSTEPS == 0
    for i, passed in enumerate(calls):
        assert passed is (full if i % NUM_SUBSTEPS == NUM_SUBSTEPS - 1 else None)


def test_rne_pass_runs_only_on_substeps_that_request_body_observables(make_sim, rne_passes):
    """With BODY_PARENT_F on the last substep only, MuJoCo Warp's post-constraint RNE runs once per physics step."""
    sim, _ = _pendulum_sim(make_sim, observables=("body_parent_f",), use_cuda_graph=False, use_cpu_graph=False)
    sim.reset()
    rne_passes.clear()
    for _ in range(3):
        sim.step(render=False)
    assert len(RecordingMJWarpManager.calls) == 3 * NUM_SUBSTEPS
    assert len(rne_passes) == 3, f"{len(rne_passes)} RNE passes in 3 physics steps of {NUM_SUBSTEPS} substeps"
