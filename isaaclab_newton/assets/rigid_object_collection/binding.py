"""Index maps from a rigid object collection (N envs x K objects) into Newton's flat arrays."""

from __future__ import annotations

from typing import TYPE_CHECKING

import newton
import numpy as np
import torch

from ...physics import NewtonManager

if TYPE_CHECKING:
    from isaaclab.assets import RigidObjectCfg


def find_collection_objects(cfgs: dict[str, RigidObjectCfg]) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Look up every object of a collection in the scene index: ``(name, body (N,), free joint (N,))`` each.

    This is the one place the collection asks where its objects landed in the model.

    Raises:
        ValueError: If an object is not one free rigid body per environment.
    """
    index = NewtonManager.get_scene_index()
    joint_type = NewtonManager.get_model().joint_type.numpy()
    found = []
    for name, cfg in cfgs.items():
        entities = index.find(cfg.prim_path)
        bodies, joints = entities.indices("body"), entities.indices("joint")
        if bodies.shape[1] != 1 or joints.shape[1] != 1 or int(joint_type[joints[0, 0]]) != int(newton.JointType.FREE):
            raise ValueError(
                f"RigidObjectCollection object {name!r} ({cfg.prim_path!r}) must be one free rigid body per"
                f" environment; found {bodies.shape[1]} bodies and {joints.shape[1]} joints. Give it a"
                " UsdPhysics.RigidBodyAPI and no joints, or use an Articulation."
            )
        found.append((name, bodies[:, 0], joints[:, 0]))
    return found


class CollectionBinding:
    """Per-env index tensors of the K objects of a collection (each a free body with its free joint).

    ``root_body`` (the first object) only serves the shared data layer's root quantities, which the collection
    replaces by per-object ones.

    Args:
        cfgs: The collection's rigid object configurations, in object order.
        device: Torch device of the index tensors.

    Raises:
        ValueError: If objects are missing from some environments.
    """

    def __init__(self, cfgs: dict[str, RigidObjectCfg], device: str):
        model = NewtonManager.get_model()
        if model is None:
            raise RuntimeError("The Newton model is not finalized: assets initialize on sim.reset().")
        objects = find_collection_objects(cfgs)
        counts = {len(bodies) for _, bodies, _ in objects}
        if len(counts) != 1:
            raise ValueError(
                f"The objects of a RigidObjectCollection must exist in every environment; instance counts: {counts}."
            )
        bodies = np.stack([b for _, b, _ in objects], axis=1).astype(np.int64)
        joints = np.stack([j for _, _, j in objects], axis=1).astype(np.int64)
        body_world = model.body_world.numpy()
        self.device = device
        self.body_names = [name for name, _, _ in objects]
        self.num_instances = int(bodies.shape[0])
        self.body_indices = torch.as_tensor(bodies, device=device)
        self.root_joint = torch.as_tensor(joints, device=device)
        self.root_coord = torch.as_tensor(model.joint_q_start.numpy()[joints], device=device)
        self.root_dof = torch.as_tensor(model.joint_qd_start.numpy()[joints], device=device)
        self.world_ids = torch.as_tensor(body_world[bodies[:, 0]], dtype=torch.long, device=device)
        self.root_body = self.body_indices[:, 0]
        self.articulation_ids = model.joint_articulation.numpy()[joints].astype(np.int32)
