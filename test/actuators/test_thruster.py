"""Thruster motor model: first-order rotor-speed lag, thrust limits, constants sampled in range, cfg checks."""

from __future__ import annotations

import math

import pytest
import torch
from conftest import TEST_DEVICE

from isaaclab_contrib.actuators import Thruster, ThrusterCfg

K = 1.5e-5
NAMES = ["a", "b"]


def _cfg(**overrides) -> ThrusterCfg:
    fields = dict(
        thruster_names_expr=NAMES,
        thrust_range=(0.0, 10.0),
        thrust_const_range=(K, K),
        tau_inc_range=(0.05, 0.05),
        tau_dec_range=(0.01, 0.01),
        torque_to_thrust_ratio=0.07,
        dt=0.005,
    )
    fields.update(overrides)
    return ThrusterCfg(**fields)


def _thruster(speed: float = 0.0, num_envs: int = 3, **overrides) -> Thruster:
    default = torch.full((num_envs, len(NAMES)), speed, device=TEST_DEVICE)
    return Thruster(_cfg(**overrides), thruster_names=NAMES, default_rotor_speed=default)


def test_rotor_speed_rises_with_the_increasing_time_constant():
    """From rest toward 4 N, the rotor speed after n steps is w*(1 - exp(-n dt / tau_inc)) (tau_inc 50 ms)."""
    thruster = _thruster()
    target = torch.full((3, 2), 4.0, device=TEST_DEVICE)
    for _ in range(20):
        thruster.compute(target)
    w_star = math.sqrt(4.0 / K)
    expected = w_star * (1.0 - math.exp(-20 * 0.005 / 0.05))
    assert torch.allclose(thruster.rotor_speed, torch.full((3, 2), expected, device=TEST_DEVICE), rtol=1e-5)


def test_rotor_speed_falls_with_the_decreasing_time_constant():
    """From 600 toward 1 N, the speed decays as w* + (w0 - w*) exp(-n dt / tau_dec) (tau_dec 10 ms)."""
    thruster = _thruster(speed=600.0)
    target = torch.full((3, 2), 1.0, device=TEST_DEVICE)
    for _ in range(3):
        thruster.compute(target)
    w_star = math.sqrt(1.0 / K)
    expected = w_star + (600.0 - w_star) * math.exp(-3 * 0.005 / 0.01)
    assert torch.allclose(thruster.rotor_speed, torch.full((3, 2), expected, device=TEST_DEVICE), rtol=1e-5)


def test_thrust_is_k_speed_squared_and_settles_at_the_clamped_target():
    """A 50 N target settles at the 10 N limit, and the thrust equals k w^2."""
    thruster = _thruster()
    for _ in range(400):
        thrust = thruster.compute(torch.full((3, 2), 50.0, device=TEST_DEVICE))
    assert torch.allclose(thrust, torch.full((3, 2), 10.0, device=TEST_DEVICE), rtol=1e-4)
    assert torch.allclose(thrust, K * thruster.rotor_speed.square())


def test_reset_samples_constants_in_range_and_restores_speed_of_masked_envs_only():
    """Reset of env 1 restores its default speed and resamples k within range; env 0 keeps its state."""
    thruster = _thruster(speed=100.0, thrust_const_range=(1e-5, 2e-5))
    assert bool(((thruster.thrust_const >= 1e-5) & (thruster.thrust_const <= 2e-5)).all())
    for _ in range(5):
        thruster.compute(torch.full((3, 2), 5.0, device=TEST_DEVICE))
    before = thruster.rotor_speed.clone()
    thruster.reset(torch.tensor([False, True, False], device=TEST_DEVICE))
    assert torch.equal(thruster.rotor_speed[0], before[0])
    assert torch.equal(thruster.rotor_speed[1], torch.full((2,), 100.0, device=TEST_DEVICE))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("thrust_const_range", (-1e-5, 1e-5)),
        ("tau_inc_range", (0.0, 0.05)),
        ("tau_dec_range", (0.02, 0.01)),
        ("thrust_range", (-1.0, 10.0)),
        ("torque_to_thrust_ratio", -0.07),
        ("dt", 0.0),
    ],
)
def test_bad_cfg_values_raise_naming_the_field(field, value):
    """Negative or empty ranges, non-positive time constants, a negative ratio or dt <= 0 raise naming the field."""
    with pytest.raises(ValueError, match=f"ThrusterCfg.{field}"):
        _thruster(**{field: value})
