"""State-write kernels: each writes exactly the selected entries (index or mask selection) and nothing else."""

from __future__ import annotations

import math

import numpy as np
import torch
import warp as wp
from conftest import TEST_DEVICE

from isaaclab_newton.assets.state_writes import (
    EntryTable,
    RootJoints,
    clear_rows,
    write_joint_values,
    write_root_pose,
    write_root_twist,
)

# 3 envs x 2 joints, entries interleaved in a 6-long state array
INDICES = torch.tensor([[0, 3], [1, 4], [2, 5]], device=TEST_DEVICE)


def test_joint_index_write_touches_only_the_selected_entries():
    """Rows (2, 0) and column 1 of an index write land at their table entries; the other entries keep their values."""
    table = EntryTable.from_indices(INDICES)
    target = wp.array(np.full(6, -1.0, dtype=np.float32), device=TEST_DEVICE)
    value = torch.tensor([[7.0], [9.0]], device=TEST_DEVICE)
    write_joint_values(
        table, value, target, rows=torch.tensor([2, 0], device=TEST_DEVICE), cols=torch.tensor([1], device=TEST_DEVICE)
    )
    assert target.numpy().tolist() == [-1.0, -1.0, -1.0, 9.0, -1.0, 7.0]


def test_joint_mask_write_touches_only_masked_rows_and_columns():
    """A full-sized mask write with an env mask and a joint mask writes their intersection only."""
    table = EntryTable.from_indices(INDICES)
    target = wp.zeros(6, dtype=wp.float32, device=TEST_DEVICE)
    value = torch.arange(1.0, 7.0, device=TEST_DEVICE).reshape(3, 2)
    write_joint_values(
        table,
        value,
        target,
        row_mask=torch.tensor([True, False, True], device=TEST_DEVICE),
        col_mask=torch.tensor([False, True], device=TEST_DEVICE),
    )
    assert target.numpy().tolist() == [0.0, 0.0, 0.0, 2.0, 0.0, 6.0]


def test_clear_rows_zeroes_the_bodies_of_masked_envs():
    """Clearing by mask zeroes every body wrench of the masked envs and keeps the others."""
    table = EntryTable.from_indices(INDICES)
    wrench = wp.array(np.ones((6, 6), dtype=np.float32), dtype=wp.spatial_vectorf, device=TEST_DEVICE)
    clear_rows(table, wrench, rows=None, mask=torch.tensor([False, True, False], device=TEST_DEVICE))
    zeroed = np.abs(wrench.numpy()).sum(axis=1) == 0.0
    assert zeroed.tolist() == [False, True, False, False, True, False]


def _roots() -> RootJoints:
    # env 0 -> joint 0 (coords 0..6, dofs 0..5), env 1 -> joint 1 (coords 7..13, dofs 6..11)
    return RootJoints.from_binding(
        torch.tensor([0, 1], device=TEST_DEVICE),
        torch.tensor([0, 7], device=TEST_DEVICE),
        torch.tensor([0, 6], device=TEST_DEVICE),
    )


def _transforms(*poses) -> wp.array:
    return wp.array([wp.transform(*p) for p in poses], dtype=wp.transformf, device=TEST_DEVICE)


def test_free_root_pose_becomes_joint_coordinates_in_the_parent_frame():
    """A free root joint whose parent frame is shifted 1 m up stores the body pose less that shift (index write)."""
    identity = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    x_p = _transforms(((0.0, 0.0, 1.0), (0.0, 0.0, 0.0, 1.0)), identity)
    x_c = _transforms(identity, identity)
    joint_q = wp.zeros(14, dtype=wp.float32, device=TEST_DEVICE)
    half = 0.25 * math.pi
    pose = torch.tensor([[0.5, -0.2, 3.0, 0.0, 0.0, math.sin(half), math.cos(half)]], device=TEST_DEVICE)
    write_root_pose(
        _roots(),
        pose,
        torch.tensor([0], device=TEST_DEVICE),
        None,
        fixed=False,
        joint_X_c=x_c,
        joint_X_p=x_p,
        joint_q=joint_q,
    )
    expected = [0.5, -0.2, 2.0, 0.0, 0.0, math.sin(half), math.cos(half)] + [0.0] * 7
    np.testing.assert_allclose(joint_q.numpy(), expected, atol=1e-6)


def test_fixed_root_pose_moves_the_parent_frame_of_masked_envs_only():
    """A fixed root joint of a masked env gets parent frame = pose * child frame; the unmasked env keeps its own."""
    x_p = _transforms(((9.0, 9.0, 9.0), (0.0, 0.0, 0.0, 1.0)), ((8.0, 8.0, 8.0), (0.0, 0.0, 0.0, 1.0)))
    x_c = _transforms(((0.0, 0.0, 0.5), (0.0, 0.0, 0.0, 1.0)), ((0.0, 0.0, 0.5), (0.0, 0.0, 0.0, 1.0)))
    pose = torch.tensor([[1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0], [4.0, 5.0, 6.0, 0.0, 0.0, 0.0, 1.0]], device=TEST_DEVICE)
    joint_q = wp.zeros(14, dtype=wp.float32, device=TEST_DEVICE)
    mask = torch.tensor([False, True], device=TEST_DEVICE)
    write_root_pose(
        _roots(),
        pose,
        torch.arange(2, device=TEST_DEVICE),
        mask,
        fixed=True,
        joint_X_c=x_c,
        joint_X_p=x_p,
        joint_q=joint_q,
    )
    np.testing.assert_allclose(x_p.numpy()[:, :3], [[9.0, 9.0, 9.0], [4.0, 5.0, 6.5]], atol=1e-6)


def test_root_twist_is_rotated_into_the_parent_frame():
    """A world twist of a free root under a parent frame yawed 90 degrees is stored rotated by -90 degrees."""
    half = 0.25 * math.pi
    yawed = ((0.0, 0.0, 0.0), (0.0, 0.0, math.sin(half), math.cos(half)))
    x_p = _transforms(yawed, yawed)
    joint_qd = wp.zeros(12, dtype=wp.float32, device=TEST_DEVICE)
    twist = torch.tensor([[1.0, 0.0, 0.0, 0.0, 2.0, 0.0]], device=TEST_DEVICE)
    write_root_twist(_roots(), twist, torch.tensor([1], device=TEST_DEVICE), None, joint_X_p=x_p, joint_qd=joint_qd)
    np.testing.assert_allclose(joint_qd.numpy()[6:], [0.0, -1.0, 0.0, 2.0, 0.0, 0.0], atol=1e-6)
    assert not joint_qd.numpy()[:6].any()
