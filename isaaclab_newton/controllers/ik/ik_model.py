"""Kinematic copy of one articulation instance, rooted at the robot's root frame, for batched IK."""

from __future__ import annotations

import newton
import numpy as np
import warp as wp

_SINGLE_COORD_TYPES = (newton.JointType.REVOLUTE, newton.JointType.PRISMATIC, newton.JointType.D6)


def build_articulation_ik_model(
    model: newton.Model, joints: np.ndarray, bodies: np.ndarray, *, device: wp.DeviceLike
) -> newton.Model:
    """Copy the kinematic tree of one articulation instance of ``model`` into a single-articulation model.

    The copy keeps every body (same order as ``bodies``) and every joint below the root (same order as
    ``joints[1:]``, same frames, axes and limits); the root joint becomes a fixed joint that places the root body
    at the identity. The copy's world frame is therefore the robot's root frame, its body ``i`` is ``bodies[i]``,
    and its joint coordinates are the articulation's joints in order. Masses and shapes are not copied: the
    model only serves forward kinematics.

    Args:
        model: The finalized simulation model.
        joints: Joint indices of the instance in ``model``; the first is its root joint.
        bodies: Body indices of the instance in ``model``; the first is its root body.
        device: Device of the returned model.

    Returns:
        The finalized kinematic model.

    Raises:
        ValueError: If a joint connects a body outside ``bodies``.
        NotImplementedError: If a joint below the root is a ball, free or distance joint.
    """
    joint_type = model.joint_type.numpy()
    parent = model.joint_parent.numpy()
    child = model.joint_child.numpy()
    x_p = model.joint_X_p.numpy()
    x_c = model.joint_X_c.numpy()
    axis = model.joint_axis.numpy()
    dof_dim = model.joint_dof_dim.numpy()
    qd_start = model.joint_qd_start.numpy()
    lower = model.joint_limit_lower.numpy()
    upper = model.joint_limit_upper.numpy()
    labels = list(model.joint_label)

    builder = newton.ModelBuilder()
    local = {int(b): builder.add_link(label=model.body_label[int(b)]) for b in bodies}
    first = builder.add_joint_fixed(-1, local[int(child[joints[0]])], label=labels[joints[0]])
    for j in (int(j) for j in joints[1:]):
        if int(parent[j]) not in local or int(child[j]) not in local:
            raise ValueError(f"Joint {labels[j]!r} connects a body outside its articulation; IK needs one tree.")
        kind = newton.JointType(int(joint_type[j]))
        frames = {
            "parent_xform": wp.transform(*np.split(x_p[j], [3])),
            "child_xform": wp.transform(*np.split(x_c[j], [3])),
        }
        if kind == newton.JointType.FIXED:
            builder.add_joint_fixed(local[int(parent[j])], local[int(child[j])], label=labels[j], **frames)
            continue
        if kind not in _SINGLE_COORD_TYPES:
            raise NotImplementedError(
                f"Joint {labels[j]!r} is a {kind.name} joint; Newton IK on an Isaac Lab articulation supports"
                " revolute, prismatic and D6 joints below the root."
            )
        dofs = [
            newton.ModelBuilder.JointDofConfig(
                axis=wp.vec3(*axis[d]), limit_lower=float(lower[d]), limit_upper=float(upper[d])
            )
            for d in range(int(qd_start[j]), int(qd_start[j]) + int(dof_dim[j].sum()))
        ]
        n_lin = int(dof_dim[j][0])
        builder.add_joint(
            kind,
            local[int(parent[j])],
            local[int(child[j])],
            linear_axes=dofs[:n_lin],
            angular_axes=dofs[n_lin:],
            label=labels[j],
            **frames,
        )
    builder.add_articulation(list(range(first, builder.joint_count)))
    return builder.finalize(device=device)
