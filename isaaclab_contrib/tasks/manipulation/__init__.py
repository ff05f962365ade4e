"""Franka Panda manipulation on Newton (MuJoCo Warp): reach (upstream's configs), cube lift and drawer opening."""

import gymnasium as gym

_AGENTS = f"{__name__}.agents.rsl_rl_ppo_cfg"

for _task, _cfg, _runner in (
    ("Isaac-Reach-Franka-v0", "reach_env_cfg:FrankaReachEnvCfg", "FrankaReachPPORunnerCfg"),
    ("Isaac-Reach-Franka-IK-v0", "reach_env_cfg:FrankaReachIKEnvCfg", "FrankaReachIKPPORunnerCfg"),
    ("Isaac-Reach-Franka-Hold-v0", "reach_env_cfg:FrankaReachHoldEnvCfg", "FrankaReachHoldPPORunnerCfg"),
    ("Isaac-Lift-Cube-Franka-v0", "lift_env_cfg:LiftCubeFrankaEnvCfg", "FrankaLiftCubePPORunnerCfg"),
    ("Isaac-Open-Drawer-Franka-v0", "drawer_env_cfg:OpenDrawerFrankaEnvCfg", "CabinetPPORunnerCfg"),
):
    gym.register(
        id=_task,
        entry_point=f"{__name__}.env_factory:make_manipulation_env",
        disable_env_checker=True,
        kwargs={"env_cfg_entry_point": f"{__name__}.{_cfg}", "rsl_rl_cfg_entry_point": f"{_AGENTS}:{_runner}"},
    )
del _task, _cfg, _runner
