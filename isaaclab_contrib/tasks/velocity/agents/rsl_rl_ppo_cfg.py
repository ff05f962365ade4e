"""Upstream's RSL-RL PPO runners for the Go1 and G1 velocity tasks, loaded from ``isaaclab_tasks`` by file."""

from __future__ import annotations

from ....upstream.modules import load_isaaclab_tasks_module

_go1 = load_isaaclab_tasks_module(
    "contrib/velocity/config/go1/agents/rsl_rl_ppo_cfg.py", "_isaaclab_tasks_velocity_go1_rsl_rl_ppo_cfg"
)
_g1 = load_isaaclab_tasks_module(
    "core/velocity/config/g1/agents/rsl_rl_ppo_cfg.py", "_isaaclab_tasks_velocity_g1_rsl_rl_ppo_cfg"
)

UnitreeGo1RoughPPORunnerCfg = _go1.UnitreeGo1RoughPPORunnerCfg
UnitreeGo1FlatPPORunnerCfg = _go1.UnitreeGo1FlatPPORunnerCfg
G1RoughPPORunnerCfg = _g1.G1RoughPPORunnerCfg
G1FlatPPORunnerCfg = _g1.G1FlatPPORunnerCfg
