"""List the Isaac Lab tasks registered for the Newton backend.

./isaaclab.sh -p scripts/environments/list_envs.py
"""

from __future__ import annotations

import gymnasium as gym

import isaaclab_contrib.tasks  # noqa: F401  (registers the tasks)


def main() -> None:
    names = sorted(name for name in gym.registry if name.startswith("Isaac-"))
    for index, name in enumerate(names, start=1):
        spec = gym.registry[name]
        print(f"{index:3d}  {name:32s}  {spec.kwargs.get('env_cfg_entry_point', '')}")


if __name__ == "__main__":
    main()
