"""Cartpole tasks on Newton, registered under Isaac Lab's names."""

import gymnasium as gym

gym.register(
    id="Isaac-Cartpole-Direct-v0",
    entry_point=f"{__name__}.cartpole_direct_env_cfg:make_cartpole_direct_env",
    disable_env_checker=True,
    kwargs={
        "env_cfg_entry_point": f"{__name__}.cartpole_direct_env_cfg:CartpoleEnvCfg",
        "rsl_rl_cfg_entry_point": f"{__name__}.agents.rsl_rl_ppo_cfg:CartpoleDirectPPORunnerCfg",
        "physics_presets_entry_point": f"{__name__}.physics_cfg:CARTPOLE_PHYSICS",
    },
)

gym.register(
    id="Isaac-Cartpole-v0",
    entry_point=f"{__name__}.cartpole_manager_env_cfg:make_cartpole_manager_env",
    disable_env_checker=True,
    kwargs={
        "env_cfg_entry_point": f"{__name__}.cartpole_manager_env_cfg:CartpoleEnvCfg",
        "rsl_rl_cfg_entry_point": f"{__name__}.agents.rsl_rl_ppo_cfg:CartpolePPORunnerCfg",
        "physics_presets_entry_point": f"{__name__}.physics_cfg:CARTPOLE_PHYSICS",
    },
)
