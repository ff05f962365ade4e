"""Run a task with zero actions and report env-steps per second.

./isaaclab.sh -p scripts/environments/zero_agent.py --task Isaac-Cartpole-Direct-v0 --num_envs 64 --device cpu
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import parse_args  # noqa: E402


def main() -> None:
    args = parse_args("Zero-action agent for Isaac Lab tasks on Newton.")  # before torch, Warp and Newton load
    from _common import make_env
    from _loop import run

    env, notice = make_env(args)
    try:
        run(env, lambda zeros: zeros, args.steps, notice=notice)
    finally:
        env.close()


if __name__ == "__main__":
    main()
