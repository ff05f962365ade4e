"""Check that a multirotor's step path (Lee controller, allocation, thrusters, wrench, resets) never syncs the host.

Builds ``--num_envs`` quadrotors (an MJCF written here) hovering under a Lee velocity controller, runs
``--warmup`` physics steps, then ``--steps`` more inside ``check_sync_free.checked`` (torch's sync debug mode and
trapped Warp host reads), with a mask reset of half the envs every ten steps. Prints ``PASS`` / ``FAIL`` on CUDA,
``RAN`` on CPU (torch's sync debug mode exists on CUDA only).

Example::

    ./isaaclab.sh -p scripts/benchmarks/check_multirotor_sync_free.py --device cuda:0
"""

from __future__ import annotations

import argparse
import math
import pathlib
import tempfile
import traceback

from check_sync_free import checked

from isaaclab_contrib.app.args import device_parser, non_negative_int, parse_args, positive_int
from isaaclab_contrib.app.entry import run_script

_ROTORS = {"fl": (0.13, 0.13), "fr": (0.13, -0.13), "bl": (-0.13, 0.13), "br": (-0.13, -0.13)}
_K = 1.5e-5
_DT = 0.005


def _mjcf() -> str:
    path = pathlib.Path(tempfile.mkdtemp()) / "quad.xml"
    rotors = "".join(
        f'<body name="{n}" pos="{x} {y} 0"><inertial pos="0 0 0" mass="0.01" diaginertia="1e-6 1e-6 1e-6"/></body>'
        for n, (x, y) in _ROTORS.items()
    )
    path.write_text(
        '<mujoco><worldbody><body name="base"><freejoint/><inertial pos="0 0 0" mass="1" diaginertia="0.01 0.012'
        f' 0.02"/><geom type="box" size="0.08 0.08 0.02"/>{rotors}</body></worldbody></mujoco>'
    )
    return str(path)


def build(num_envs: int, device: str):
    """Simulation, scene, multirotor and Lee velocity controller."""
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.utils import configclass

    from isaaclab_contrib.actuators import ThrusterCfg
    from isaaclab_contrib.assets import MultirotorCfg
    from isaaclab_contrib.controllers import LeeVelController, LeeVelControllerCfg
    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg
    from isaaclab_newton.sim import MjcfFileCfg

    hover = math.sqrt(1.04 * 9.81 / 4 / _K)
    thrusters = ThrusterCfg(
        thruster_names_expr=list(_ROTORS),
        thrust_range=(0.0, 12.0),
        thrust_const_range=(_K, _K),
        tau_inc_range=(0.02, 0.03),
        tau_dec_range=(0.01, 0.01),
        torque_to_thrust_ratio=0.07,
        dt=_DT,
    )

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        robot = MultirotorCfg(
            prim_path="{ENV_REGEX_NS}/Robot",
            spawn=MjcfFileCfg(asset_path=_mjcf(), floating=True),
            init_state=MultirotorCfg.InitialStateCfg(pos=(0.0, 0.0, 2.0), rps={".*": hover}),
            actuators={"rotors": thrusters},
            rotor_directions=[1, -1, -1, 1],
        )

    physics = NewtonCfg(solver_cfg=MJWarpSolverCfg(), nonfinite_log_interval=1_000_000)
    sim = SimulationContext(SimulationCfg(dt=_DT, device=device, physics=physics))
    scene = InteractiveScene(SceneCfg(num_envs=num_envs, env_spacing=2.0))
    sim.reset()
    robot = scene["robot"]
    gains = dict(
        K_vel_range=((2.5, 2.5, 1.5), (3.5, 3.5, 2.0)),
        K_rot_range=((1.6, 1.6, 0.25), (1.85, 1.85, 0.4)),
        K_angvel_range=((0.4, 0.4, 0.075), (0.5, 0.5, 0.09)),
    )
    controller = LeeVelController(LeeVelControllerCfg(**gains), robot, num_envs, device)
    return sim, scene, robot, controller


def run(args: argparse.Namespace) -> str:
    """Warm up, then step inside the checked region; return the verdict."""
    import torch
    import warp as wp

    sim, scene, robot, controller = build(args.num_envs, args.device)
    command = torch.tensor([[1.0, 0.0, 0.5, 0.3]], device=args.device).repeat(args.num_envs, 1)
    mask = torch.arange(args.num_envs, device=args.device) % 2 == 0
    mask_wp = wp.from_torch(mask, dtype=wp.bool)
    env_ids = torch.nonzero(mask).reshape(-1)  # outside the checked region

    def physics_step(i: int) -> None:
        robot.set_thrust_target(robot.allocate(controller.compute(command)).clamp(min=0.0))
        scene.write_data_to_sim()
        sim.step(render=False)
        scene.update(_DT)
        if i % 10 == 9:
            robot.reset(env_mask=mask_wp)
            controller.reset(env_ids)

    for i in range(args.warmup):
        physics_step(i)
    try:
        with checked(args.device):
            for i in range(args.steps):
                physics_step(i)
    except Exception as exc:  # a sync (or any error) inside the checked region
        return "FAIL " + "".join(traceback.format_exception(exc)[-6:])
    return "PASS" if wp.get_device(args.device).is_cuda else "RAN"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[device_parser()])
    parser.add_argument("--num_envs", type=positive_int, default=64, help="Quadrotors, one per env.")
    parser.add_argument("--warmup", type=non_negative_int, default=20, help="Unchecked physics steps first.")
    parser.add_argument("--steps", type=positive_int, default=40, help="Checked physics steps.")
    args = parse_args(parser, argv)  # before torch, Warp and Newton load
    verdict = run(args)
    print(f"multirotor step path: {verdict}")
    return 0 if not verdict.startswith("FAIL") else 1


if __name__ == "__main__":
    run_script(main)
