"""Actuator command path on Newton, CPU: replayed launches (one-launch CPU graphs) match plain wp.launch calls."""

from __future__ import annotations

import torch
from conftest import TEST_DEVICE, implicit_cartpole_actuators


def _drive(cartpole_scene_factory) -> tuple[torch.Tensor, ...]:
    """Ten physics steps of pole PD targets and cart efforts on four cartpoles (implicit actuators).

    Returns joint positions, velocities, computed and applied efforts.
    """
    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg

    actuators = implicit_cartpole_actuators(cart_damping=0.0, pole_stiffness=10.0, pole_damping=1.0)
    physics = NewtonCfg(solver_cfg=MJWarpSolverCfg())
    sim, scene, robot = cartpole_scene_factory(num_envs=4, actuators=actuators, physics=physics)
    cart, pole = robot.joint_names.index("slider_to_cart"), robot.joint_names.index("cart_to_pole")
    command = robot.actuators.target_command
    for k in range(10):
        command.set_position_index(value=torch.full((4, 1), 0.05 * k, device=TEST_DEVICE), joint_ids=[pole])
        command.set_effort_index(value=torch.linspace(-1.0, 1.0, 4, device=TEST_DEVICE)[:, None] * k, joint_ids=[cart])
        scene.write_data_to_sim()
        sim.step(render=False)
        scene.update(sim.get_physics_dt())
    state = (robot.data.joint_pos.torch.clone(), robot.data.joint_vel.torch.clone())
    telemetry = (robot.actuators.computed_effort.torch.clone(), robot.actuators.applied_effort.torch.clone())
    return *state, *telemetry


def test_replayed_commands_match_plain_launches(cartpole_scene_factory, monkeypatch):
    """The replayed command path leaves the same joint state and telemetry as plain wp.launch calls, bit for bit."""
    import warp as wp

    from isaaclab_newton.physics.recorded_launch import RecordedLaunches

    replayed = _drive(cartpole_scene_factory)
    assert replayed[0].abs().max() > 1e-3  # the commands moved the joints

    def plain(self, kernel, dim, args, *, fresh=()):
        wp.launch(kernel, dim=dim, inputs=list(args), device=self._device)

    monkeypatch.setattr(RecordedLaunches, "launch", plain)
    for got, expected in zip(replayed, _drive(cartpole_scene_factory), strict=True):
        assert torch.equal(got, expected)
