"""Non-finite worlds are flagged on the device after each step, reported at the log cadence, cleared by resets."""

from __future__ import annotations

import logging

import newton
import numpy as np
import pytest
import warp as wp
from conftest import cpu_only

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonManager, XPBDSolverCfg

NUM_WORLDS = 3


def _boxes_in_worlds() -> None:
    """One free 8 kg box per world resting 0.3 m above a shared ground plane."""
    box = newton.ModelBuilder()
    body = box.add_body(xform=wp.transform((0.0, 0.0, 0.3), wp.quat_identity()), label="box")
    box.add_shape_box(body, hx=0.1, hy=0.1, hz=0.1)
    builder = NewtonManager.create_builder()
    builder.add_ground_plane()
    builder.replicate(box, NUM_WORLDS)


def _spin_world(world: int, speed: float) -> None:
    """Set the free-joint linear velocity [m/s] of ``world``'s box (joint state and body twist), finite."""
    state = NewtonManager.get_state_0()
    qd = state.joint_qd.numpy()
    qd[world * 6] = speed
    state.joint_qd.assign(qd)
    body_qd = state.body_qd.numpy()
    body_qd[world, 0] = speed
    state.body_qd.assign(body_qd)


def _poison_world(world: int) -> None:
    """Write NaN into the free-joint velocity of ``world``'s box (joint state and body twist)."""
    state = NewtonManager.get_state_0()
    qd = state.joint_qd.numpy()
    qd[world * 6] = np.nan
    state.joint_qd.assign(qd)
    body_qd = state.body_qd.numpy()
    body_qd[world, 0] = np.nan
    state.body_qd.assign(body_qd)


@pytest.mark.parametrize(("solver", "cpu_graph"), [(MJWarpSolverCfg(), False), (MJWarpSolverCfg(), True)])
def test_poisoned_world_flagged_others_not(make_sim, solver, cpu_graph):
    """After a step, only the world holding NaN is flagged (eager and replayed CPU graph alike)."""
    sim = make_sim(solver.copy(), use_cpu_graph=cpu_graph)
    _boxes_in_worlds()
    sim.reset()
    sim.step(render=False)
    assert not NewtonManager.get_nonfinite_worlds().numpy().any()
    _poison_world(1)
    sim.step(render=False)
    on_cuda = wp.get_device(NewtonManager.get_device()).is_cuda
    assert NewtonManager.uses_graph() is (cpu_graph or on_cuda), "CUDA steps replay a CUDA graph either way"
    assert NewtonManager.get_nonfinite_worlds().numpy().tolist() == [False, True, False]


def test_runaway_world_flagged_at_the_speed_limit(make_sim):
    """A box moving at 1e6 m/s (finite, far past NewtonCfg.nonfinite_speed_limit = 1e4) flags its world; one at
    10 m/s does not."""
    sim = make_sim(MJWarpSolverCfg())
    _boxes_in_worlds()
    sim.reset()
    _spin_world(0, 10.0)
    _spin_world(2, 1.0e6)
    sim.step(render=False)
    assert np.isfinite(NewtonManager.get_state_0().body_qd.numpy()).all()
    assert NewtonManager.get_nonfinite_worlds().numpy().tolist() == [False, False, True]


def test_world_reset_clears_flag_and_state(make_sim):
    """request_world_reset([1]) + forward() restores world 1 to finite defaults and clears its flag."""
    sim = make_sim(MJWarpSolverCfg())
    _boxes_in_worlds()
    sim.reset()
    _poison_world(1)
    sim.step(render=False)
    NewtonManager.request_world_reset([1])
    NewtonManager.forward()
    assert not NewtonManager.get_nonfinite_worlds().numpy().any()
    sim.step(render=False)
    assert not NewtonManager.get_nonfinite_worlds().numpy().any()
    assert np.isfinite(NewtonManager.get_state_0().body_q.numpy()).all()


@cpu_only("CUDA hands the interval's flags to the host without waiting: test_cuda_warning_arrives_without_waiting")
def test_warning_logged_once_per_interval(make_sim, caplog):
    """With nonfinite_log_interval=4, a world NaN for 8 steps gives exactly 2 warnings naming 1 world and id 2."""
    sim = make_sim(XPBDSolverCfg(), nonfinite_log_interval=4)
    _boxes_in_worlds()
    sim.reset()
    _poison_world(2)
    with caplog.at_level(logging.WARNING, logger="isaaclab_newton.physics.world_health"):
        for _ in range(8):
            sim.step(render=False)
    warnings = [r.getMessage() for r in caplog.records if "non-finite" in r.getMessage()]
    assert len(warnings) == 2
    assert "1 world(s)" in warnings[0] and "[2]" in warnings[0]


@cpu_only("CUDA hands the interval's flags to the host without waiting: test_cuda_warning_arrives_without_waiting")
def test_warning_reports_world_reset_before_the_read(make_sim, caplog):
    """A world flagged and reset between two host reads is still reported at the next read."""
    sim = make_sim(MJWarpSolverCfg(), nonfinite_log_interval=3)
    _boxes_in_worlds()
    sim.reset()
    _poison_world(0)
    with caplog.at_level(logging.WARNING, logger="isaaclab_newton.physics.world_health"):
        sim.step(render=False)
        NewtonManager.request_world_reset([0])
        NewtonManager.forward()
        sim.step(render=False)
        sim.step(render=False)
    assert any("1 world(s)" in r.getMessage() and "[0]" in r.getMessage() for r in caplog.records)


@pytest.mark.skipif(not wp.is_cuda_available(), reason="the asynchronous host copy is CUDA-only")
def test_cuda_warning_arrives_without_waiting(make_sim, caplog):
    """On CUDA the interval's copy is reported on a later step, once landed, with the flagged world's id."""
    sim = make_sim(MJWarpSolverCfg(), device="cuda:0", nonfinite_log_interval=2)
    _boxes_in_worlds()
    sim.reset()
    _poison_world(1)
    with caplog.at_level(logging.WARNING, logger="isaaclab_newton.physics.world_health"):
        sim.step(render=False)
        sim.step(render=False)  # copy issued here
        wp.synchronize_device("cuda:0")
        sim.step(render=False)  # landed: reported here
    warnings = [r.getMessage() for r in caplog.records if "non-finite" in r.getMessage()]
    assert len(warnings) == 1 and "1 world(s)" in warnings[0] and "[1]" in warnings[0]
