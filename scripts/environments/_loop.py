"""Run an environment with a given action source, with a progress bar and a throughput line."""

from __future__ import annotations

import time
from collections.abc import Callable

import torch
import tqdm

from isaaclab_contrib.app.console import report_compiles


def run(env, action_fn: Callable[[torch.Tensor], torch.Tensor], steps: int) -> float:
    """Step ``env`` ``steps`` times and print env-steps per second.

    Args:
        env: A gymnasium-wrapped Isaac Lab environment.
        action_fn: Maps a zero action tensor (num_envs, action_dim) to the action to apply.
        steps: Number of environment steps.

    Returns:
        Environment steps per second (num_envs x steps / wall time).

    Raises:
        ValueError: If ``steps`` is not an integer >= 1.
    """
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise ValueError(f"steps must be an integer >= 1 (environment steps to run), got {steps!r}.")
    unwrapped = env.unwrapped
    env.reset()
    report_compiles()  # the kernels compiled up to the first step
    shape = (unwrapped.num_envs, *unwrapped.single_action_space.shape)
    zeros = torch.zeros(shape, device=unwrapped.device)
    start = time.perf_counter()
    resets = 0
    with torch.inference_mode():
        for _ in tqdm.tqdm(range(steps), desc=unwrapped.spec.id if unwrapped.spec else "env"):
            _, _, terminated, truncated, _ = env.step(action_fn(zeros))
            resets += int((terminated | truncated).sum())
    elapsed = time.perf_counter() - start
    rate = unwrapped.num_envs * steps / elapsed
    print(f"[INFO] {steps} steps x {unwrapped.num_envs} envs, {resets} env resets, {elapsed:.2f} s")
    print(f"env-steps per second: {rate:.1f}")
    return rate
