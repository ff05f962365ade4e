"""Run, score and export a trained policy: ``scripts/reinforcement_learning/rsl_rl/play.py`` calls :func:`main`."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import torch

from ..console import configure_output
from .cli import Placement, parse_play_args
from .recording import RECORDERS, RolloutRecorder
from .session import configure_agent, load_task_cfgs, make_runner, make_task_env


@dataclass(frozen=True)
class PlayResult:
    """What a playback produced.

    Attributes:
        checkpoint: The checkpoint that was loaded.
        mean_reward: Mean return of the episodes that finished during playback; ``None`` when none finished.
        episodes: How many episodes finished.
        policy_jit: The exported TorchScript policy (``<run>/exported/policy.pt``).
        policy_onnx: The exported ONNX policy (``<run>/exported/policy.onnx``).
        recordings: Clips written with ``--video`` (MP4 or USD, ``--video_format``).
    """

    checkpoint: Path
    mean_reward: float | None
    episodes: int
    policy_jit: Path
    policy_onnx: Path
    recordings: tuple[Path, ...]


def main(argv: list[str] | None = None) -> PlayResult:
    """Check the arguments, then play (:func:`play`); the script's entry point."""
    args, placement = parse_play_args(argv)
    return play(args, placement)


def play(args: argparse.Namespace, placement: Placement) -> PlayResult:
    """Load ``--checkpoint`` (default: the newest run's last), export it, run it and print its mean reward."""
    notice = configure_output(verbose=args.verbose)
    checkpoint = Path(args.checkpoint)
    env_cfg, agent_cfg = load_task_cfgs(args)
    agent_cfg = configure_agent(agent_cfg, args, placement)
    run_dir = checkpoint.parent
    env = make_task_env(args, env_cfg, agent_cfg, placement)
    if args.video:
        clips = run_dir / "videos" / "play"
        env = RECORDERS[args.video_format](env, clips, length=args.video_length, num_worlds=args.video_num_envs)
    try:
        runner = make_runner(env, agent_cfg, log_dir=None, verbose=args.verbose)
        _load_checkpoint(runner, checkpoint, task=args.task, device=placement.device)
        print(f"[INFO] loaded {checkpoint}")
        exported = run_dir / "exported"
        runner.export_policy_to_jit(str(exported), filename="policy.pt")
        runner.export_policy_to_onnx(str(exported), filename="policy.onnx")
        print(f"[INFO] exported {exported / 'policy.pt'} and {exported / 'policy.onnx'}")
        policy = runner.get_inference_policy(device=placement.device)
        vec_env = runner.env
        steps = args.steps or int(vec_env.max_episode_length)
        returns = torch.zeros(vec_env.num_envs, device=vec_env.device)
        finished_sum = torch.zeros((), device=vec_env.device)
        finished = torch.zeros((), dtype=torch.long, device=vec_env.device)
        obs = vec_env.get_observations()
        with torch.inference_mode():
            for _ in range(steps):
                obs, rewards, dones, _ = vec_env.step(policy(obs))
                returns += rewards
                done = dones.bool()
                finished_sum += returns[done].sum()
                finished += done.sum()
                returns[done] = 0.0
    finally:
        env.close()
    notice.report()
    episodes = int(finished)
    mean_reward = float(finished_sum) / episodes if episodes else None
    recordings = tuple(env.clips) if isinstance(env, RolloutRecorder) else ()
    for clip in recordings:
        print(f"[INFO] recording {clip}")
    if mean_reward is None:
        print(f"play episodes=0 steps={steps}: no episode ended, so there is no mean reward; run more --steps")
    else:
        print(f"play mean_reward={mean_reward:.3f} episodes={episodes} steps={steps}")
    return PlayResult(checkpoint, mean_reward, episodes, exported / "policy.pt", exported / "policy.onnx", recordings)


def _load_checkpoint(runner, checkpoint: Path, *, task: str, device: str) -> None:
    """Load the policy of ``checkpoint`` into ``runner``; a policy of other sizes (another task's) is refused by name.

    Only the actor is read: a checkpoint without the critic's or optimizer's state (shared to play) plays too.

    Raises:
        SystemExit: If the checkpoint's networks do not fit ``task``'s observations and actions.
    """
    try:
        runner.load(str(checkpoint), load_cfg={"actor": True}, map_location=device)
    except RuntimeError as err:
        if "size mismatch" not in str(err):
            raise
        raise SystemExit(
            f"{checkpoint} does not fit {task}: its networks were trained for other observation or action sizes"
            " (another task's checkpoint). Pass --task of the run that wrote it, or a checkpoint of this task."
        ) from None
