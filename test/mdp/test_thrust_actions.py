"""Multirotor action terms on the test quadrotor: thrust targets from actions, navigation commands flown."""

from __future__ import annotations

import types

import pytest
import torch
from conftest import TEST_DEVICE
from controllers import multirotor_scene as ms


@pytest.fixture
def hovering(tmp_path):
    """Two quadrotors at 2 m with rotors at hover speed, and a minimal env holding them; (sim, scene, env)."""
    from isaaclab.sim import SimulationContext

    per_rotor = ms.total_mass() * ms.GRAVITY / 4
    sim, scene, robot = ms.make_scene(ms.multirotor_cfg(tmp_path, rps=ms.hover_speed(per_rotor)))
    yield sim, scene, types.SimpleNamespace(num_envs=2, device=TEST_DEVICE, scene={"robot": robot})
    SimulationContext.clear_instance()


def test_thrust_action_scales_offsets_and_clips_per_thruster(hovering):
    """Actions (-1, 0, 1, 5) with scale 3 N and offset 3 N give (0, 3, 6, 6) N under a 0-6 N clip."""
    from isaaclab_contrib.mdp import ThrustActionCfg

    _, _, env = hovering
    clip = {name: (0.0, 6.0) for name in ms.ROTORS}
    cfg = ThrustActionCfg(asset_name="robot", scale=3.0, offset=3.0, clip=clip)
    term = cfg.class_type(cfg, env)
    term.process_actions(torch.tensor([[-1.0, 0.0, 1.0, 5.0]] * 2, device=TEST_DEVICE))
    term.apply_actions()
    expected = torch.tensor([[0.0, 3.0, 6.0, 6.0]] * 2, device=TEST_DEVICE)
    assert term.action_dim == 4
    assert torch.equal(env.scene["robot"].data.thrust_target.torch, expected)


def test_navigation_action_flies_forward_at_the_commanded_speed(hovering):
    """Action (1, 0, 0) (full speed, level, no yaw) flies at max_magnitude 1.5 m/s along the heading within 5 %."""
    from isaaclab_contrib.controllers import LeeVelControllerCfg
    from isaaclab_contrib.mdp import NavigationActionCfg

    sim, scene, env = hovering
    cfg = NavigationActionCfg(
        asset_name="robot", controller_cfg=LeeVelControllerCfg(**ms.ARL_LEE_GAINS), max_magnitude=1.5
    )
    term = cfg.class_type(cfg, env)
    term.process_actions(torch.tensor([[1.0, 0.0, 0.0]] * 2, device=TEST_DEVICE))
    assert torch.allclose(term.prev_commands, torch.tensor([[1.5, 0.0, 0.0, 0.0]] * 2, device=TEST_DEVICE))
    ms.step(sim, scene, 600, term.apply_actions)
    vel = env.scene["robot"].data.root_lin_vel_w.torch
    assert torch.allclose(vel, torch.tensor([[1.5, 0.0, 0.0]] * 2, device=TEST_DEVICE), atol=0.075), vel
