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
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from isaaclab_contrib.app.args import env_options, parse_args, shared_parser  # noqa: E402
from isaaclab_contrib.app.entry import run_script  # noqa: E402

PHASES = (("reach", 1.0), ("descend", 0.8), ("close", 0.8), ("lift", 1.2), ("hold", 1.0))
"""Scripted phases and their durations [s]."""


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Scripted grasp-and-lift check of the Franka deformable tasks.", parents=[shared_parser()]
    )
    parser.add_argument("--lift", type=float, default=0.15, help="Commanded lift of the gripper [m].")
    parser.add_argument("--grasp_height", type=float, default=None, help="Grasp centre height [m] (default: object's).")
    parser.add_argument("--slip_tol", type=float, default=0.01, help="Relative motion counted as slip [m].")
    parser.add_argument("--coupling", choices=("custom", "proxy"), default=None, help="Override the task's coupling.")
    parser.set_defaults(num_envs=1)
    args = parse_args(parser)
    import numpy as np
    import torch
    from _soft_lift import PandaIK, max_penetration

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env
    from isaaclab_contrib.tasks.lift_franka.lift_franka_env import GRIP_OFFSET, HAND_BODY
    from isaaclab_contrib.tasks.lift_franka.panda_asset import ensure_panda_mjcf
    from isaaclab_newton.physics import NewtonManager

    options = env_options(args)
    cfg = load_env_cfg(args.task, solver=options.pop("solver"), presets=options.pop("presets"))
    if args.coupling is not None:
        cfg.coupling = args.coupling
        cfg.__post_init__()
    cfg.episode_length_s = 60.0
    env = make_env(args.task, cfg=cfg, **options).unwrapped
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
    run_script(main)
