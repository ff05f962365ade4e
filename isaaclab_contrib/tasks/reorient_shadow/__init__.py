"""In-hand cube reorientation with the offline Shadow Dexterous Hand (gymnasium-robotics), direct and manager-based."""

import gymnasium as gym

gym.register(
    id="Isaac-Reorient-Cube-Shadow-Direct-v0",
    entry_point=f"{__name__}.reorient_shadow_env:ReorientShadowEnv",
    disable_env_checker=True,
    kwargs={
        "env_cfg_entry_point": f"{__name__}.reorient_shadow_env:ReorientShadowEnvCfg",
        "rsl_rl_cfg_entry_point": f"{__name__}.agents.rsl_rl_ppo_cfg:ReorientShadowPPORunnerCfg",
    },
)

gym.register(
    id="Isaac-Reorient-Cube-Shadow-v0",
    entry_point=f"{__name__}.reorient_shadow_manager_cfg:make_reorient_shadow_manager_env",
    disable_env_checker=True,
    kwargs={
        "env_cfg_entry_point": f"{__name__}.reorient_shadow_manager_cfg:ReorientShadowManagerEnvCfg",
        "rsl_rl_cfg_entry_point": f"{__name__}.agents.rsl_rl_ppo_cfg:ReorientShadowPPORunnerCfg",
    },
)
