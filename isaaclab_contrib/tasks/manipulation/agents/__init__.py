"""RSL-RL configurations of the manipulation tasks."""
