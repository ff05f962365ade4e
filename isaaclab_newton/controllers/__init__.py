"""Controllers that run on the Newton model (batched inverse kinematics)."""
