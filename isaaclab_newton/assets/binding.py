"""Index maps from one Isaac Lab articulation (N envs x J joints x B bodies) into Newton's flat arrays."""

from __future__ import annotations

import newton
import numpy as np
import torch
import warp as wp

from ..physics import NewtonManager


class ArticulationBinding:
    """Per-env index tensors of an articulation's joints, DOFs, coordinates and bodies in the Newton model.

    Joints are the DOFs below the root (a multi-axis hinge contributes ``<name>:0``, ``<name>:1``, ...); the
    root joint (fixed or free) is described by :attr:`root_joint`. Bodies are all links of the articulation.

    Args:
        prim_path: The asset configuration's prim path (regex over environments).
        device: Torch device of the index tensors.

    Rows are the instances of the prim in the manager's scene index (:meth:`NewtonManager.get_scene_index`), in
    world order; sensors on the same prim read the same rows and body columns.

    Raises:
        ValueError: If no prim of the scene index matches ``prim_path``.
        NotImplementedError: If the articulation has multi-DOF joints below its root.
    """

    def __init__(self, prim_path: str, device: str):
        model = NewtonManager.get_model()
        if model is None:
            raise RuntimeError("The Newton model is not finalized: assets initialize on sim.reset().")
        entities = NewtonManager.get_scene_index().find(prim_path)
        if entities.count("articulation") != 1:
            raise ValueError(
                f"{prim_path!r} holds {entities.count('articulation')} articulations per world; an Articulation asset"
                " needs exactly one. Split the file or point prim_path at one articulation root."
            )
        self.entities = entities
        self.device = device
        self.world_ids = torch.as_tensor(entities.world_ids, dtype=torch.long, device=device)
        self.num_instances = entities.num_instances
        joint_type = model.joint_type.numpy()
        q_start = model.joint_q_start.numpy()
        qd_start = model.joint_qd_start.numpy()
        dof_dim = model.joint_dof_dim.numpy()
        joints = entities.indices("joint").astype(np.int64)  # (N, all joints of the asset)
        first = joints[0]
        self.root_joint_type = int(joint_type[first[0]])
        self.is_fixed_base = self.root_joint_type == int(newton.JointType.FIXED)
        is_free = self.root_joint_type in (int(newton.JointType.FREE), int(newton.JointType.DISTANCE))
        if not (self.is_fixed_base or is_free):
            raise NotImplementedError(
                f"Root joint type {self.root_joint_type} of {prim_path!r} is not supported; the root must be fixed or"
                " free (set the spawner's floating=True/False)."
            )
        columns: list[tuple[int, int]] = []  # (joint column in the asset, DOF offset within that joint)
        labels = list(model.joint_label)
        names = []
        coord_counts = np.diff(np.append(q_start, model.joint_coord_count))
        for c, j in enumerate(first[1:], start=1):
            ndof = int(dof_dim[j].sum())
            if ndof == 0:
                continue
            if ndof > 1 and int(coord_counts[j]) != ndof:
                raise NotImplementedError(
                    f"Joint {labels[j]!r} of {prim_path!r} has {ndof} DOFs but {int(coord_counts[j])} coordinates"
                    " (a ball or free joint); the Newton Articulation supports joints whose DOFs each have one"
                    " coordinate (revolute, prismatic, and multi-axis hinges)."
                )
            for k in range(ndof):
                columns.append((c, k))
                # multi-axis joints follow Isaac Lab's convention of suffixing the axis index
                names.append(_leaf(labels[j]) if ndof == 1 else f"{_leaf(labels[j])}:{k}")
        cols = np.asarray([c for c, _ in columns], dtype=np.int64)
        offsets = np.asarray([k for _, k in columns], dtype=np.int64)
        sel = joints[:, cols] if len(cols) else np.zeros((len(joints), 0), dtype=np.int64)
        self.joint_names = names
        self.joint_indices = torch.as_tensor(sel, device=device)
        self.coord_indices = torch.as_tensor(q_start[sel] + offsets[None, :], device=device)
        self.dof_indices = torch.as_tensor(qd_start[sel] + offsets[None, :], device=device)
        self.root_joint = torch.as_tensor(joints[:, 0], device=device)
        self.root_coord = torch.as_tensor(q_start[joints[:, 0]], device=device)
        self.root_dof = torch.as_tensor(qd_start[joints[:, 0]], device=device)
        bodies = entities.indices("body").astype(np.int64)
        self.body_indices = torch.as_tensor(bodies, device=device)
        self.body_names = [_leaf(model.body_label[b]) for b in bodies[0]]
        self.root_body = self.body_indices[:, 0]
        self.articulation_ids = entities.indices("articulation")[:, 0]


def torch_view(array: wp.array) -> torch.Tensor:
    """Zero-copy torch view of a Newton array (vector dtypes gain a trailing axis)."""
    return wp.to_torch(array)


def _leaf(label: str) -> str:
    """Last path component of a Newton label (``/World/envs/env_0/Robot/pole`` -> ``pole``)."""
    return label.rstrip("/").rsplit("/", 1)[-1]
