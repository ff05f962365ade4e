"""Run, score and export (TorchScript + ONNX) the newest policy of a task, optionally recording it as USD.

./isaaclab.sh -p scripts/reinforcement_learning/rsl_rl/play.py --task Isaac-Cartpole-Direct-v0 --num_envs 16 \
    --device cpu --video
"""

from isaaclab_contrib.rl.play import main

if __name__ == "__main__":
    main()
