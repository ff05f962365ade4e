"""Fixed tendons of an MJCF articulation: names and properties read from the model, writers change the physics.

The scene: two links on hinges ``a`` and ``b`` side by side under a fixed base, coupled by the fixed tendon
``couple`` (length ``q_a - q_b``, limited to +-1 mm), as the Shadow hand couples its distal and middle joints. Only
``a`` is driven (PD 20 N m/rad, 2 N m s/rad); ``b`` has passive damping only (0.05 N m s/rad) and gravity is off,
so ``b`` moves only through the tendon.
"""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE, step_scene

NUM_ENVS = 2
TARGET = 0.5  # [rad]

_MJCF = """<mujoco model="coupled">
  <compiler angle="radian"/>
  <option gravity="0 0 0"/>
  <worldbody>
    <body name="base" pos="0 0 1">
      <geom type="box" size="0.05 0.05 0.05" mass="1"/>
      <body name="link_a" pos="0.2 0 0">
        <joint name="a" type="hinge" axis="0 1 0" range="-2 2" limited="true"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.2" size="0.02" mass="0.1" contype="0" conaffinity="0"/>
      </body>
      <body name="link_b" pos="-0.2 0 0">
        <joint name="b" type="hinge" axis="0 1 0" range="-2 2" limited="true" damping="0.05"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.2" size="0.02" mass="0.1" contype="0" conaffinity="0"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="couple" limited="true" range="-0.001 0.001" stiffness="0.5">
      <joint joint="a" coef="1"/>
      <joint joint="b" coef="-1"/>
    </fixed>
  </tendon>
</mujoco>
"""


@pytest.fixture
def coupled(tmp_path):
    """Two envs of the coupled pair on MuJoCo Warp; yields (sim, scene, robot)."""
    from isaaclab.actuators import ImplicitActuatorCfg
    from isaaclab.assets import ArticulationCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg
    from isaaclab_newton.sim import MjcfFileCfg

    path = tmp_path / "coupled.xml"
    path.write_text(_MJCF)

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        robot = ArticulationCfg(
            prim_path="{ENV_REGEX_NS}/Robot",
            spawn=MjcfFileCfg(asset_path=str(path), floating=False),
            init_state=ArticulationCfg.InitialStateCfg(pos=(0.0, 0.0, 1.0)),
            actuators={"a": ImplicitActuatorCfg(joint_names_expr=["a"], stiffness=20.0, damping=2.0)},
        )

    SimulationContext.clear_instance()
    physics = NewtonCfg(solver_cfg=MJWarpSolverCfg())
    sim = SimulationContext(SimulationCfg(dt=1 / 240, device=TEST_DEVICE, gravity=(0.0, 0.0, 0.0), physics=physics))
    scene = InteractiveScene(SceneCfg(num_envs=NUM_ENVS, env_spacing=2.0))
    sim.reset()
    yield sim, scene, scene["robot"]
    sim.clear_instance()


def _drive_a(sim, scene, robot, steps: int = 480) -> tuple[torch.Tensor, torch.Tensor]:
    """Drive joint ``a`` to TARGET for ``steps`` physics steps; the final (q_a, q_b) of every env."""
    a, b = robot.find_joints("a")[0][0], robot.find_joints("b")[0][0]
    target = robot.data.default_joint_pos.torch.clone()
    target[:, a] = TARGET
    robot.actuators.target_command.set_position_index(value=target)
    step_scene(sim, scene, steps)
    q = robot.data.joint_pos.torch
    return q[:, a], q[:, b]


def test_tendon_names_and_properties_come_from_the_mjcf(coupled):
    """One fixed tendon 'couple' per env, with the file's range (+-1 mm) and stiffness (0.5 N/m)."""
    _, _, robot = coupled
    assert robot.num_fixed_tendons == 1 and robot.fixed_tendon_names == ["couple"]
    assert robot.find_fixed_tendons("coup.*") == ([0], ["couple"])
    limits = robot.data.fixed_tendon_pos_limits.torch
    assert limits.shape == (NUM_ENVS, 1, 2)
    assert torch.allclose(limits, torch.tensor([-0.001, 0.001], device=TEST_DEVICE).expand_as(limits))
    assert bool((robot.data.fixed_tendon_limit_stiffness.torch > 0).all())  # the limit's gain, as Newton reports it
    assert torch.allclose(robot.data.fixed_tendon_stiffness.torch, torch.full((NUM_ENVS, 1), 0.5, device=TEST_DEVICE))


def test_tendon_couples_the_undriven_joint(coupled):
    """Driving only ``a`` to 0.5 rad carries ``b`` along: q_a - q_b stays within the tendon's limit (+ slack)."""
    sim, scene, robot = coupled
    q_a, q_b = _drive_a(sim, scene, robot)
    assert torch.allclose(q_a, torch.full_like(q_a, TARGET), atol=0.05), q_a
    assert torch.allclose(q_b, q_a, atol=0.01), (q_a, q_b)


def test_widened_limit_written_by_mask_decouples_the_joints(coupled):
    """A +-10 m range and no spring written in env 1 only: there ``b`` rests while ``a`` turns; env 0 stays coupled."""
    import warp as wp

    sim, scene, robot = coupled
    limits = robot.data.fixed_tendon_pos_limits.torch.clone()
    limits[:] = torch.tensor([-10.0, 10.0], device=TEST_DEVICE)
    env_mask = wp.array([False, True], dtype=wp.bool, device=TEST_DEVICE)
    robot.set_fixed_tendon_position_limit_mask(limit=limits, env_mask=env_mask)
    robot.set_fixed_tendon_stiffness_mask(stiffness=torch.zeros((NUM_ENVS, 1), device=TEST_DEVICE), env_mask=env_mask)
    robot.write_fixed_tendon_properties_to_sim_mask(env_mask=env_mask)
    q_a, q_b = _drive_a(sim, scene, robot)
    assert robot.data.fixed_tendon_pos_limits.torch[0, 0, 1].item() == pytest.approx(0.001)
    assert torch.allclose(q_a, torch.full_like(q_a, TARGET), atol=0.05), q_a
    assert abs(q_b[0].item() - q_a[0].item()) < 0.01 and abs(q_b[1].item()) < 0.01, (q_a, q_b)


def test_tendon_stiffness_written_by_index_pulls_the_pair_together(coupled):
    """Range widened everywhere, a 50 N/m tendon spring in env 1 only: there ``b`` follows ``a``, in env 0 it rests."""
    sim, scene, robot = coupled
    wide = torch.tensor([[[-10.0, 10.0]]] * NUM_ENVS, device=TEST_DEVICE)
    robot.set_fixed_tendon_position_limit_index(limit=wide)
    robot.set_fixed_tendon_stiffness_index(stiffness=torch.zeros((NUM_ENVS, 1), device=TEST_DEVICE))
    robot.set_fixed_tendon_stiffness_index(stiffness=torch.full((1, 1), 50.0, device=TEST_DEVICE), env_ids=[1])
    robot.write_fixed_tendon_properties_to_sim_index()
    q_a, q_b = _drive_a(sim, scene, robot)
    # env 1 at rest: nothing but the spring acts on b, so it sits at the spring's rest length (q_b = q_a)
    assert abs(q_b[0].item()) < 0.01 and abs(q_b[1].item() - q_a[1].item()) < 0.01, (q_a, q_b)


def test_limit_stiffness_write_keeps_the_coupling(coupled):
    """The reported limit gain written back (env 1, force-space mode) still couples ``b`` to ``a``."""
    from isaaclab_newton.physics import NewtonManager

    sim, scene, robot = coupled
    gain = robot.data.fixed_tendon_limit_stiffness.torch[1:2].clone()
    robot.set_fixed_tendon_stiffness_index(stiffness=torch.zeros((NUM_ENVS, 1), device=TEST_DEVICE))
    robot.set_fixed_tendon_limit_stiffness_index(limit_stiffness=gain, env_ids=[1])
    robot.write_fixed_tendon_properties_to_sim_index()
    rows = robot._fixed_tendons.rows[:, 0].cpu()
    assert NewtonManager.get_model().mujoco.tendon_solref_limit_mode.numpy()[rows].tolist()[1] == 0
    q_a, q_b = _drive_a(sim, scene, robot)
    assert torch.allclose(q_b, q_a, atol=0.01), (q_a, q_b)
