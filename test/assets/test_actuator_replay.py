"""Actuator command path on Newton, CPU: replayed launches (one-launch CPU graphs) match plain wp.launch calls."""

from __future__ import annotations

import torch


def _drive(make_sim) -> tuple[torch.Tensor, ...]:
    """Ten physics steps of pole PD targets and cart efforts on four cartpoles (implicit actuators).

    Returns joint positions, velocities, computed and applied efforts.
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

    sim = make_sim(MJWarpSolverCfg(), device="cpu")
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
    state = (robot.data.joint_pos.torch.clone(), robot.data.joint_vel.torch.clone())
    telemetry = (robot.actuators.computed_effort.torch.clone(), robot.actuators.applied_effort.torch.clone())
    return *state, *telemetry


def test_replayed_commands_match_plain_launches(make_sim, monkeypatch):
    """The replayed command path leaves the same joint state and telemetry as plain wp.launch calls, bit for bit."""
    import warp as wp

    from isaaclab_newton.physics.recorded_launch import RecordedLaunches

    replayed = _drive(make_sim)
    assert replayed[0].abs().max() > 1e-3  # the commands moved the joints

    def plain(self, kernel, dim, args, *, fresh=()):
        wp.launch(kernel, dim=dim, inputs=list(args), device=self._device)

    monkeypatch.setattr(RecordedLaunches, "launch", plain)
    for got, expected in zip(replayed, _drive(make_sim), strict=True):
        assert torch.equal(got, expected)
