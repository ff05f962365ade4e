"""Mask form of core's velocity command: resampling on time-out and episode resets against core's index path."""

from __future__ import annotations

import copy
import math
from types import SimpleNamespace

import pytest
import torch
from conftest import TEST_DEVICE

NUM_ENVS = 6
DT = 0.02


def _velocity_command(**cfg_fields):
    """Core's UniformVelocityCommand on a stand-in env with a robot whose base moves at 0.3 m/s along x."""
    from isaaclab.envs.mdp import UniformVelocityCommand, UniformVelocityCommandCfg

    ranges = UniformVelocityCommandCfg.Ranges(
        lin_vel_x=(-1.0, 1.0), lin_vel_y=(-0.5, 0.5), ang_vel_z=(-1.0, 1.0), heading=(-math.pi, math.pi)
    )
    fields = {"heading_command": True, "rel_heading_envs": 0.5, "rel_standing_envs": 0.0, "debug_vis": False}
    cfg = UniformVelocityCommandCfg(
        asset_name="robot", resampling_time_range=(10.0, 10.0), ranges=ranges, **(fields | cfg_fields)
    )
    lin_vel = torch.tensor([[0.3, 0.0, 0.0]], device=TEST_DEVICE).repeat(NUM_ENVS, 1)
    data = SimpleNamespace(
        root_lin_vel_b=SimpleNamespace(torch=lin_vel),
        root_ang_vel_b=SimpleNamespace(torch=torch.zeros(NUM_ENVS, 3, device=TEST_DEVICE)),
        heading_w=SimpleNamespace(torch=torch.zeros(NUM_ENVS, device=TEST_DEVICE)),
    )
    registry = SimpleNamespace(clear_debug_vis_callback=lambda term: None)
    env = SimpleNamespace(
        num_envs=NUM_ENVS,
        device=TEST_DEVICE,
        scene={"robot": SimpleNamespace(data=data)},
        sim=SimpleNamespace(vis_marker_registry=registry),
        extras={},
    )
    return UniformVelocityCommand(cfg, env)


def _pair(**cfg_fields):
    """Two equal velocity commands (one for core's path, one for the mask form) with envs 1 and 4 nearly due."""
    from isaaclab_contrib.envs.mask_commands import command_mask_form

    core = _velocity_command(**cfg_fields)
    core.reset()
    core.time_left[:] = torch.tensor([5.0, 0.01, 5.0, 5.0, 0.015, 5.0], device=TEST_DEVICE)
    masked = copy.copy(core)
    for name, value in vars(core).items():
        if isinstance(value, torch.Tensor):
            setattr(masked, name, value.clone())
    masked.metrics = {name: value.clone() for name, value in core.metrics.items()}
    return core, command_mask_form(masked)(masked)


def test_time_out_resamples_exactly_the_due_envs():
    """One step resamples the envs whose time ran out, as core does: same counters, times and unchanged others."""
    core, form = _pair()
    before = form.term.vel_command_b.clone()
    core.compute(DT)
    form.compute(DT)
    masked = form.term
    assert torch.equal(masked.command_counter, core.command_counter)
    assert masked.command_counter.tolist() == [1, 2, 1, 1, 2, 1]
    torch.testing.assert_close(masked.time_left, core.time_left)
    due = torch.tensor([False, True, False, False, True, False], device=TEST_DEVICE)
    kept = ~due & ~masked.is_heading_env  # heading envs recompute their yaw rate on every step
    assert torch.equal(masked.vel_command_b[kept], before[kept])
    assert (masked.vel_command_b[due, :2] != before[due, :2]).all()
    for column, (low, high) in enumerate([(-1.0, 1.0), (-0.5, 0.5), (-1.0, 1.0)]):
        values = masked.vel_command_b[due, column]
        assert ((values >= low) & (values <= high)).all()


def test_standing_envs_get_zero_commands():
    """With every env standing (rel_standing_envs = 1), a resampled env's command is zero after the step."""
    _, form = _pair(rel_standing_envs=1.0)
    form.compute(DT)
    due = torch.tensor([False, True, False, False, True, False], device=TEST_DEVICE)
    assert torch.equal(form.term.vel_command_b[due], torch.zeros(2, 3, device=TEST_DEVICE))


@pytest.mark.parametrize("steps", [1, 7])
def test_reset_logs_the_episode_metrics_as_core_does(steps):
    """Resetting envs 0, 2 and 3 logs core's means of their tracking errors and success, and clears their sums."""
    core, form = _pair()
    for _ in range(steps):
        core._update_metrics()  # private: the command metrics hook under test
        form.term._update_metrics()  # private: the command metrics hook under test
    env_ids = torch.tensor([0, 2, 3], device=TEST_DEVICE)
    mask = torch.zeros(NUM_ENVS, dtype=torch.bool, device=TEST_DEVICE)
    mask[env_ids] = True
    logged = core.reset(env_ids)
    form.reset(mask)
    for name, value in logged.items():
        torch.testing.assert_close(form.log[name], value, msg=name)
    # private: the core term's env, no public read
    torch.testing.assert_close(form.env_log["Metrics/success_rate"], core._env.extras["log"]["Metrics/success_rate"])
    for name in ("_error_xy_sum", "_error_yaw_sum", "_step_count", "command_counter"):
        torch.testing.assert_close(getattr(form.term, name), getattr(core, name), msg=name)


def test_reset_without_envs_keeps_the_last_log():
    """A reset of no env leaves the logged means as they were (core logs nothing on such steps)."""
    _, form = _pair()
    form.term._update_metrics()  # private: the command metrics hook under test
    form.reset(torch.tensor([True] * NUM_ENVS, device=TEST_DEVICE))
    logged = {name: value.clone() for name, value in form.log.items()}
    form.reset(torch.zeros(NUM_ENVS, dtype=torch.bool, device=TEST_DEVICE))
    for name, value in logged.items():
        assert torch.equal(form.log[name], value), name
