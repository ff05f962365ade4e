"""How well an exported manipulation policy does its task: one episode per env, each judged by what the task is for.

Loads ``policy.pt`` (the TorchScript file ``play.py`` exports), resets every env, runs the policy deterministically
until each env's first episode has ended and reads, in the last step before that env's reset, the task's measure:

* reach (``Isaac-Reach-Franka-v0``, ``-IK-v0``, ``-Hold-v0``): the commanded body's distance [m] to the commanded
  position (the pose command's ``position_error``) at the time-out, the episode's last command held to its end
  (upstream's ``success`` termination, which ends an episode once within 5 cm and 0.2 rad, and its bonus are turned
  off for this; a policy of the default reach was not trained to stay, the hold variant's is); success below 0.02 m;
* cube lift (``Isaac-Lift-Cube-Franka-v0``): the cube's distance [m] to its target position; success below 0.05 m
  (the width of the task's fine goal-tracking reward);
* drawer (``Isaac-Open-Drawer-Franka-v0``): the drawer's opening [m]; success at 0.20 m or more;
* Shadow reorientation (``Isaac-Reorient-Cube-Shadow-Direct-v0``): the consecutive goal orientations reached before
  the episode ended (a dropped cube ends it, and so do 50 goals in a row); success from 10.

For the Franka tasks an episode that a termination ends (a dropped cube, a non-finite state) counts as failed. The
last line is ``<measure>_mean=<value> success=<n>/<num_envs> terminated=<n>``.

    ./isaaclab.sh -p scripts/tools/measure_manipulation.py --task Isaac-Lift-Cube-Franka-v0 \\
        --policy logs/rsl_rl/lift_cube_franka/<run>/exported/policy.pt --device cpu --num_envs 64
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from isaaclab_contrib.app.args import env_options, existing_file, parse_args, shared_parser
from isaaclab_contrib.app.entry import run_script


@dataclass(frozen=True)
class TaskMeasure:
    """What one task's episodes are judged by."""

    name: str
    """Name of the measure in the printed line (with its unit)."""
    read: Callable[[Any], Any]
    """Per-env value (N,) of the measure in the env's current state (the unwrapped env in, a torch tensor out)."""
    succeeded: Callable[[Any], Any]
    """Per-env success (N,) bool of a value of :attr:`read`."""
    edit_cfg: Callable[[Any], None] | None = None
    """Change to the task's env cfg for judging (``None``: the cfg as registered)."""
    termination_fails: bool = True
    """An episode that a termination ends counts as failed (``False``: judged by its measure alone)."""


def _reach_error(env: Any) -> Any:
    return env.command_manager.get_term("ee_pose").metrics["position_error"]


def _lift_goal_distance(env: Any) -> Any:
    from isaaclab_contrib.tasks.manipulation.mdp import object_position_in_robot_root_frame

    goal = env.command_manager.get_command("object_pose")[:, :3]
    return (object_position_in_robot_root_frame(env) - goal).norm(dim=1)


def _drawer_opening(env: Any) -> Any:
    cabinet = env.scene["cabinet"]
    joint = cabinet.joint_names.index("drawer_joint")
    return cabinet.data.joint_pos.torch[:, joint]


def _consecutive_successes(env: Any) -> Any:
    return env.successes


def _hold_reach_pose(cfg: Any) -> None:
    cfg.terminations.success = None
    cfg.rewards.success = None  # upstream's bonus for that termination


_REACH = TaskMeasure("position_error_m", _reach_error, lambda error: error < 0.02, _hold_reach_pose)
MEASURES: dict[str, TaskMeasure] = {
    "Isaac-Reach-Franka-v0": _REACH,
    "Isaac-Reach-Franka-IK-v0": _REACH,
    "Isaac-Reach-Franka-Hold-v0": _REACH,
    "Isaac-Lift-Cube-Franka-v0": TaskMeasure("goal_distance_m", _lift_goal_distance, lambda d: d < 0.05),
    "Isaac-Open-Drawer-Franka-v0": TaskMeasure("drawer_opening_m", _drawer_opening, lambda opening: opening >= 0.2),
    "Isaac-Reorient-Cube-Shadow-Direct-v0": TaskMeasure(
        "consecutive_successes", _consecutive_successes, lambda successes: successes >= 10, termination_fails=False
    ),
}
"""The tasks this script judges, and how."""


def main(argv: list[str] | None = None) -> None:
    """Run the policy until every env's first episode ended and print the task's measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[shared_parser()])
    parser.add_argument("--policy", type=existing_file, required=True, help="TorchScript policy exported by play.py.")
    parser.set_defaults(num_envs=64, seed=0)
    args = parse_args(parser, argv)
    if args.task not in MEASURES:
        raise SystemExit(f"--task {args.task}: this script judges {', '.join(MEASURES)}.")
    measure = MEASURES[args.task]
    import torch

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    options = env_options(args)
    cfg = load_env_cfg(args.task, solver=options.pop("solver"), presets=options.pop("presets"))
    if measure.edit_cfg is not None:
        measure.edit_cfg(cfg)
    env = make_env(args.task, cfg=cfg, **options)
    unwrapped = env.unwrapped
    policy = torch.jit.load(str(args.policy), map_location=unwrapped.device)
    obs, _ = env.reset()
    value = measure.read(unwrapped).clone().float()
    final = torch.zeros_like(value)
    terminated_at_end = torch.zeros(args.num_envs, dtype=torch.bool, device=unwrapped.device)
    finished = torch.zeros_like(terminated_at_end)
    steps = 0
    with torch.inference_mode():
        while not bool(finished.all()) and steps <= unwrapped.max_episode_length:
            obs, _, terminated, truncated, _ = env.step(policy(obs["policy"]))
            ended = (terminated | truncated) & ~finished
            final = torch.where(ended, value, final)
            terminated_at_end |= ended & terminated
            finished |= ended
            value = measure.read(unwrapped).clone().float()
            steps += 1
    env.close()
    succeeded = measure.succeeded(final) & finished
    if measure.termination_fails:
        succeeded &= ~terminated_at_end
    print(f"{args.task}: {args.num_envs} envs, {steps} steps ({steps * unwrapped.step_dt:.1f} s)")
    print(
        f"{measure.name}_mean={final[finished].mean().item():.4f} success={int(succeeded.sum())}/{args.num_envs}"
        f" terminated={int(terminated_at_end.sum())}"
    )


if __name__ == "__main__":
    run_script(main)
