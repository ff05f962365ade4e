"""Build upstream's ARL track-position env on Newton with a stand-in quadrotor and step it (no tests here).

Upstream's config is used as registered, except for four things this machine cannot provide: the physics
(``PhysxCfg`` -> ``NewtonCfg`` with MuJoCo Warp), the robot's USD from Nucleus (-> an MJCF quadrotor with the
same body names, rotor positions from the config's allocation matrix), the sky light's Nucleus texture and the
target command's pose markers, Nucleus USDs drawn only with ``debug_vis`` (both removed).
Run in a subprocess: ``python arl_drone_runner.py ACTION STEPS NUM_ENVS`` prints one JSON line.
"""

from __future__ import annotations

import json
import os
import pathlib
import sys
import tempfile

TASK = "IsaacContrib-TrackPositionNoObstacles-ARL-Robot-1"


def standin_mjcf(names: list[str], allocation: list[list[float]], directory: pathlib.Path) -> pathlib.Path:
    """A 1 kg base ``base_link`` with 10 g rotor bodies placed where the allocation's roll/pitch rows put them."""
    rotors = "".join(
        f'<body name="{name}" pos="{-allocation[4][i]} {allocation[3][i]} 0">'
        '<inertial pos="0 0 0" mass="0.01" diaginertia="1e-6 1e-6 1e-6"/></body>'
        for i, name in enumerate(names)
    )
    path = directory / "arl_standin.xml"
    path.write_text(
        '<mujoco><worldbody><body name="base_link"><freejoint/>'
        '<inertial pos="0 0 0" mass="1.0" diaginertia="0.01 0.012 0.02"/>'
        f'<geom type="box" size="0.08 0.08 0.02"/>{rotors}</body></worldbody></mujoco>'
    )
    return path


def run(action: float, steps: int, num_envs: int) -> dict:
    """Step the env ``steps`` times with every action equal to ``action``; report thrusts and finiteness."""
    import torch
    from isaaclab.utils import replace

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env
    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg
    from isaaclab_newton.sim import MjcfFileCfg

    cfg = load_env_cfg(TASK)
    cfg.sim.physics = NewtonCfg(solver_cfg=MJWarpSolverCfg())
    robot = cfg.scene.robot
    names = robot.actuators["thrusters"].thruster_names_expr
    path = standin_mjcf(names, robot.allocation_matrix, pathlib.Path(tempfile.mkdtemp()))
    cfg.scene.robot = replace(robot, spawn=MjcfFileCfg(asset_path=str(path), floating=True))
    cfg.scene.sky_light = None
    command = cfg.commands.target_pose
    command.debug_vis = False
    command.goal_pose_visualizer_cfg = command.current_pose_visualizer_cfg = None
    device = os.environ.get("ISAACLAB_NEWTON_TEST_DEVICE", "cpu")  # the suite's test device
    env = make_env(TASK, cfg=cfg, num_envs=num_envs, device=device)
    try:
        obs, _ = env.reset(seed=0)
        finite = bool(torch.isfinite(obs["policy"]).all())
        for _ in range(steps):
            obs, reward, *_ = env.step(torch.full(env.action_space.shape, action, device=env.unwrapped.device))
            finite = finite and bool(torch.isfinite(obs["policy"]).all()) and bool(torch.isfinite(reward).all())
        multirotor = env.unwrapped.scene["robot"]
        return {
            "obs_shape": list(obs["policy"].shape),
            "finite": finite,
            "thrust": multirotor.data.thrust.torch.tolist(),
            "episode_length": env.unwrapped.episode_length_buf.tolist(),
            "thruster_names": multirotor.thruster_names,
        }
    finally:
        env.close()


if __name__ == "__main__":
    print(json.dumps(run(float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))))
