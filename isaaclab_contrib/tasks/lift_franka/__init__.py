"""Franka Panda lifting a soft beam or a cloth, MuJoCo Warp + VBD coupled (two-way by default)."""

import gymnasium as gym

for _task, _cfg in (
    ("Isaac-Lift-Soft-Franka-v0", "LiftSoftFrankaEnvCfg"),
    ("Isaac-Lift-Cloth-Franka-v0", "LiftClothFrankaEnvCfg"),
):
    gym.register(
        id=_task,
        entry_point=f"{__name__}.lift_franka_env:LiftFrankaEnv",
        disable_env_checker=True,
        kwargs={"env_cfg_entry_point": f"{__name__}.lift_franka_env_cfg:{_cfg}"},
    )
