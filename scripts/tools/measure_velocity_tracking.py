"""Velocity-tracking error of an exported policy on a velocity task, with the base-velocity command held fixed.

Loads ``policy.pt`` (the TorchScript file ``play.py`` exports), holds every env's command at ``--lin_vel_x``,
``--lin_vel_y`` [m/s] and ``--ang_vel_z`` [rad/s] (no resampling, no heading control, no standing envs, no pushes),
runs ``--steps`` env steps and averages, after ``--settle`` steps, the planar error between the base's linear
velocity (base yaw frame) and the command. The last line is ``lin_vel_error_m_per_s=<value>
ang_vel_error_rad_per_s=<value> fell=<n>/<num_envs>``.

    ./isaaclab.sh -p scripts/tools/measure_velocity_tracking.py --task Isaac-Velocity-Flat-Unitree-Go1-v0 \\
        --policy logs/rsl_rl/unitree_go1_flat/<run>/exported/policy.pt --device cuda:0
"""

from __future__ import annotations

import argparse

from isaaclab_contrib.app.args import (
    env_options,
    existing_file,
    non_negative_int,
    parse_args,
    positive_int,
    shared_parser,
)
from isaaclab_contrib.app.entry import run_script


def main(argv: list[str] | None = None) -> None:
    """Run the policy under held commands and print the error line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[shared_parser()])
    parser.add_argument("--policy", type=existing_file, required=True, help="TorchScript policy exported by play.py.")
    parser.add_argument("--steps", type=positive_int, default=500, help="Env steps to run.")
    parser.add_argument("--settle", type=non_negative_int, default=100, help="Steps before the error is averaged.")
    parser.add_argument("--lin_vel_x", type=float, default=0.5, help="Held forward velocity command [m/s].")
    parser.add_argument("--lin_vel_y", type=float, default=0.0, help="Held lateral velocity command [m/s].")
    parser.add_argument("--ang_vel_z", type=float, default=0.0, help="Held yaw-rate command [rad/s].")
    parser.set_defaults(num_envs=64, seed=0)
    args = parse_args(parser, argv)
    if args.steps <= args.settle:
        raise SystemExit(f"--steps ({args.steps}) must be larger than --settle ({args.settle}).")
    import torch

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    options = env_options(args)
    cfg = load_env_cfg(args.task, solver=options.pop("solver"), presets=options.pop("presets"))
    command = cfg.commands.base_velocity
    command.ranges.lin_vel_x = (args.lin_vel_x, args.lin_vel_x)
    command.ranges.lin_vel_y = (args.lin_vel_y, args.lin_vel_y)
    command.ranges.ang_vel_z = (args.ang_vel_z, args.ang_vel_z)
    command.heading_command, command.ranges.heading, command.rel_standing_envs = False, None, 0.0
    command.resampling_time_range = (1.0e6, 1.0e6)
    cfg.events.push_robot = None
    cfg.events.base_external_force_torque = None
    env = make_env(args.task, cfg=cfg, **options)
    unwrapped = env.unwrapped
    policy = torch.jit.load(str(args.policy), map_location=unwrapped.device)
    robot = unwrapped.scene["robot"]
    obs, _ = env.reset()
    target = torch.tensor([args.lin_vel_x, args.lin_vel_y], device=unwrapped.device)
    lin_error = torch.zeros((), device=unwrapped.device)
    ang_error = torch.zeros((), device=unwrapped.device)
    fell = torch.zeros(args.num_envs, dtype=torch.bool, device=unwrapped.device)
    with torch.inference_mode():
        for step in range(args.steps):
            obs, _, terminated, _, _ = env.step(policy(obs["policy"]))
            fell |= terminated
            if step >= args.settle:
                lin_error += torch.linalg.norm(robot.data.root_lin_vel_b.torch[:, :2] - target, dim=-1).mean()
                ang_error += (robot.data.root_ang_vel_w.torch[:, 2] - args.ang_vel_z).abs().mean()
    count = args.steps - args.settle
    env.close()
    print(
        f"lin_vel_error_m_per_s={lin_error.item() / count:.4f} ang_vel_error_rad_per_s={ang_error.item() / count:.4f}"
        f" fell={int(fell.sum())}/{args.num_envs}"
    )


if __name__ == "__main__":
    run_script(main)
