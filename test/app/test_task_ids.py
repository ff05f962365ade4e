"""One rule for every task id: ours, upstream's, or unknown with the closest ids named."""

from __future__ import annotations

import pytest

from isaaclab_contrib.app.task_ids import UnknownTaskError, is_upstream, our_task_ids


def test_our_versioned_id_is_ours():
    """Isaac-Cartpole-Direct-v0 is registered by isaaclab_contrib.tasks."""
    assert "Isaac-Cartpole-Direct-v0" in our_task_ids() and not is_upstream("Isaac-Cartpole-Direct-v0")


def test_upstream_id_is_read_from_isaaclab_tasks_sources():
    """Isaac-Cartpole-Camera-Direct is upstream's, found without importing isaaclab_tasks."""
    assert is_upstream("Isaac-Cartpole-Camera-Direct")


def test_unknown_id_names_the_closest_ids():
    """A misspelt id is refused with the nearest ours and upstream ids."""
    with pytest.raises(UnknownTaskError, match=r"did you mean 'Isaac-Ant-Direct-v0'"):
        is_upstream("Isaac-Ant-Direkt-v0")


def test_unknown_id_with_nothing_close_points_at_list_envs():
    """An id like no other still says where the ids are listed."""
    with pytest.raises(UnknownTaskError, match=r"list_envs.py lists every id"):
        is_upstream("Nope")
