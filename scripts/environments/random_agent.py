"""Run a task with uniform random actions in [-1, 1] and report env-steps per second.

./isaaclab.sh -p scripts/environments/random_agent.py --task Isaac-Cartpole-Direct-v0 --num_envs 64 --device cpu
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from isaaclab_contrib.app.args import (  # noqa: E402
    env_options,
    parse_args,
    positive_int,
    shared_parser,
    viewer_options,
    viewer_parser,
)
from isaaclab_contrib.app.entry import run_script  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Random-action agent for Isaac Lab tasks on Newton.", parents=[shared_parser(), viewer_parser()]
    )
    parser.add_argument("--steps", type=positive_int, default=500, help="Environment steps to run.")
    args = parse_args(parser)  # before torch, Warp and Newton load
    import torch
    from _loop import run

    from isaaclab_contrib.app.env_factory import make_env

    if args.seed is not None:
        torch.manual_seed(args.seed)
    env = make_env(args.task, **env_options(args), viewer=viewer_options(args))
    try:
        run(env, lambda zeros: 2.0 * torch.rand_like(zeros) - 1.0, args.steps)
    finally:
        env.close()


if __name__ == "__main__":
    run_script(main)
