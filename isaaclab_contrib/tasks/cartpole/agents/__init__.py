"""RL agent configurations of the cartpole tasks."""
