"""Lee geometric controllers closing the loop on the test quadrotor (thrusts through the allocation matrix)."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE

from . import multirotor_scene as ms

GAINS = ms.ARL_LEE_GAINS


@pytest.fixture
def hovering(tmp_path):
    """Two quadrotors at 2 m with rotors at hover speed; (sim, scene, robot)."""
    from isaaclab.sim import SimulationContext

    per_rotor = ms.total_mass() * ms.GRAVITY / 4
    yield ms.make_scene(ms.multirotor_cfg(tmp_path, rps=ms.hover_speed(per_rotor)))
    SimulationContext.clear_instance()


def _fly(sim, scene, robot, controller, command: torch.Tensor, steps: int) -> None:
    def control():
        thrust = robot.allocate(controller.compute(command)).clamp(min=0.0)
        robot.set_thrust_target(thrust)

    ms.step(sim, scene, steps, control)


def test_velocity_controller_drives_the_velocity_error_to_zero(hovering):
    """From hover, a (1, -0.5, 0.5) m/s command is tracked within 5 % of the initial error after 3 s."""
    from isaaclab_contrib.controllers import LeeVelControllerCfg

    sim, scene, robot = hovering
    cfg = LeeVelControllerCfg(**GAINS)
    controller = cfg.class_type(cfg, robot, 2, TEST_DEVICE)
    command = torch.tensor([[1.0, -0.5, 0.5, 0.0]] * 2, device=TEST_DEVICE)
    initial = command[:, :3].norm(dim=-1)
    _fly(sim, scene, robot, controller, command, 600)
    error = (command[:, :3] - robot.data.root_lin_vel_w.torch).norm(dim=-1)
    assert bool((error < 0.05 * initial).all()), error


def test_velocity_controller_tracks_the_yaw_rate_command(hovering):
    """A 0.5 rad/s yaw-rate command at zero velocity is reached within 5 % after 3 s."""
    from isaaclab_contrib.controllers import LeeVelController, LeeVelControllerCfg

    sim, scene, robot = hovering
    controller = LeeVelController(LeeVelControllerCfg(**GAINS), robot, 2, TEST_DEVICE)
    _fly(sim, scene, robot, controller, torch.tensor([[0.0, 0.0, 0.0, 0.5]] * 2, device=TEST_DEVICE), 600)
    rate = robot.data.root_ang_vel_w.torch[:, 2]
    assert torch.allclose(rate, torch.full((2,), 0.5, device=TEST_DEVICE), rtol=0.05), rate


def test_position_controller_reaches_the_set_point(hovering):
    """A set point 0.5 m away in x and z is reached within 3 cm after 4 s."""
    from isaaclab_contrib.controllers import LeePosController, LeePosControllerCfg

    sim, scene, robot = hovering
    cfg = LeePosControllerCfg(K_pos_range=((2.5, 2.5, 1.5), (3.5, 3.5, 2.0)), **GAINS)
    controller = LeePosController(cfg, robot, 2, TEST_DEVICE)
    target = robot.data.root_pos_w.torch + torch.tensor([0.5, 0.0, 0.5], device=TEST_DEVICE)
    command = torch.cat((target, torch.zeros(2, 1, device=TEST_DEVICE)), -1)
    _fly(sim, scene, robot, controller, command, 800)
    error = (target - robot.data.root_pos_w.torch).norm(dim=-1)
    assert bool((error < 0.03).all()), error


def test_malformed_gain_range_raises(hovering):
    """A gain range whose low exceeds its high raises naming the field."""
    from isaaclab_contrib.controllers import LeeVelController, LeeVelControllerCfg

    _, _, robot = hovering
    cfg = LeeVelControllerCfg(**{**GAINS, "K_vel_range": ((3.0, 3.0, 3.0), (1.0, 1.0, 1.0))})
    with pytest.raises(ValueError, match="LeeVelControllerCfg.K_vel_range"):
        LeeVelController(cfg, robot, 2, TEST_DEVICE)
