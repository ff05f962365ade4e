"""The mask reset replayed from a CUDA graph: same result as core's index reset, on the mask of each step."""

from __future__ import annotations

import pytest
import torch

from .conftest import DIRECT_TASKS, FIXED_RESET, _assert_same, _close, _drive, _make_env, _mark_done, _snapshot

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA graphs need a CUDA device")


@pytest.mark.parametrize("task", DIRECT_TASKS)
def test_graph_reset_matches_index_reset(task):
    """Eager warm-up, recording and replays of the mask reset all leave what core's index reset leaves."""
    from isaaclab_contrib.envs.mask_reset import MaskResetMixin

    results = []
    for path in ("index", "graph"):
        env = _make_env(task, 4, device="cuda:0", **FIXED_RESET[task])
        env.capture_env_step = False  # the reset's own graph is used only where whole steps are not replayed
        try:
            _drive(env, 6)
            before = _snapshot(env)
            _mark_done(env)
            if path == "index":
                super(MaskResetMixin, env)._reset_envs_from_buffer()  # private: core's reset hook under test
            else:
                # fixed sampling ranges make the reset idempotent: warm-up, record + replay, replay
                for _ in range(3):
                    assert env._reset_envs_from_buffer() is None  # private: core's reset hook under test
                # private: the recorded reset graph under test
                assert env._reset_graph is not None, "the third mask reset must replay a recorded graph"
            results.append((before, _snapshot(env)))
        finally:
            _close(env)
    (before_index, after_index), (before_graph, after_graph) = results
    _assert_same(before_index, before_graph)
    assert not torch.equal(before_index["state.joint_q"], after_index["state.joint_q"]), "the reset must change state"
    _assert_same(after_index, after_graph)


@pytest.mark.parametrize("task", DIRECT_TASKS)
def test_graph_reset_follows_the_mask_of_each_step(task):
    """A graph recorded for one set of done envs resets exactly the envs done on a later step, keeping the rest."""
    env = _make_env(task, 8, device="cuda:0")
    env.capture_env_step = False
    try:
        _drive(env, 4)
        env.reset_buf = torch.tensor([True, False] * 4, device=env.device)
        for _ in range(2):
            env._reset_envs_from_buffer()  # private: core's reset hook under test
        assert env._reset_graph is not None  # private: the recorded reset graph under test
        _drive(env, 3)
        before = _snapshot(env)
        mask = torch.tensor([False] * 5 + [True] * 3, device=env.device)
        env.reset_buf = mask.clone()
        env._reset_envs_from_buffer()  # private: core's reset hook under test
        after = _snapshot(env)
        for name in ("joint_pos", "joint_vel", "root_pose_w", "body_link_pose_w", "obs"):
            assert torch.equal(after[name][~mask], before[name][~mask]), f"{name} of a kept env changed"
        for name in ("joint_pos", "joint_vel"):
            assert not torch.equal(after[name][mask], before[name][mask]), f"{name} of a reset env is unchanged"
        assert (after["episode_length_buf"][mask] == 0).all()
        assert torch.equal(after["episode_length_buf"][~mask], before["episode_length_buf"][~mask])
    finally:
        _close(env)
