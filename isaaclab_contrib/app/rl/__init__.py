"""Reinforcement-learning glue for our tasks: rsl-rl runs, progress lines, learning curves, recordings.

The scripts in ``scripts/reinforcement_learning/rsl_rl`` are thin front ends over these modules; the trainer is
rsl-rl's own :class:`~rsl_rl.runners.OnPolicyRunner` behind Isaac Lab's :class:`~isaaclab_rl.rsl_rl.RslRlVecEnvWrapper`.
"""
