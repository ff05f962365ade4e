"""Mask form of core's pose command: resampling only the masked envs, inside the ranges, and the success log."""

from __future__ import annotations

import math
from types import SimpleNamespace

import torch
from conftest import TEST_DEVICE

NUM_ENVS = 6


def _pose_command(**cfg_fields):
    """Core's UniformPoseCommand on a stand-in env whose robot holds its one body at (0.5, 0, 0.3) m, unrotated."""
    from isaaclab.envs.mdp import UniformPoseCommand, UniformPoseCommandCfg

    ranges = UniformPoseCommandCfg.Ranges(
        pos_x=(0.35, 0.65),
        pos_y=(-0.2, 0.2),
        pos_z=(0.15, 0.5),
        roll=(0.0, 0.0),
        pitch=(math.pi, math.pi),
        yaw=(-3.0, 3.0),
    )
    cfg = UniformPoseCommandCfg(
        asset_name="robot", body_name="hand", resampling_time_range=(4.0, 4.0), ranges=ranges, debug_vis=False
    )
    for name, value in cfg_fields.items():
        setattr(cfg, name, value)

    identity = torch.tensor([0.0, 0.0, 0.0, 1.0], device=TEST_DEVICE)
    data = SimpleNamespace(
        root_pos_w=SimpleNamespace(torch=torch.zeros(NUM_ENVS, 3, device=TEST_DEVICE)),
        root_quat_w=SimpleNamespace(torch=identity.repeat(NUM_ENVS, 1)),
        body_pos_w=SimpleNamespace(torch=torch.tensor([[[0.5, 0.0, 0.3]]], device=TEST_DEVICE).repeat(NUM_ENVS, 1, 1)),
        body_quat_w=SimpleNamespace(torch=identity.repeat(NUM_ENVS, 1, 1)),
    )
    robot = SimpleNamespace(data=data, find_bodies=lambda name: ([0], ["hand"]))
    registry = SimpleNamespace(clear_debug_vis_callback=lambda term: None)
    env = SimpleNamespace(
        num_envs=NUM_ENVS,
        device=TEST_DEVICE,
        scene={"robot": robot},
        sim=SimpleNamespace(vis_marker_registry=registry),
        extras={},
    )
    return UniformPoseCommand(cfg, env)


def test_resample_draws_only_masked_envs_within_ranges():
    """Envs set in the mask get new poses inside the position box with unit quaternions pointing the body's z axis
    down (pitch pi); the others keep theirs."""
    from isaaclab.utils.math import quat_apply

    from isaaclab_contrib.envs.mask_commands import UniformPoseCommandMask, command_mask_form

    term = _pose_command()
    form = command_mask_form(term)(term)
    assert isinstance(form, UniformPoseCommandMask)
    before = term.pose_command_b.clone()
    mask = torch.tensor([True, False, True, False, False, True], device=TEST_DEVICE)
    form.resample(mask)
    after = term.pose_command_b
    assert torch.equal(after[~mask], before[~mask])
    position = after[mask, :3]
    low = torch.tensor([0.35, -0.2, 0.15], device=TEST_DEVICE)
    high = torch.tensor([0.65, 0.2, 0.5], device=TEST_DEVICE)
    assert ((position >= low) & (position <= high)).all()
    quat = after[mask, 3:]
    assert torch.allclose(torch.linalg.norm(quat, dim=1), torch.ones(3, device=TEST_DEVICE), atol=1e-5)
    z_axis = quat_apply(quat, torch.tensor([[0.0, 0.0, 1.0]], device=TEST_DEVICE).repeat(3, 1))
    assert torch.allclose(z_axis[:, 2], -torch.ones(3, device=TEST_DEVICE), atol=1e-5)


def test_reset_logs_success_rate_of_masked_envs_and_clears_it():
    """With a position threshold, the sticky success of the reset envs is logged as their mean and cleared."""
    from isaaclab_contrib.envs.mask_commands import command_mask_form

    term = _pose_command(position_success_threshold=0.05)
    form = command_mask_form(term)(term)
    term._succeeded.copy_(torch.tensor([True, True, False, True, False, False], device=TEST_DEVICE))
    mask = torch.tensor([True, False, True, True, False, False], device=TEST_DEVICE)
    form.reset(mask)
    assert math.isclose(form.env_log["Metrics/success_rate"].item(), 2.0 / 3.0, rel_tol=1e-6)
    assert torch.equal(term._succeeded.cpu(), torch.tensor([False, True, False, False, False, False]))


def test_compute_keeps_the_metric_tensors_a_recorded_step_reads():
    """Core's pose command assigns new metric tensors each update; after compute the term's metrics are its original
    tensors again (the addresses a recorded step logs from) holding the new errors, and a reset logs their mean."""
    from isaaclab_contrib.envs.mask_commands import command_mask_form

    term = _pose_command()
    form = command_mask_form(term)(term)
    form.resample(torch.ones(NUM_ENVS, dtype=torch.bool, device=TEST_DEVICE))
    term._update_command()
    original = dict(term.metrics)
    hand = torch.tensor([0.5, 0.0, 0.3], device=TEST_DEVICE)
    expected = torch.linalg.norm(term.pose_command_b[:, :3] - hand, dim=1)  # the commands the update measures
    form.compute(dt=0.02)
    assert all(term.metrics[name] is tensor for name, tensor in original.items())
    torch.testing.assert_close(term.metrics["position_error"], expected)
    form.reset(torch.ones(NUM_ENVS, dtype=torch.bool, device=TEST_DEVICE))
    assert math.isclose(form.log["position_error"].item(), expected.mean().item(), rel_tol=1e-5)
