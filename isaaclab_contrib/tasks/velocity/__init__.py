"""Velocity-tracking locomotion on Newton (Unitree Go1 and G1, flat and rough), registered under Isaac Lab's names."""

import gymnasium as gym

for _task, _cfg, _runner in (
    ("Isaac-Velocity-Flat-Unitree-Go1-v0", "UnitreeGo1FlatEnvCfg", "UnitreeGo1FlatPPORunnerCfg"),
    ("Isaac-Velocity-Rough-Unitree-Go1-v0", "UnitreeGo1RoughEnvCfg", "UnitreeGo1RoughPPORunnerCfg"),
    ("Isaac-Velocity-Flat-G1-v0", "G1FlatEnvCfg", "G1FlatPPORunnerCfg"),
    ("Isaac-Velocity-Rough-G1-v0", "G1RoughEnvCfg", "G1RoughPPORunnerCfg"),
):
    gym.register(
        id=_task,
        entry_point=f"{__name__}.velocity_env_cfg:make_velocity_env",
        disable_env_checker=True,
        kwargs={
            "env_cfg_entry_point": f"{__name__}.velocity_env_cfg:{_cfg}",
            "rsl_rl_cfg_entry_point": f"{__name__}.agents.rsl_rl_ppo_cfg:{_runner}",
        },
    )
del _task, _cfg, _runner
