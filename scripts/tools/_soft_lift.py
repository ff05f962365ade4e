"""IK of the Panda and particle penetration depth, for ``check_soft_lift.py`` (imported after its arguments pass)."""

from __future__ import annotations

import newton
import numpy as np
import warp as wp


class PandaIK:
    """Damped least-squares IK of the grasp centre on a single Panda (fixed base at the env origin)."""

    def __init__(self, mjcf: str, hand_body: str, grip_offset: tuple[float, float, float]):
        builder = newton.ModelBuilder()
        builder.add_mjcf(mjcf, floating=False)
        self.model = builder.finalize(device="cpu")
        self.state = self.model.state()
        self.hand = next(i for i, label in enumerate(self.model.body_label) if label.endswith(hand_body))
        self.offset = np.asarray(grip_offset)
        self.lower = self.model.joint_limit_lower.numpy()[:7]
        self.upper = self.model.joint_limit_upper.numpy()[:7]
        # finger slide axis in the hand frame: the finger frames are turned -45 degrees about z
        self.finger_axis = np.array([np.sin(np.pi / 4), np.cos(np.pi / 4), 0.0])

    def _pose(self, arm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        q = np.zeros(self.model.joint_coord_count, dtype=np.float32)
        q[:7] = arm
        newton.eval_fk(self.model, wp.array(q, dtype=float, device="cpu"), self.model.joint_qd, self.state)
        pose = self.state.body_q.numpy()[self.hand]
        x, y, z, w = pose[3:]
        rot = np.array(
            [
                [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
            ]
        )
        return pose[:3] + rot @ self.offset, rot

    def _error(self, arm: np.ndarray, target: np.ndarray) -> np.ndarray:
        pos, rot = self._pose(arm)
        down = np.cross(rot[:, 2], (0.0, 0.0, -1.0))
        across = 0.5 * np.cross(rot @ self.finger_axis, (1.0, 0.0, 0.0))
        return np.concatenate((target - pos, down + across))

    def solve(self, target: np.ndarray, arm: np.ndarray) -> np.ndarray:
        """Arm joint positions [rad] placing the grasp centre at ``target`` (env frame [m]), starting at ``arm``."""
        arm = arm.astype(np.float64).copy()
        for _ in range(200):
            err = self._error(arm, target)
            if np.linalg.norm(err) < 1e-6:
                break
            jac = np.zeros((6, 7))
            for k in range(7):
                step = arm.copy()
                step[k] += 1e-4
                jac[:, k] = (err - self._error(step, target)) / 1e-4
            arm = np.clip(arm + np.linalg.solve(jac.T @ jac + 1e-4 * np.eye(7), jac.T @ err), self.lower, self.upper)
        return arm


def max_penetration(contacts: newton.Contacts, model: newton.Model, state: newton.State) -> float:
    """Deepest particle-shape penetration [m] (particle radius minus signed distance) among the live contacts."""
    n = int(contacts.soft_contact_count.numpy()[0])
    if n == 0:
        return 0.0
    particles = contacts.soft_contact_particle.numpy()[:n]
    shapes = contacts.soft_contact_shape.numpy()[:n]
    bodies = model.shape_body.numpy()[shapes]
    body_q = state.body_q.numpy()
    local = contacts.soft_contact_body_pos.numpy()[:n]
    world = local.copy()
    for i in np.flatnonzero(bodies >= 0):
        p, (x, y, z, w) = body_q[bodies[i], :3], body_q[bodies[i], 3:]
        u = np.array((x, y, z))
        v = local[i]
        world[i] = p + v + 2.0 * w * np.cross(u, v) + 2.0 * np.cross(u, np.cross(u, v))
    gap = np.einsum("ij,ij->i", contacts.soft_contact_normal.numpy()[:n], state.particle_q.numpy()[particles] - world)
    depth = model.particle_radius.numpy()[particles] - gap
    return float(max(depth.max(), 0.0))
