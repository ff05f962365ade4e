"""How far and how fast an exported locomotion policy moves the robot: a check that a trained policy runs.

Loads ``policy.pt`` (the TorchScript file ``play.py`` exports), runs it for ``--steps`` env steps from a reset and
prints, over the envs, the torso's mean planar displacement [m] and speed [m/s], and how many envs terminated (fell)
on the way. The last line is ``displacement_m=<value> speed_m_per_s=<value> fell=<n>/<num_envs>``.

    ./isaaclab.sh -p scripts/tools/measure_locomotion.py --task Isaac-Ant-Direct-v0 \\
        --policy logs/rsl_rl/ant_direct/<run>/exported/policy.pt --device cpu
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import torch


def main(argv: list[str] | None = None) -> None:
    """Run the policy and print the displacement line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", required=True, help="A locomotion task id, e.g. Isaac-Ant-Direct-v0.")
    parser.add_argument("--policy", required=True, help="TorchScript policy exported by play.py.")
    parser.add_argument("--num_envs", type=int, default=16, help="Environments to run.")
    parser.add_argument("--steps", type=int, default=480, help="Env steps to run.")
    parser.add_argument("--device", default="cpu", help="Simulation device, e.g. cpu or cuda:0.")
    parser.add_argument("--verbose", action="store_true", help="Show the libraries' output (Isaac Lab's setup report).")
    args = parser.parse_args(argv)
    if args.num_envs < 1 or args.steps < 1:
        raise SystemExit("--num_envs and --steps must be positive integers.")

    from isaaclab_contrib.app.console import configure_output, held_prints

    configure_output(verbose=args.verbose)
    import isaaclab_contrib.tasks  # noqa: F401  (registers the tasks)
    from isaaclab_contrib.upstream.registry import load_env_cfg

    cfg = load_env_cfg(args.task)
    cfg.scene.num_envs, cfg.sim.device, cfg.seed = args.num_envs, args.device, 0
    with held_prints(verbose=args.verbose):
        env = gym.make(args.task, cfg=cfg)
    unwrapped = env.unwrapped
    if "robot" not in unwrapped.scene.articulations:
        raise SystemExit(f"{args.task} has no articulation named 'robot'; pick a locomotion task.")
    robot = unwrapped.scene["robot"]
    policy = torch.jit.load(args.policy, map_location=unwrapped.device)
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
    main()
