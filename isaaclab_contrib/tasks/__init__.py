"""Isaac Lab tasks registered with gymnasium for the Newton backend (importing this module registers them)."""

from . import ant, cartpole, humanoid, lift_franka  # noqa: F401
