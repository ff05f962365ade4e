"""Isaac Lab tasks registered with gymnasium for the Newton backend (importing this module registers them).

Their ids are versioned (``Isaac-Ant-Direct-v0``); ``isaaclab_tasks`` registers upstream's tasks under the same
names without a version (``Isaac-Ant-Direct``), and gymnasium refuses one name with and without a version in one
process. Import one of the two registries per process.
"""

import gymnasium as gym

_UPSTREAM_NAMES = (
    "Isaac-Cartpole-Direct",
    "Isaac-Cartpole",
    "Isaac-Ant-Direct",
    "Isaac-Humanoid-Direct",
    "Isaac-Lift-Soft-Franka",
    "Isaac-Lift-Cloth-Franka",
    "Isaac-Reorient-Cube-Shadow-Direct",
    "Isaac-Reorient-Cube-Shadow",
    "Isaac-Velocity-Flat-Unitree-Go1",
    "Isaac-Velocity-Rough-Unitree-Go1",
    "Isaac-Velocity-Flat-G1",
    "Isaac-Velocity-Rough-G1",
    "Isaac-Reach-Franka",
    "Isaac-Open-Drawer-Franka",
)
"""Unversioned ids of ``isaaclab_tasks`` that share a name with one of ours."""

_clashing = [name for name in _UPSTREAM_NAMES if name in gym.registry]
if _clashing:
    raise RuntimeError(
        f"isaaclab_tasks already registered {_clashing} in this process; gymnasium cannot also register this package's"
        f" {[f'{name}-v0' for name in _clashing]}. Use one task registry per process: isaaclab_contrib.tasks (ids with"
        " -v0, Newton-native tasks) or isaaclab_tasks (upstream's configs, e.g. Isaac-Cartpole-Direct with a newton"
        " preset)."
    )

from . import ant, cartpole, humanoid, lift_franka, manipulation, reorient_shadow, velocity  # noqa: E402, F401
