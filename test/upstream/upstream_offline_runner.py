"""Build one upstream ``isaaclab_tasks`` env on the offline assets and step it (run in a subprocess; no tests here).

``ISAACSIM_ASSET_ROOT`` must be set before this runs: Isaac Lab resolves its asset root at import.

Usage: ``python upstream_offline_runner.py TASK STEPS NUM_ENVS PRESETS`` (comma-separated presets, one of them
``newton_<solver>``) prints one JSON line with the manager's name, the observation shape and whether every
observation stayed finite.
"""

from __future__ import annotations

import json
import os
import sys


def run(task: str, steps: int, num_envs: int, presets: str) -> dict:
    """Build ``task`` under the comma-separated ``presets`` on CPU and step it with uniform random actions."""
    import torch
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import make_env

    names = presets.split(",")
    (solver,) = [name.removeprefix("newton_") for name in names if name.startswith("newton_")]
    others = tuple(name for name in names if not name.startswith("newton_"))
    device = os.environ.get("ISAACLAB_NEWTON_TEST_DEVICE", "cpu")  # the suite's test device
    env = make_env(task, num_envs=num_envs, device=device, solver=solver, presets=others)
    try:
        manager = SimulationContext.instance().physics_manager.__name__
        obs, _ = env.reset(seed=0)
        generator = torch.Generator().manual_seed(0)
        finite = bool(torch.isfinite(obs["policy"]).all())
        for _ in range(steps):
            action = 2.0 * torch.rand(env.action_space.shape, generator=generator) - 1.0
            obs, reward, *_ = env.step(action)
            finite = finite and bool(torch.isfinite(obs["policy"]).all()) and bool(torch.isfinite(reward).all())
        return {"manager": manager, "obs_shape": list(obs["policy"].shape), "finite": finite, "steps": steps}
    finally:
        env.close()


if __name__ == "__main__":
    task, steps, num_envs, presets = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    print(json.dumps(run(task, steps, num_envs, presets)))
