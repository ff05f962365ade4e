"""Run, score and export (TorchScript + ONNX) the newest policy of a task, optionally recording it.

./isaaclab.sh -p scripts/reinforcement_learning/rsl_rl/play.py --task Isaac-Cartpole-Direct-v0 --num_envs 16 \
    --device cpu --video
"""

from isaaclab_contrib.app.entry import run_script
from isaaclab_contrib.app.rl.cli import parse_play_args


def main() -> None:
    args, placement = parse_play_args()  # refuses bad arguments before torch, Warp and Newton are imported
    from isaaclab_contrib.app.rl.play import play

    play(args, placement)


if __name__ == "__main__":
    run_script(main)
