"""Interval events on device timers against core's event manager: the same envs fire, timers restart alike."""

from __future__ import annotations

from types import SimpleNamespace

import torch
from conftest import TEST_DEVICE

NUM_ENVS = 6
DT = 0.02
INTERVAL_S = (0.5, 0.5)  # one value: both paths draw the same next interval


def _manager(fired: list):
    """Core's event manager holding one per-env interval term that records the envs it is applied to."""
    from isaaclab.managers import EventManager, EventTermCfg

    def kick(env, env_ids):
        fired.append(sorted(env_ids.tolist()))

    def kick_mask(env, env_mask):
        fired.append(env_mask.nonzero().flatten().tolist())

    kick.mask_form = kick_mask
    term = EventTermCfg(func=kick, mode="interval", interval_range_s=INTERVAL_S, params={})
    manager = EventManager.__new__(EventManager)
    env = SimpleNamespace(num_envs=NUM_ENVS, device=TEST_DEVICE, event_manager=manager)
    manager._env = env  # private: a bare core event manager
    manager._mode_term_names = {"interval": ["kick"]}  # private: a bare core event manager
    manager._mode_term_cfgs = {"interval": [term]}  # private: a bare core event manager
    manager._mode_class_term_cfgs = {"interval": []}  # private: a bare core event manager
    manager._is_scene_entities_resolved = True  # private: a bare core event manager
    # private: a bare core event manager
    manager._resolve_terms_handle = None  # no physics callback: deleting the manager deregisters nothing
    # private: core's interval timers, no public read
    manager._interval_term_time_left = [torch.tensor([0.01, 0.03, 0.05, 0.0, 1.0, 0.019], device=TEST_DEVICE)]
    return env, manager


def test_timers_fire_the_same_envs_as_core():
    """Three steps of 20 ms fire envs 0, 3, 5, then 1, then 2 on both paths, and leave equal timers."""
    from isaaclab_contrib.envs.mask_intervals import apply_interval_events_mask

    core_fired, mask_fired = [], []
    _, core = _manager(core_fired)
    env, _ = _manager(mask_fired)
    for _ in range(3):
        core.apply(mode="interval", dt=DT)
        apply_interval_events_mask(env, DT)
    assert core_fired == [[0, 3, 5], [1], [2]]
    assert [ids for ids in mask_fired if ids] == core_fired
    # private: core's interval timers, no public read
    torch.testing.assert_close(env.event_manager._interval_term_time_left[0], core._interval_term_time_left[0])


def test_reset_restarts_the_timers_of_the_masked_envs_only():
    """A reset by mask draws a new interval for envs 1 and 4 and keeps the other timers."""
    from isaaclab_contrib.envs.mask_intervals import reset_event_manager_mask

    env, manager = _manager([])
    before = manager._interval_term_time_left[0].clone()  # private: core's interval timers, no public read
    mask = torch.tensor([False, True, False, False, True, False], device=TEST_DEVICE)
    reset_event_manager_mask(env, mask)
    after = manager._interval_term_time_left[0]  # private: core's interval timers, no public read
    assert torch.equal(after[~mask], before[~mask])
    assert (after[mask] == INTERVAL_S[0]).all()


def test_global_time_interval_event_is_named():
    """A global-time interval event (one host timer) keeps the env on core's path, named in the reason."""
    from isaaclab_contrib.envs.mask_intervals import event_terms_mask_reason

    _, manager = _manager([])
    manager._mode_term_cfgs["interval"][0].is_global_time = True  # private: a bare core event manager
    reason = event_terms_mask_reason(manager)
    assert reason is not None and "'kick'" in reason and "global-time" in reason
