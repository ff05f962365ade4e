"""RL agent configurations of the ant task."""
