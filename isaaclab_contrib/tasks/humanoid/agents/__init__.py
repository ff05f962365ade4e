"""RL agent configurations of the humanoid task."""
