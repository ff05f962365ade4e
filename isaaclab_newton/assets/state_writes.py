"""State writes of rigid-body assets (root pose, root twist, joint values) as one Warp kernel each.

Each write takes an index selection (env rows, and joint columns for joint values) or a mask selection (a bool
per env, and optionally per joint, over full-sized values) and touches only the selected entries. Given
:class:`FkMarks`, the same kernel queues the masked FK of the rows it wrote (no separate marking launch).

A root pose ``T_w`` (world frame, body frame origin) becomes the root joint's state: a fixed root joint gets the
parent frame ``X_p = T_w * X_c`` (the model changes), a free root joint gets the coordinates
``q = X_p^-1 * T_w * X_c`` (position [m], then the quaternion x, y, z, w). A root twist (world frame, linear
[m/s] then angular [rad/s]) of a free root becomes its joint velocities in the parent frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import warp as wp


@dataclass(frozen=True)
class RootJoints:
    """Per-env root joint indices of one asset, as int32 Warp arrays.

    Attributes:
        joint: Model joint index of each env's root joint.
        coord: First joint coordinate of each env's root joint.
        dof: First joint DOF of each env's root joint.
        all_rows: ``0 .. num_envs - 1`` (the rows of a mask write).
        no_mask: A one-entry bool array passed as the mask of index writes (not read).
    """

    joint: wp.array
    coord: wp.array
    dof: wp.array
    all_rows: wp.array
    no_mask: wp.array

    @staticmethod
    def from_binding(root_joint: torch.Tensor, root_coord: torch.Tensor, root_dof: torch.Tensor) -> RootJoints:
        """Build from the binding's per-env index tensors (any integer dtype, one device)."""
        device = root_joint.device

        def as_wp(t: torch.Tensor) -> wp.array:
            return wp.from_torch(t.to(torch.int32).contiguous(), dtype=wp.int32)

        rows = torch.arange(root_joint.shape[0], device=device)
        no_mask = wp.zeros(1, dtype=wp.bool, device=str(device))
        return RootJoints(as_wp(root_joint), as_wp(root_coord), as_wp(root_dof), as_wp(rows), no_mask)


@dataclass(frozen=True)
class FkMarks:
    """Where a write kernel queues the masked FK of the rows it writes (see :meth:`NewtonManager.queued_fk_mask`).

    Attributes:
        articulations: Model articulation index of each env row of the asset, int32 (num_envs,).
        mask: The manager's queued-FK mask over model articulations (bool); the kernel sets the written rows'.
    """

    articulations: wp.array
    mask: wp.array


@wp.func
def _mark_fk(articulations: wp.array(dtype=wp.int32), fk_mask: wp.array(dtype=wp.bool), use_fk: int, row: int):
    if use_fk != 0:
        a = articulations[row]
        if a < 0:  # as the manager's marks: -1 is the mask's last entry
            a = fk_mask.shape[0] - 1
        fk_mask[a] = True


@wp.kernel
def _write_root_pose(
    pose: wp.array2d(dtype=wp.float32),
    rows: wp.array(dtype=wp.int32),
    mask: wp.array(dtype=wp.bool),
    use_mask: int,
    fixed: int,
    root_joint: wp.array(dtype=wp.int32),
    root_coord: wp.array(dtype=wp.int32),
    joint_X_c: wp.array(dtype=wp.transformf),
    joint_X_p: wp.array(dtype=wp.transformf),
    joint_q: wp.array(dtype=wp.float32),
    fk_articulations: wp.array(dtype=wp.int32),
    fk_mask: wp.array(dtype=wp.bool),
    use_fk: int,
):
    i = wp.tid()
    if use_mask != 0:  # noqa: SIM102 - Warp does not short-circuit: mask may be the one-entry placeholder
        if not mask[i]:
            return
    row = rows[i]
    _mark_fk(fk_articulations, fk_mask, use_fk, row)
    j = root_joint[row]
    body = wp.transformf(
        wp.vec3f(pose[i, 0], pose[i, 1], pose[i, 2]), wp.quatf(pose[i, 3], pose[i, 4], pose[i, 5], pose[i, 6])
    )
    child = wp.transform_multiply(body, joint_X_c[j])
    if fixed != 0:
        joint_X_p[j] = child
        return
    local = wp.transform_multiply(wp.transform_inverse(joint_X_p[j]), child)
    p = wp.transform_get_translation(local)
    q = wp.transform_get_rotation(local)
    c = root_coord[row]
    for k in range(3):
        joint_q[c + k] = p[k]
    for k in range(4):
        joint_q[c + 3 + k] = q[k]


@wp.kernel
def _write_root_twist(
    twist: wp.array2d(dtype=wp.float32),
    rows: wp.array(dtype=wp.int32),
    mask: wp.array(dtype=wp.bool),
    use_mask: int,
    root_joint: wp.array(dtype=wp.int32),
    root_dof: wp.array(dtype=wp.int32),
    joint_X_p: wp.array(dtype=wp.transformf),
    joint_qd: wp.array(dtype=wp.float32),
    fk_articulations: wp.array(dtype=wp.int32),
    fk_mask: wp.array(dtype=wp.bool),
    use_fk: int,
):
    i = wp.tid()
    if use_mask != 0:  # noqa: SIM102 - Warp does not short-circuit: mask may be the one-entry placeholder
        if not mask[i]:
            return
    row = rows[i]
    _mark_fk(fk_articulations, fk_mask, use_fk, row)
    parent = wp.transform_get_rotation(joint_X_p[root_joint[row]])
    lin = wp.quat_rotate_inv(parent, wp.vec3f(twist[i, 0], twist[i, 1], twist[i, 2]))
    ang = wp.quat_rotate_inv(parent, wp.vec3f(twist[i, 3], twist[i, 4], twist[i, 5]))
    d = root_dof[row]
    for k in range(3):
        joint_qd[d + k] = lin[k]
        joint_qd[d + 3 + k] = ang[k]


@wp.kernel
def _write_joint_values(
    value: wp.array2d(dtype=wp.float32),
    indices: wp.array2d(dtype=wp.int32),
    rows: wp.array(dtype=wp.int32),
    cols: wp.array(dtype=wp.int32),
    row_mask: wp.array(dtype=wp.bool),
    col_mask: wp.array(dtype=wp.bool),
    use_row_mask: int,
    use_col_mask: int,
    target: wp.array(dtype=wp.float32),
    fk_articulations: wp.array(dtype=wp.int32),
    fk_mask: wp.array(dtype=wp.bool),
    use_fk: int,
):
    i, j = wp.tid()
    if use_row_mask != 0:  # noqa: SIM102 - Warp does not short-circuit: the mask may be the one-entry placeholder
        if not row_mask[i]:
            return
    if use_col_mask != 0:  # noqa: SIM102 - as above
        if not col_mask[j]:
            return
    target[indices[rows[i], cols[j]]] = value[i, j]
    _mark_fk(fk_articulations, fk_mask, use_fk, rows[i])  # every written joint of a row sets the same entry


@dataclass(frozen=True)
class EntryTable:
    """Per-env, per-column entry indices of one asset into a state array (joints into ``joint_q``/``joint_qd``,
    bodies into the body wrench buffer).

    Attributes:
        indices: Entry of column ``j`` of env ``i``, int32 (num_envs, num_columns).
        all_rows: ``0 .. num_envs - 1``.
        all_cols: ``0 .. num_columns - 1``.
        no_mask: A one-entry bool array passed as the mask of unmasked axes (not read).
    """

    indices: wp.array
    all_rows: wp.array
    all_cols: wp.array
    no_mask: wp.array

    @staticmethod
    def from_indices(indices: torch.Tensor) -> EntryTable:
        """Build from a (num_envs, num_columns) integer tensor of state entries."""
        device = indices.device
        rows = torch.arange(indices.shape[0], dtype=torch.int32, device=device)
        cols = torch.arange(indices.shape[1], dtype=torch.int32, device=device)
        return EntryTable(
            wp.from_torch(indices.to(torch.int32).contiguous(), dtype=wp.int32),
            wp.from_torch(rows, dtype=wp.int32),
            wp.from_torch(cols, dtype=wp.int32),
            wp.zeros(1, dtype=wp.bool, device=str(device)),
        )


def write_joint_values(
    table: EntryTable,
    value: torch.Tensor,
    target: wp.array,
    *,
    rows: torch.Tensor | None = None,
    cols: torch.Tensor | None = None,
    row_mask: torch.Tensor | None = None,
    col_mask: torch.Tensor | None = None,
    fk: FkMarks | None = None,
) -> None:
    """``target[table.indices[rows, cols]] = value`` for the selected envs and joints, FK queued for their rows.

    Args:
        table: The asset's entry table for ``target``.
        value: Values (len(rows), len(cols)), float32; full-sized (num_envs, num_joints) for mask writes.
        target: The state array written (``joint_q`` or ``joint_qd``).
        rows: Env rows of an index write (``None``: all rows).
        cols: Joint columns of an index write (``None``: all joints).
        row_mask: Bool per env of a mask write (``None``: every row written).
        col_mask: Bool per joint of a mask write (``None``: every joint written).
        fk: Where to queue the FK of the written rows (``None``: nothing queued).
    """

    (rmask, use_rmask), (cmask, use_cmask) = _mask(row_mask, table.no_mask), _mask(col_mask, table.no_mask)
    wp.launch(
        _write_joint_values,
        dim=(value.shape[0], value.shape[1]),
        inputs=[
            wp.from_torch(value.contiguous(), dtype=wp.float32),
            table.indices,
            _index(rows, table.all_rows),
            _index(cols, table.all_cols),
            rmask,
            cmask,
            use_rmask,
            use_cmask,
            target,
            *_fk_args(fk, table.all_rows, table.no_mask),
        ],
        device=target.device,
    )


@wp.kernel
def _clear_rows(
    indices: wp.array2d(dtype=wp.int32),
    rows: wp.array(dtype=wp.int32),
    mask: wp.array(dtype=wp.bool),
    use_mask: int,
    target: wp.array(dtype=wp.spatial_vectorf),
):
    i, j = wp.tid()
    if use_mask != 0:  # noqa: SIM102 - Warp does not short-circuit: the mask may be the one-entry placeholder
        if not mask[i]:
            return
    target[indices[rows[i], j]] = wp.spatial_vectorf()


def clear_rows(table: EntryTable, target: wp.array, *, rows: torch.Tensor | None, mask: torch.Tensor | None) -> None:
    """Zero ``target[table.indices[rows, :]]`` (e.g. the body wrenches of reset envs).

    Args:
        table: The asset's entry table for ``target`` (bodies).
        target: A spatial-vector array (the manager's external wrench buffer).
        rows: Env rows of an index selection (``None``: all rows).
        mask: Bool per env of a mask selection (``None``: every row).
    """
    sel_mask, use_mask = _mask(mask, table.no_mask)
    count = table.indices.shape[0] if rows is None else rows.shape[0]
    wp.launch(
        _clear_rows,
        dim=(count, table.indices.shape[1]),
        inputs=[table.indices, _index(rows, table.all_rows), sel_mask, use_mask, target],
        device=target.device,
    )


def _fk_args(fk: FkMarks | None, placeholder_ids: wp.array, placeholder_mask: wp.array) -> list:
    """The FK-marking arguments of a write kernel: ``fk``'s arrays and 1, or unread placeholders and 0."""
    if fk is None:
        return [placeholder_ids, placeholder_mask, 0]
    return [fk.articulations, fk.mask, 1]


def _index(ids: torch.Tensor | None, every: wp.array) -> wp.array:
    """An index selection as int32 Warp array (``every``, the whole axis, for ``None``)."""
    return every if ids is None else wp.from_torch(ids.to(torch.int32).contiguous(), dtype=wp.int32)


def _mask(mask: torch.Tensor | None, placeholder: wp.array) -> tuple[wp.array, int]:
    """A bool selection as Warp array and its use flag (the unread ``placeholder`` and 0 for ``None``)."""
    if mask is None:
        return placeholder, 0
    return wp.from_torch(mask.contiguous(), dtype=wp.bool), 1


def _selection(roots: RootJoints, rows: torch.Tensor, mask: torch.Tensor | None) -> tuple[wp.array, wp.array, int]:
    """Rows, mask and mask flag of a root write: all rows under the mask, or the given rows."""
    sel_mask, use_mask = _mask(mask, roots.no_mask)
    return (roots.all_rows if mask is not None else _index(rows, roots.all_rows)), sel_mask, use_mask


def write_root_pose(
    roots: RootJoints,
    pose: torch.Tensor,
    rows: torch.Tensor,
    mask: torch.Tensor | None,
    *,
    fixed: bool,
    joint_X_c: wp.array,
    joint_X_p: wp.array,
    joint_q: wp.array,
    fk: FkMarks | None = None,
) -> None:
    """Write root poses ``pose`` (len(rows), 7) of the env ``rows`` (where ``mask``, over all rows, when given).

    Args:
        roots: The asset's root joint indices.
        pose: Body frame poses, world frame (position [m], quaternion x, y, z, w), float32.
        rows: Env rows written (all rows for a mask write).
        mask: Bool selection over all rows for a mask write, else ``None``.
        fixed: Whether the root joint is fixed (writes ``joint_X_p``) or free (writes ``joint_q``).
        joint_X_c: The model's joint child frames.
        joint_X_p: The model's joint parent frames.
        joint_q: The state's joint coordinates.
        fk: Where to queue the FK of the written rows (``None``: nothing queued).
    """
    sel_rows, sel_mask, use_mask = _selection(roots, rows, mask)
    wp.launch(
        _write_root_pose,
        dim=pose.shape[0],
        inputs=[
            wp.from_torch(pose.contiguous(), dtype=wp.float32),
            sel_rows,
            sel_mask,
            use_mask,
            int(fixed),
            roots.joint,
            roots.coord,
            joint_X_c,
            joint_X_p,
            joint_q,
            *_fk_args(fk, roots.all_rows, roots.no_mask),
        ],
        device=joint_X_p.device,
    )


def write_root_twist(
    roots: RootJoints,
    twist: torch.Tensor,
    rows: torch.Tensor,
    mask: torch.Tensor | None,
    *,
    joint_X_p: wp.array,
    joint_qd: wp.array,
    fk: FkMarks | None = None,
) -> None:
    """Write free-root twists ``twist`` (len(rows), 6): world-frame CoM linear [m/s] and angular [rad/s] velocity.

    Args:
        roots: The asset's root joint indices.
        twist: World-frame twists, float32.
        rows: Env rows written (all rows for a mask write).
        mask: Bool selection over all rows for a mask write, else ``None``.
        joint_X_p: The model's joint parent frames (the free joint's velocities are in its parent frame).
        joint_qd: The state's joint velocities.
        fk: Where to queue the FK of the written rows (``None``: nothing queued).
    """
    sel_rows, sel_mask, use_mask = _selection(roots, rows, mask)
    wp.launch(
        _write_root_twist,
        dim=twist.shape[0],
        inputs=[
            wp.from_torch(twist.contiguous(), dtype=wp.float32),
            sel_rows,
            sel_mask,
            use_mask,
            roots.joint,
            roots.dof,
            joint_X_p,
            joint_qd,
            *_fk_args(fk, roots.all_rows, roots.no_mask),
        ],
        device=joint_X_p.device,
    )
