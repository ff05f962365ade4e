"""RSL-RL configurations of the velocity tasks."""
