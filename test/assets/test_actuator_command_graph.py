"""Actuator command path on Newton, CPU: the Warp CPU graph of the command launches matches eager launches."""

from __future__ import annotations

import torch


def _drive(make_sim, *, use_cpu_graph: bool) -> tuple:
    """Ten physics steps of pole PD targets and cart efforts on four cartpoles (implicit actuators).

    Returns whether the command graph was replayed, then joint positions, velocities, computed and applied efforts.
    """
    from isaaclab.actuators import ImplicitActuatorCfg
    from isaaclab.assets import ArticulationCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.utils import configclass, replace

    from isaaclab_contrib.tasks.cartpole.robot_cfg import CARTPOLE_CFG
    from isaaclab_newton.physics import MJWarpSolverCfg

    robot_cfg = replace(CARTPOLE_CFG, prim_path="{ENV_REGEX_NS}/Robot")
    robot_cfg.actuators = {
        "cart": ImplicitActuatorCfg(joint_names_expr=["slider_to_cart"], stiffness=0.0, damping=0.0),
        "pole": ImplicitActuatorCfg(joint_names_expr=["cart_to_pole"], stiffness=10.0, damping=1.0),
    }

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        robot: ArticulationCfg = robot_cfg

    sim = make_sim(MJWarpSolverCfg(), device="cpu", use_cpu_graph=use_cpu_graph)
    scene = InteractiveScene(SceneCfg(num_envs=4, env_spacing=3.0))
    sim.reset()
    robot = scene["robot"]
    cart, pole = robot.joint_names.index("slider_to_cart"), robot.joint_names.index("cart_to_pole")
    command = robot.actuators.target_command
    for k in range(10):
        command.set_position_index(value=torch.full((4, 1), 0.05 * k), joint_ids=[pole])
        command.set_effort_index(value=torch.linspace(-1.0, 1.0, 4)[:, None] * k, joint_ids=[cart])
        scene.write_data_to_sim()
        sim.step(render=False)
        scene.update(sim.get_physics_dt())
    replayed = robot.actuators._command_graph._graph is not None
    state = (robot.data.joint_pos.torch.clone(), robot.data.joint_vel.torch.clone())
    telemetry = (robot.actuators.computed_effort.torch.clone(), robot.actuators.applied_effort.torch.clone())
    return replayed, *state, *telemetry


def test_command_graph_matches_eager_commands(make_sim):
    """With the CPU graph on, the command path replays a graph and leaves the same state and telemetry, bit for bit."""
    replayed, *graph = _drive(make_sim, use_cpu_graph=True)
    eager_replayed, *eager = _drive(make_sim, use_cpu_graph=False)
    assert replayed and not eager_replayed
    assert graph[0].abs().max() > 1e-3  # the commands moved the joints
    for got, expected in zip(graph, eager, strict=True):
        assert torch.equal(got, expected)
