"""How far and how fast an exported locomotion policy moves the robot: a check that a trained policy runs.

Loads ``policy.pt`` (the TorchScript file ``play.py`` exports), runs it for ``--steps`` env steps from a reset and
prints, over the envs, the torso's mean planar displacement [m] and speed [m/s], and how many envs terminated (fell)
on the way. The last line is ``displacement_m=<value> speed_m_per_s=<value> fell=<n>/<num_envs>``.

    ./isaaclab.sh -p scripts/tools/measure_locomotion.py --task Isaac-Ant-Direct-v0 \\
        --policy logs/rsl_rl/ant_direct/<run>/exported/policy.pt --device cpu
"""

from __future__ import annotations

import argparse

from isaaclab_contrib.app.args import env_options, existing_file, parse_args, positive_int, shared_parser
from isaaclab_contrib.app.entry import run_script


def main(argv: list[str] | None = None) -> None:
    """Run the policy and print the displacement line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[shared_parser()])
    parser.add_argument("--policy", type=existing_file, required=True, help="TorchScript policy exported by play.py.")
    parser.add_argument("--steps", type=positive_int, default=480, help="Env steps to run.")
    parser.set_defaults(num_envs=16, seed=0)
    args = parse_args(parser, argv)
    import torch

    from isaaclab_contrib.app.env_factory import make_env

    env = make_env(args.task, **env_options(args))
    unwrapped = env.unwrapped
    if "robot" not in unwrapped.scene.articulations:
        raise SystemExit(f"{args.task} has no articulation named 'robot'; pick a locomotion task.")
    robot = unwrapped.scene["robot"]
    policy = torch.jit.load(str(args.policy), map_location=unwrapped.device)
    obs, _ = env.reset()
    start = robot.data.root_pos_w.torch[:, :2].clone()
    fell = torch.zeros(args.num_envs, dtype=torch.bool, device=unwrapped.device)
    with torch.inference_mode():
        for _ in range(args.steps):
            obs, _, terminated, _, _ = env.step(policy(obs["policy"]))
            fell |= terminated
    # envs that fell were reset to their origin: their displacement is not counted
    moved = (robot.data.root_pos_w.torch[:, :2] - start).norm(dim=1)[~fell]
    seconds = args.steps * unwrapped.step_dt
    env.close()
    displacement = moved.mean().item() if moved.numel() else 0.0
    print(f"{args.task}: {args.steps} steps ({seconds:.1f} s), {args.num_envs} envs")
    print(
        f"displacement_m={displacement:.2f} speed_m_per_s={displacement / seconds:.2f}"
        f" fell={int(fell.sum().item())}/{args.num_envs}"
    )


if __name__ == "__main__":
    run_script(main)
