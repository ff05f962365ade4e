"""Train a task on Newton with rsl-rl's PPO.

./isaaclab.sh -p scripts/reinforcement_learning/rsl_rl/train.py --task Isaac-Cartpole-Direct-v0 --num_envs 64 \
    --device cpu --headless
torchrun --nproc_per_node 2 scripts/reinforcement_learning/rsl_rl/train.py --task Isaac-Ant-Direct-v0 \
    --num_envs 4096 --headless --distributed
"""

from isaaclab_contrib.app.entry import run_script
from isaaclab_contrib.app.rl.cli import parse_train_args


def main() -> None:
    args, placement = parse_train_args()  # refuses bad arguments before torch, Warp and Newton are imported
    from isaaclab_contrib.app.rl.train import train

    train(args, placement)


if __name__ == "__main__":
    run_script(main)
