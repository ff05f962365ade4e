"""Run a task with uniform random actions in [-1, 1] and report env-steps per second.

./isaaclab.sh -p scripts/environments/random_agent.py --task Isaac-Cartpole-Direct-v0 --num_envs 64 --device cpu
"""

from __future__ import annotations

import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import make_env, make_parser  # noqa: E402
from _loop import run  # noqa: E402


def main() -> None:
    args = make_parser("Random-action agent for Isaac Lab tasks on Newton.").parse_args()
    if args.seed is not None:
        torch.manual_seed(args.seed)
    env = make_env(args)
    try:
        run(env, lambda zeros: 2.0 * torch.rand_like(zeros) - 1.0, args.steps)
    finally:
        env.close()


if __name__ == "__main__":
    main()
