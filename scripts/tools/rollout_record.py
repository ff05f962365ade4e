"""Record a fixed-seed rollout of registered tasks, or compare two recordings bit for bit.

Run it once per checkout (``PYTHONPATH`` pointing at each) to check that a change leaves the results unchanged:
per env step it records the policy observation, reward, terminated and truncated flags, the first articulation's
joint positions and velocities, the actuators' applied and computed efforts, and every sensor's ``force``/``torque``
data, under seeded uniform random actions in [-1, 1] (resets happen as episodes end).

Examples::

    ./isaaclab.sh -p scripts/tools/rollout_record.py --device cpu --out /tmp/before.pt
    ./isaaclab.sh -p scripts/tools/rollout_record.py --device cpu --out /tmp/after.pt
    ./isaaclab.sh -p scripts/tools/rollout_record.py --compare /tmp/before.pt /tmp/after.pt
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from isaaclab_contrib.app import args as script_args
from isaaclab_contrib.app.entry import run_script

if TYPE_CHECKING:
    import torch

DEFAULT_TASKS = ("Isaac-Cartpole-Direct-v0", "Isaac-Ant-Direct-v0", "Isaac-Humanoid-Direct-v0")


def record(task: str, args: argparse.Namespace) -> dict[str, torch.Tensor]:
    """Roll ``task`` out for ``args.steps`` env steps; return the recorded fields, each (steps, ...) on the CPU."""
    import torch

    from isaaclab_contrib.app.env_factory import make_env

    env = make_env(
        task, num_envs=args.num_envs[0], device=args.device, seed=args.seed, solver=args.solver, verbose=args.verbose
    )
    try:
        unwrapped = env.unwrapped
        env.reset(seed=args.seed)
        robot = next(iter(unwrapped.scene.articulations.values()))
        generator = torch.Generator().manual_seed(args.seed + 1)
        shape = (unwrapped.num_envs, *unwrapped.single_action_space.shape)
        fields: dict[str, list[torch.Tensor]] = {}
        for _ in range(args.steps):
            action = (torch.rand(shape, generator=generator) * 2 - 1).to(unwrapped.device)
            obs, reward, terminated, truncated, _ = env.step(action)
            step = {
                "obs": obs["policy"],
                "reward": reward,
                "terminated": terminated,
                "truncated": truncated,
                "joint_pos": robot.data.joint_pos.torch,
                "joint_vel": robot.data.joint_vel.torch,
                "applied_effort": robot.actuators.applied_effort.torch,
                "computed_effort": robot.actuators.computed_effort.torch,
            }
            for name, sensor in unwrapped.scene.sensors.items():
                for field in ("force", "torque"):
                    if hasattr(sensor.data, field):
                        step[f"{name}.{field}"] = getattr(sensor.data, field).torch
            for key, value in step.items():
                fields.setdefault(key, []).append(value.detach().to("cpu", copy=True))
    finally:
        env.close()
    return {key: torch.stack(values) for key, values in fields.items()}


def compare(path_a: str, path_b: str) -> int:
    """Print, per task and field, whether two recordings are bit-identical; return 1 if any differs."""
    import torch

    a, b = torch.load(path_a), torch.load(path_b)
    status = 0
    for task in sorted(set(a) | set(b)):
        if task not in a or task not in b:
            print(f"{task}: only in {'the first' if task in a else 'the second'} recording")
            status = 1
            continue
        for field in sorted(set(a[task]) | set(b[task])):
            x, y = a[task].get(field), b[task].get(field)
            if x is None or y is None or x.shape != y.shape:
                print(f"{task} {field}: missing or shape differs")
                status = 1
            elif torch.equal(x, y):
                print(f"{task} {field}: bit-identical")
            else:
                step = int((x != y).reshape(x.shape[0], -1).any(1).nonzero()[0])
                print(f"{task} {field}: DIFFERS from step {step}, max |diff| {(x - y).abs().max().item():.3g}")
                status = 1
    return status


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, refused before torch, Warp and Newton load."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], parents=[script_args.sweep_parser(tasks=DEFAULT_TASKS, num_envs=[4])]
    )
    parser.add_argument("--steps", type=script_args.positive_int, default=300, help="Env steps recorded.")
    parser.add_argument("--out", default=None, help="Where to save the recording (torch.save).")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="Compare two recordings instead.")
    parser.set_defaults(device="cpu", seed=0)  # actions use seed + 1
    return script_args.parse_args(parser, argv, check=_one_count)


def _one_count(args: argparse.Namespace) -> None:
    """A recording holds one env count per task (its keys are the task ids)."""
    if len(args.num_envs) != 1:
        raise SystemExit(f"--num_envs: one count per recording, got {args.num_envs}.")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if not args.out:
        raise SystemExit("Pass --out PATH to record, or --compare A B.")
    import torch

    torch.save({task: record(task, args) for task in args.tasks}, args.out)
    print(f"recorded {len(args.tasks)} task(s), {args.steps} steps each -> {args.out}")
    return 0


if __name__ == "__main__":
    run_script(main)
