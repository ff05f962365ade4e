"""Episode logs of the manager-based mask reset: core's reward and termination values, sums cleared, values kept."""

from __future__ import annotations

import pytest
import torch

from isaaclab_contrib.envs.episode_log import MaskedEpisodeLog

NUM_ENVS = 600  # more envs than a CUDA block has threads: each thread sums several
EPISODE_S = 5.0
DEVICES = [
    "cpu",
    pytest.param("cuda:0", marks=pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")),
]


def _inputs(device: str, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    mask = torch.rand(NUM_ENVS, generator=generator) < 0.3
    sums = torch.rand((NUM_ENVS, 3), generator=generator) * 4.0 - 1.0
    dones = torch.rand((NUM_ENVS, 2), generator=generator) < 0.4
    return mask.to(device), sums.to(device), dones.to(device)


def _log(device: str) -> MaskedEpisodeLog:
    return MaskedEpisodeLog(["alive", "pole_pos", "cart_vel"], ["time_out", "out_of_bounds"], device)


@pytest.mark.parametrize("device", DEVICES)
def test_log_is_cores_episode_values_of_the_masked_envs(device):
    """Episode_Reward is the reset envs' mean episode sum per second; Episode_Termination the envs' done share."""
    mask, sums, dones = _inputs(device)
    want_reward = sums[mask].mean(dim=0) / EPISODE_S
    want_done = dones.float().mean(dim=0)
    log = _log(device)
    log.update(mask, sums, dones, EPISODE_S)
    got = log.views
    for i, name in enumerate(["alive", "pole_pos", "cart_vel"]):
        torch.testing.assert_close(got[f"Episode_Reward/{name}"], want_reward[i], atol=1e-6, rtol=1e-6)
    for i, name in enumerate(["time_out", "out_of_bounds"]):
        torch.testing.assert_close(got[f"Episode_Termination/{name}"], want_done[i], atol=1e-6, rtol=1e-6)


@pytest.mark.parametrize("device", DEVICES)
def test_episode_sums_of_masked_envs_are_cleared_and_others_kept(device):
    """The update zeroes the episode sums of the masked envs only."""
    mask, sums, dones = _inputs(device)
    before = sums.clone()
    _log(device).update(mask, sums, dones, EPISODE_S)
    assert torch.equal(sums[mask], torch.zeros_like(sums[mask])) and torch.equal(sums[~mask], before[~mask])


@pytest.mark.parametrize("device", DEVICES)
def test_values_are_kept_when_no_env_resets(device):
    """An update with an empty mask leaves the logged values and the episode sums as they were."""
    mask, sums, dones = _inputs(device)
    log = _log(device)
    log.update(mask, sums, dones, EPISODE_S)
    logged = {name: value.clone() for name, value in log.views.items()}
    _, sums, dones = _inputs(device, seed=1)
    before = sums.clone()
    log.update(torch.zeros(NUM_ENVS, dtype=torch.bool, device=device), sums, dones, EPISODE_S)
    assert all(torch.equal(log.views[name], value) for name, value in logged.items())
    assert torch.equal(sums, before)


@pytest.mark.parametrize("device", DEVICES)
def test_log_views_are_updated_in_place(device):
    """The logged views stay the same tensors across updates (a recorded step rewrites them on replay)."""
    log = _log(device)
    views = dict(log.views)
    mask, sums, dones = _inputs(device)
    log.update(mask, sums, dones, EPISODE_S)
    assert all(log.views[name] is view for name, view in views.items())
    assert float(views["Episode_Termination/time_out"]) > 0.0
