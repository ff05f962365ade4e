"""A small quadrotor (MJCF written in the test) in an InteractiveScene, and helpers to step it."""

from __future__ import annotations

import math
import pathlib

import torch
from conftest import TEST_DEVICE

BASE_MASS = 1.0
"""Base body mass [kg]."""
ROTOR_MASS = 0.01
"""Mass of each rotor body [kg] (point-like, inertia 1e-6 kg m^2)."""
BASE_INERTIA = (0.01, 0.012, 0.02)
"""Principal inertia of the base box about its CoM [kg m^2]."""
ARM = 0.13
"""Rotor offset along x and y from the base center [m]."""
THRUST_CONST = 1.5e-5
"""Thrust constant k [N / speed^2]."""
ROTORS = {"front_left": (ARM, ARM), "front_right": (ARM, -ARM), "back_left": (-ARM, ARM), "back_right": (-ARM, -ARM)}
DIRECTIONS = [1, -1, -1, 1]
RATIO = 0.07
"""Torque-to-thrust ratio [m]."""
DT = 1.0 / 200.0
GRAVITY = 9.81
ARL_LEE_GAINS = dict(
    K_vel_range=((2.5, 2.5, 1.5), (3.5, 3.5, 2.0)),
    K_rot_range=((1.6, 1.6, 0.25), (1.85, 1.85, 0.4)),
    K_angvel_range=((0.4, 0.4, 0.075), (0.5, 0.5, 0.09)),
    max_inclination_angle_rad=1.0471975511965976,
    max_yaw_rate=1.0471975511965976,
)
"""Lee controller gains and limits of upstream's ARL navigation task."""

_MJCF = """<mujoco model="quad">
  <worldbody>
    <body name="base" pos="0 0 2">
      <freejoint/>
      <inertial pos="0 0 0" mass="{mass}" diaginertia="{ixx} {iyy} {izz}"/>
      <geom type="box" size="0.08 0.08 0.02" contype="0" conaffinity="0"/>
{rotors}
    </body>
  </worldbody>
</mujoco>
"""
_ROTOR = (
    '      <body name="{name}" pos="{x} {y} 0"><inertial pos="0 0 0" mass="{m}" diaginertia="1e-6 1e-6 1e-6"/>'
    '<geom type="cylinder" size="0.05 0.005" contype="0" conaffinity="0"/></body>'
)


def total_mass() -> float:
    """Mass of the quadrotor [kg]."""
    return BASE_MASS + len(ROTORS) * ROTOR_MASS


def composite_inertia() -> tuple[float, float, float]:
    """Principal inertia of the whole quadrotor about its CoM [kg m^2] (rotors as point masses plus 1e-6)."""
    extra = len(ROTORS) * ROTOR_MASS * ARM**2
    ixx, iyy, izz = BASE_INERTIA
    n = len(ROTORS) * 1e-6
    return ixx + extra + n, iyy + extra + n, izz + 2 * extra + n


def hover_speed(thrust_per_rotor: float) -> float:
    """Rotor speed giving ``thrust_per_rotor`` [N]."""
    return math.sqrt(thrust_per_rotor / THRUST_CONST)


def write_mjcf(directory: pathlib.Path) -> pathlib.Path:
    """Write the quadrotor MJCF into ``directory`` and return its path."""
    rotors = "\n".join(_ROTOR.format(name=n, x=x, y=y, m=ROTOR_MASS) for n, (x, y) in ROTORS.items())
    ixx, iyy, izz = BASE_INERTIA
    path = directory / "quad.xml"
    path.write_text(_MJCF.format(mass=BASE_MASS, ixx=ixx, iyy=iyy, izz=izz, rotors=rotors))
    return path


def thruster_cfg(**overrides):
    """The rotors' ThrusterCfg: fixed constants (no randomization), 20 ms / 10 ms motor lag, 0-12 N."""
    from isaaclab_contrib.actuators import ThrusterCfg

    fields = dict(
        thruster_names_expr=list(ROTORS),
        thrust_range=(0.0, 12.0),
        thrust_const_range=(THRUST_CONST, THRUST_CONST),
        tau_inc_range=(0.02, 0.02),
        tau_dec_range=(0.01, 0.01),
        torque_to_thrust_ratio=RATIO,
        dt=DT,
    )
    fields.update(overrides)
    return ThrusterCfg(**fields)


def multirotor_cfg(directory: pathlib.Path, *, rps: float = 0.0, **overrides):
    """A MultirotorCfg of the quadrotor, rotors starting at speed ``rps``; ``overrides`` replace cfg fields."""
    from isaaclab_contrib.assets import MultirotorCfg
    from isaaclab_newton.sim import MjcfFileCfg

    fields = dict(
        prim_path="{ENV_REGEX_NS}/Robot",
        spawn=MjcfFileCfg(asset_path=str(write_mjcf(directory)), floating=True),
        init_state=MultirotorCfg.InitialStateCfg(pos=(0.0, 0.0, 2.0), rps={".*": rps}),
        actuators={"rotors": thruster_cfg()},
        rotor_directions=DIRECTIONS,
    )
    fields.update(overrides)
    return MultirotorCfg(**fields)


def make_scene(robot_cfg, *, num_envs: int = 2):
    """Simulation (CPU, MuJoCo Warp, dt 5 ms) and scene holding ``robot_cfg``; returns (sim, scene, robot)."""
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.utils import configclass

    from isaaclab_contrib.assets import MultirotorCfg
    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        robot: MultirotorCfg = robot_cfg

    SimulationContext.clear_instance()
    sim_cfg = SimulationCfg(
        dt=DT, device=TEST_DEVICE, gravity=(0.0, 0.0, -GRAVITY), physics=NewtonCfg(solver_cfg=MJWarpSolverCfg())
    )
    sim = SimulationContext(sim_cfg)
    scene = InteractiveScene(SceneCfg(num_envs=num_envs, env_spacing=2.0))
    sim.reset()
    return sim, scene, scene["robot"]


def step(sim, scene, steps: int, before_step=None) -> None:
    """Step the scene ``steps`` physics steps, calling ``before_step()`` before each write."""
    for _ in range(steps):
        if before_step is not None:
            before_step()
        scene.write_data_to_sim()
        sim.step(render=False)
        scene.update(DT)


def full(value: float, num_envs: int, count: int = 4) -> torch.Tensor:
    """A float32 (num_envs, count) tensor filled with ``value``."""
    return torch.full((num_envs, count), float(value), dtype=torch.float32, device=TEST_DEVICE)
