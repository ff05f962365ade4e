"""Ant locomotion on Newton, registered under Isaac Lab's name."""

import gymnasium as gym

gym.register(
    id="Isaac-Ant-Direct-v0",
    entry_point="isaaclab_contrib.tasks.locomotion_direct_env:make_locomotion_direct_env",
    disable_env_checker=True,
    kwargs={
        "env_cfg_entry_point": f"{__name__}.ant_direct_env_cfg:AntEnvCfg",
        "rsl_rl_cfg_entry_point": f"{__name__}.agents.rsl_rl_ppo_cfg:AntPPORunnerCfg",
        "physics_presets_entry_point": f"{__name__}.ant_direct_env_cfg:ANT_PHYSICS",
    },
)
