"""Scripted grasp-and-lift check of the Franka deformable lift tasks, before training a policy.

Reaches above the object, descends, closes the gripper fully (the hand's effort limit sets the squeeze), lifts
``--lift`` metres and holds. Joint targets come from a damped least-squares IK on the Panda alone (hand pointing
down, fingers closing along x) and go through the environment's own actions. Prints per phase the object's and the
gripper's positions, then the lift height of the object's nodal mean, the deepest particle penetration into a
shape over the run, and whether the object slipped (moved more than ``--slip_tol`` relative to the gripper during
the hold). The last line is ``lift_height_m=<value> penetration_m=<value> slipped=<true|false>``.

    ./isaaclab.sh -p scripts/tools/check_soft_lift.py --task Isaac-Lift-Soft-Franka-v0 --device cpu
    ./isaaclab.sh -p scripts/tools/check_soft_lift.py --task Isaac-Lift-Cloth-Franka-v0 --device cpu
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import newton
import numpy as np
import torch
import warp as wp

PHASES = (("reach", 1.0), ("descend", 0.8), ("close", 0.8), ("lift", 1.2), ("hold", 1.0))
"""Scripted phases and their durations [s]."""


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


def main() -> None:
    parser = argparse.ArgumentParser(description="Scripted grasp-and-lift check of the Franka deformable tasks.")
    parser.add_argument("--task", default="Isaac-Lift-Soft-Franka-v0")
    parser.add_argument("--device", default="cuda:0" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--lift", type=float, default=0.15, help="Commanded lift of the gripper [m].")
    parser.add_argument("--grasp_height", type=float, default=None, help="Grasp centre height [m] (default: object's).")
    parser.add_argument("--slip_tol", type=float, default=0.01, help="Relative motion counted as slip [m].")
    parser.add_argument("--coupling", choices=("custom", "proxy"), default=None, help="Override the task's coupling.")
    args = parser.parse_args()

    import isaaclab_contrib.tasks  # noqa: F401  (registers the tasks)
    from isaaclab_contrib.tasks.lift_franka.lift_franka_env import GRIP_OFFSET, HAND_BODY
    from isaaclab_contrib.tasks.lift_franka.panda_asset import ensure_panda_mjcf
    from isaaclab_contrib.upstream.registry import load_env_cfg
    from isaaclab_newton.physics import NewtonManager

    cfg = load_env_cfg(args.task)
    if args.coupling is not None:
        cfg.coupling = args.coupling
        cfg.__post_init__()
    cfg.scene.num_envs = 1
    cfg.sim.device = args.device
    cfg.episode_length_s = 60.0
    env = gym.make(args.task, cfg=cfg).unwrapped
    try:
        env.reset()
        origin = env.scene.env_origins[0].cpu().numpy()
        obj = env.object
        rest = obj.data.root_pos_w.torch[0].cpu().numpy() - origin
        grasp_z = rest[2] if args.grasp_height is None else args.grasp_height
        ik = PandaIK(ensure_panda_mjcf(), HAND_BODY, GRIP_OFFSET)
        default = env.robot.data.default_joint_pos.torch[0].cpu().numpy()
        above = ik.solve(np.array((rest[0], rest[1], grasp_z + 0.12)), default[:7])
        grasp = ik.solve(np.array((rest[0], rest[1], grasp_z)), above)
        lifted = ik.solve(np.array((rest[0], rest[1], grasp_z + args.lift)), grasp)
        model = NewtonManager.get_model()
        physics_dt = env.cfg.sim.dt * env.cfg.decimation
        penetration, start_rel, slip = 0.0, None, 0.0
        for name, duration in PHASES:
            steps = max(1, round(duration / physics_dt))
            for i in range(steps):
                a = (i + 1) / steps
                arm, gripper = {
                    "reach": ((1 - a) * default[:7] + a * above, 1.0),
                    "descend": ((1 - a) * above + a * grasp, 1.0),
                    "close": (grasp, -1.0),
                    "lift": ((1 - a) * grasp + a * lifted, -1.0),
                    "hold": (lifted, -1.0),
                }[name]
                action = np.append((arm - default[:7]) / env.cfg.action_scale, gripper)
                env.step(torch.tensor(action, dtype=torch.float32, device=env.device)[None])
                penetration = max(
                    penetration, max_penetration(NewtonManager.get_contacts(), model, NewtonManager.get_state_0())
                )
                rel = obj.data.root_pos_w.torch[0].cpu().numpy() - env.grip_center_w()[0].cpu().numpy()
                if name == "hold":
                    start_rel = rel if start_rel is None else start_rel
                    slip = max(slip, float(np.linalg.norm(rel - start_rel)))
            pos = obj.data.root_pos_w.torch[0].cpu().numpy() - origin
            grip = env.grip_center_w()[0].cpu().numpy() - origin
            print(f"{name:8s} object {np.round(pos, 4)} gripper {np.round(grip, 4)}")
        height = float(obj.data.root_pos_w.torch[0, 2].item() - origin[2] - rest[2])
        slipped = slip > args.slip_tol
        print(f"lift height {height:.4f} m, max penetration {penetration:.4f} m, hold slip {slip:.4f} m")
        print(f"lift_height_m={height:.4f} penetration_m={penetration:.4f} slipped={str(slipped).lower()}")
    finally:
        env.close()


if __name__ == "__main__":
    main()
