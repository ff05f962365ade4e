"""Mask forms of reset events: grouped joint resets against core's events, order, clamping, ranges, own calls."""

from __future__ import annotations

import isaaclab.envs.mdp as mdp
import pytest
import torch
from conftest import TEST_DEVICE
from isaaclab.managers import EventTermCfg, SceneEntityCfg

from isaaclab_contrib.envs.mask_events import (
    reset_joints_by_offset_mask,
    reset_joints_by_scale_mask,
    run_reset_events_mask,
)

from .conftest import _close, _make_env

NUM_ENVS = 8
MASK = torch.tensor([True, False, True, True, False, True, False, True], device=TEST_DEVICE)


@pytest.fixture(scope="module")
def env():
    env = _make_env("Isaac-Cartpole-v0", NUM_ENVS)
    env.reset(seed=0)
    yield env
    _close(env)


def _event(env, func, joints: list[str] | None, position_range, velocity_range) -> EventTermCfg:
    """A reset event term of ``func`` on ``joints`` of the robot (``None``: every joint), its entity resolved."""
    asset_cfg = SceneEntityCfg("robot") if joints is None else SceneEntityCfg("robot", joint_names=joints)
    asset_cfg.resolve(env.scene)
    params = {"position_range": position_range, "velocity_range": velocity_range, "asset_cfg": asset_cfg}
    return EventTermCfg(func=func, mode="reset", params=params)


def _scramble(env) -> tuple[torch.Tensor, torch.Tensor]:
    """Write distinct joint states into every env (so that kept envs are told apart) and return copies of them."""
    robot = env.scene["robot"]
    pos = torch.linspace(-0.5, 0.5, NUM_ENVS * robot.num_joints, device=TEST_DEVICE).reshape(NUM_ENVS, -1)
    robot.write_joint_position_to_sim_index(position=pos)
    robot.write_joint_velocity_to_sim_index(velocity=-pos)
    return robot.data.joint_pos.torch.clone(), robot.data.joint_vel.torch.clone()


def _joint_state(env) -> tuple[torch.Tensor, torch.Tensor]:
    robot = env.scene["robot"]
    return robot.data.joint_pos.torch.clone(), robot.data.joint_vel.torch.clone()


def _core_in_order(env, terms: list[EventTermCfg]) -> tuple[torch.Tensor, torch.Tensor]:
    """The joint state after core's index forms of ``terms`` ran, in order, on the envs of ``MASK``."""
    env_ids = MASK.nonzero().squeeze(-1)
    for term in terms:
        term.func(env, env_ids, **term.params)
    return _joint_state(env)


def test_grouped_joint_resets_follow_each_events_ranges_on_one_draw(env):
    """Two events on disjoint joints: each joint is its event's formula on the group's one torch.rand draw."""
    robot = env.scene["robot"]
    cart, pole = robot.find_joints("slider_to_cart")[0][0], robot.find_joints("cart_to_pole")[0][0]
    terms = [
        _event(env, mdp.reset_joints_by_offset, ["slider_to_cart"], (-1.0, 1.0), (-0.5, 0.5)),
        _event(env, mdp.reset_joints_by_offset, ["cart_to_pole"], (-0.7, 0.7), (-0.3, 0.3)),
    ]
    before_pos, before_vel = _scramble(env)
    torch.manual_seed(3)
    run_reset_events_mask(env, MASK, terms)
    pos, vel = _joint_state(env)
    torch.manual_seed(3)
    draw = torch.rand((NUM_ENVS, 2, robot.num_joints), device=TEST_DEVICE)
    default_pos, default_vel = robot.data.default_joint_pos.torch, robot.data.default_joint_vel.torch
    for joint, term in ((cart, terms[0]), (pole, terms[1])):
        (p0, p1), (v0, v1) = term.params["position_range"], term.params["velocity_range"]
        want_pos = default_pos[:, joint] + draw[:, 0, joint] * (p1 - p0) + p0
        want_vel = default_vel[:, joint] + draw[:, 1, joint] * (v1 - v0) + v0
        torch.testing.assert_close(pos[MASK, joint], want_pos[MASK], atol=1e-6, rtol=0.0)
        torch.testing.assert_close(vel[MASK, joint], want_vel[MASK], atol=1e-6, rtol=0.0)
    assert torch.equal(pos[~MASK], before_pos[~MASK]) and torch.equal(vel[~MASK], before_vel[~MASK])


def test_grouped_joint_resets_write_positions_and_velocities_once(env, monkeypatch):
    """Consecutive joint resets of one articulation write positions once and velocities once, over both joints."""
    robot = env.scene["robot"]
    calls = []
    for name in ("write_joint_position_to_sim_mask", "write_joint_velocity_to_sim_mask"):
        writer = getattr(robot, name)
        monkeypatch.setattr(robot, name, lambda *, _w=writer, _n=name, **kw: (calls.append((_n, kw)), _w(**kw)))
    terms = [
        _event(env, mdp.reset_joints_by_offset, ["slider_to_cart"], (-1.0, 1.0), (-0.5, 0.5)),
        _event(env, mdp.reset_joints_by_scale, ["cart_to_pole"], (0.5, 1.5), (0.5, 1.5)),
    ]
    run_reset_events_mask(env, MASK, terms)
    assert [name for name, _ in calls] == ["write_joint_position_to_sim_mask", "write_joint_velocity_to_sim_mask"]
    for _, kwargs in calls:
        joint_mask = kwargs["joint_mask"]
        assert joint_mask is None or bool(joint_mask.all()), "the union of the events' joints is written"


def test_overlapping_joint_resets_later_event_wins(env):
    """An event on every joint, then one on the pole: the pole takes the later event's value, as in core's order."""
    terms = [
        _event(env, mdp.reset_joints_by_offset, None, (0.3, 0.3), (-0.2, -0.2)),
        _event(env, mdp.reset_joints_by_offset, ["cart_to_pole"], (0.1, 0.1), (0.4, 0.4)),
    ]
    _scramble(env)
    want_pos, want_vel = _core_in_order(env, terms)
    _scramble(env)
    run_reset_events_mask(env, MASK, terms)
    pos, vel = _joint_state(env)
    assert torch.equal(pos, want_pos) and torch.equal(vel, want_vel)


def test_scale_and_offset_events_in_one_group_keep_their_modes(env):
    """A scale event and an offset event in one group give core's values for their joints (defaults non-zero)."""
    data = env.scene["robot"].data
    saved = data.default_joint_pos.torch.clone(), data.default_joint_vel.torch.clone()
    data.default_joint_pos.torch[:] = torch.tensor([0.2, -0.1], device=TEST_DEVICE)
    data.default_joint_vel.torch[:] = torch.tensor([0.5, 0.25], device=TEST_DEVICE)
    terms = [
        _event(env, mdp.reset_joints_by_scale, ["slider_to_cart"], (2.0, 2.0), (3.0, 3.0)),
        _event(env, mdp.reset_joints_by_offset, ["cart_to_pole"], (0.1, 0.1), (0.4, 0.4)),
    ]
    try:
        _scramble(env)
        want_pos, want_vel = _core_in_order(env, terms)
        _scramble(env)
        run_reset_events_mask(env, MASK, terms)
        pos, vel = _joint_state(env)
    finally:
        data.default_joint_pos.torch.copy_(saved[0])
        data.default_joint_vel.torch.copy_(saved[1])
    assert torch.equal(pos, want_pos) and torch.equal(vel, want_vel)
    assert not torch.equal(pos[MASK, 0], saved[0][MASK, 0]), "the scale must act on the non-zero default"


def test_joint_resets_clamp_to_soft_limits(env):
    """Offsets far past the limits give the cart's soft position limits and +- the soft velocity limits."""
    data = env.scene["robot"].data
    limits, vel_limits = data.soft_joint_pos_limits.torch, data.soft_joint_vel_limits.torch
    assert bool(torch.isfinite(vel_limits).all()) and bool((limits[:, 0].abs() < 1e3).all())  # the cart's rail
    for sign, bound in ((1.0, 1), (-1.0, 0)):
        terms = [
            _event(env, mdp.reset_joints_by_offset, ["slider_to_cart"], (sign * 1e3,) * 2, (sign * 1e6,) * 2),
            _event(env, mdp.reset_joints_by_offset, ["cart_to_pole"], (0.0, 0.0), (-sign * 1e6,) * 2),
        ]
        run_reset_events_mask(env, MASK, terms)
        pos, vel = _joint_state(env)
        assert torch.equal(pos[MASK, 0], limits[MASK, 0, bound])
        assert torch.equal(vel[MASK, 0], sign * vel_limits[MASK, 0]) and torch.equal(
            vel[MASK, 1], -sign * vel_limits[MASK, 1]
        )


def test_event_between_joint_resets_sees_only_the_earlier_one(env):
    """A non-joint event between two joint resets runs between them: it sees the first reset, not the second."""
    seen = []

    def record(env, env_mask):
        seen.append(_joint_state(env)[0])

    record.mask_form = record
    terms = [
        _event(env, mdp.reset_joints_by_offset, ["slider_to_cart"], (0.3, 0.3), (0.0, 0.0)),
        EventTermCfg(func=record, mode="reset", params={}),
        _event(env, mdp.reset_joints_by_offset, ["cart_to_pole"], (0.1, 0.1), (0.0, 0.0)),
    ]
    before_pos, _ = _scramble(env)
    run_reset_events_mask(env, MASK, terms)
    default = env.scene["robot"].data.default_joint_pos.torch
    torch.testing.assert_close(seen[0][MASK, 0], default[MASK, 0] + 0.3, atol=1e-6, rtol=0.0)
    assert torch.equal(seen[0][:, 1], before_pos[:, 1]), "the pole is reset after the event"
    torch.testing.assert_close(_joint_state(env)[0][MASK, 1], default[MASK, 1] + 0.1, atol=1e-6, rtol=0.0)


def test_groups_sharing_an_entity_cfg_keep_ranges_of_their_own(env):
    """Two joint resets on one SceneEntityCfg object, split by another event, keep their own ranges across resets."""

    def nothing(env, env_mask):
        pass

    nothing.mask_form = nothing
    first = _event(env, mdp.reset_joints_by_offset, ["slider_to_cart"], (0.3, 0.3), (0.0, 0.0))
    second = EventTermCfg(func=mdp.reset_joints_by_offset, mode="reset", params=dict(first.params))
    second.params["position_range"] = (-0.2, -0.2)  # same asset_cfg object, other ranges
    terms = [first, EventTermCfg(func=nothing, mode="reset", params={}), second]
    env.__dict__.pop("_mask_event_joint_groups", None)
    for _ in range(2):
        run_reset_events_mask(env, MASK, terms)
    groups = env._mask_event_joint_groups  # private: the joint groups under test
    assert len(groups) == 2
    # private: the joint groups under test
    assert {group._ranges.key[0][1] for group in groups.values()} == {0.3, -0.2}, "each group kept its own ranges"
    default = env.scene["robot"].data.default_joint_pos.torch
    torch.testing.assert_close(_joint_state(env)[0][MASK, 0], default[MASK, 0] - 0.2, atol=1e-6, rtol=0.0)


def test_changed_ranges_apply_on_the_next_reset(env):
    """Ranges edited in the term's params between two (eager) resets are used by the second one."""
    term = _event(env, mdp.reset_joints_by_offset, ["slider_to_cart"], (0.3, 0.3), (0.0, 0.0))
    default = env.scene["robot"].data.default_joint_pos.torch
    run_reset_events_mask(env, MASK, [term])
    term.params["position_range"] = (-0.6, -0.6)
    run_reset_events_mask(env, MASK, [term])
    torch.testing.assert_close(_joint_state(env)[0][MASK, 0], default[MASK, 0] - 0.6, atol=1e-6, rtol=0.0)


def test_public_mask_forms_called_on_their_own_reset_only_their_joints_and_envs(env):
    """reset_joints_by_offset_mask / _scale_mask called directly change the masked envs' joints they name only."""
    cart_cfg = SceneEntityCfg("robot", joint_names=["slider_to_cart"])
    cart_cfg.resolve(env.scene)
    before_pos, before_vel = _scramble(env)
    reset_joints_by_offset_mask(env, MASK, (0.25, 0.25), (0.5, 0.5), asset_cfg=cart_cfg)
    pos, vel = _joint_state(env)
    default = env.scene["robot"].data.default_joint_pos.torch
    torch.testing.assert_close(pos[MASK, 0], default[MASK, 0] + 0.25, atol=1e-6, rtol=0.0)
    assert torch.equal(pos[:, 1], before_pos[:, 1]) and torch.equal(pos[~MASK], before_pos[~MASK])
    reset_joints_by_scale_mask(env, MASK, (0.0, 0.0), (0.0, 0.0))  # every joint of "robot": zero factors
    pos, vel = _joint_state(env)
    assert torch.equal(pos[MASK], torch.zeros_like(pos[MASK])) and torch.equal(vel[MASK], torch.zeros_like(vel[MASK]))
    assert torch.equal(vel[~MASK], before_vel[~MASK])


def test_joint_reset_with_unknown_params_is_rejected(env):
    """A joint reset event whose params the form does not take raises a TypeError naming the params."""
    term = _event(env, mdp.reset_joints_by_offset, ["slider_to_cart"], (0.0, 0.0), (0.0, 0.0))
    term.params["operation"] = "add"
    with pytest.raises(TypeError, match="operation"):
        run_reset_events_mask(env, MASK, [term])
