"""Franka manipulation tasks (reach, cube lift, drawer): they build, reset and step; scripted Cartesian control lifts
and holds the cube, opens the drawer and converges the IK reach; the startup randomization lands per env."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE

from .manipulation_scripts import HAND_DOWN, run_pose, scripted_env

NUM_ENVS = 2
STEPS = 10

TASKS = [
    "Isaac-Reach-Franka-v0",
    "Isaac-Reach-Franka-IK-v0",
    "Isaac-Reach-Franka-Hold-v0",
    "Isaac-Lift-Cube-Franka-v0",
    "Isaac-Open-Drawer-Franka-v0",
]


def _grasp_point(env, offset=None):
    from isaaclab.managers import SceneEntityCfg

    from isaaclab_contrib.tasks.manipulation.mdp import grasp_point_w
    from isaaclab_contrib.tasks.manipulation.panda_cfg import PANDA_GRASP_OFFSET, PANDA_HAND_BODY

    hand = SceneEntityCfg("robot", body_names=PANDA_HAND_BODY)
    hand.resolve(env.scene)
    return grasp_point_w(env, hand, PANDA_GRASP_OFFSET if offset is None else offset)[0]


def test_tasks_are_registered_with_rsl_rl_runners():
    """The four ids are ours (list_envs lists them) and each registers an rsl-rl runner config."""
    from isaaclab_contrib.app.env_factory import load_agent_cfg
    from isaaclab_contrib.app.task_ids import our_task_ids

    assert set(TASKS) <= set(our_task_ids())
    assert [load_agent_cfg(task).experiment_name for task in TASKS] == [
        "reach_franka",
        "reach_franka_ik",
        "reach_franka_hold",
        "lift_cube_franka",
        "franka_open_drawer",
    ]


@pytest.mark.parametrize("task", TASKS[:2])
def test_reach_contact_capacity_fits_the_offline_panda(task):
    """The swapped reach cfgs hold 64 contacts and 300 rows per world (upstream's 20/100 overflowed in training)."""
    from isaaclab_contrib.app.env_factory import load_env_cfg

    solver_cfg = load_env_cfg(task).sim.physics.solver_cfg
    assert (solver_cfg.nconmax, solver_cfg.njmax) == (64, 300)


@pytest.mark.parametrize("task", TASKS)
def test_task_builds_resets_and_steps(task):
    """2 envs on the test device take 10 uniform random actions in [-1, 1]; observations and rewards stay finite;
    every task runs on the mask path."""
    from isaaclab_contrib.app.env_factory import make_env

    env = make_env(task, num_envs=NUM_ENVS, device=TEST_DEVICE)
    try:
        base = env.unwrapped
        base.mask_reset_on_cpu = True
        assert base.mask_reset_unavailable_reason() is None
        obs, _ = env.reset(seed=0)
        generator = torch.Generator().manual_seed(0)
        for _ in range(STEPS):
            action = 2.0 * torch.rand(base.action_space.shape, generator=generator) - 1.0
            obs, reward, _, _, _ = env.step(action.to(TEST_DEVICE))
            assert torch.isfinite(obs["policy"]).all() and torch.isfinite(reward).all()
        assert base.scene["robot"].num_joints == 9
    finally:
        env.close()


@pytest.mark.parametrize(
    ("task", "term"),
    [("Isaac-Lift-Cube-Franka-v0", "reaching_object"), ("Isaac-Open-Drawer-Franka-v0", "approach_handle")],
)
def test_reach_rewards_measure_from_the_hand_the_managers_resolved(task, term):
    """The approach reward's grasp point is link 7's, 0.2 m or more from the robot's base, also with the body ids
    the env's managers hold (device tensors, not the lists a bare resolve gives)."""
    from isaaclab_contrib.app.env_factory import make_env
    from isaaclab_contrib.tasks.manipulation.mdp import grasp_point_w

    env = make_env(task, num_envs=NUM_ENVS, device=TEST_DEVICE)
    try:
        base = env.unwrapped
        env.reset(seed=0)
        hand = base.reward_manager.get_term_cfg(term).params["hand_cfg"]
        assert isinstance(hand.body_ids, torch.Tensor)
        point = grasp_point_w(base, hand)
        torch.testing.assert_close(point[0], _grasp_point(base))
        root = base.scene["robot"].data.root_pos_w.torch
        assert ((point - root).norm(dim=1) > 0.2).all()
    finally:
        env.close()


def test_hold_reach_keeps_one_goal_without_the_success_termination():
    """Isaac-Reach-Franka-Hold-v0 is upstream's hold preset: no success termination, one goal per episode (never
    resampled within it), the pose error observed, a per-step success reward; its runner trains 3000 iterations."""
    from isaaclab_contrib.app.env_factory import load_agent_cfg, load_env_cfg

    cfg = load_env_cfg("Isaac-Reach-Franka-Hold-v0")
    assert cfg.terminations.success is None
    assert min(cfg.commands.ee_pose.resampling_time_range) > cfg.episode_length_s
    assert cfg.observations.policy.ee_target_error is not None
    assert cfg.rewards.success.func.__name__ == "pose_command_success"
    assert load_agent_cfg("Isaac-Reach-Franka-Hold-v0").max_iterations == 3000


def test_reach_curriculum_raises_penalty_weights_after_its_step_count():
    """Upstream's reach curriculum (core's modify_reward_weight, 4,500 steps) sets the action-rate and joint-velocity
    weights on the first step past its count, and the mask reset logs them."""
    from isaaclab_contrib.app.env_factory import make_env

    env = make_env("Isaac-Reach-Franka-v0", num_envs=NUM_ENVS, device=TEST_DEVICE)
    try:
        base = env.unwrapped
        base.mask_reset_on_cpu = True
        env.reset(seed=0)
        rewards = base.reward_manager
        assert rewards.get_term_cfg("action_rate").weight == -1.0e-4
        base.common_step_counter = 4500
        action = torch.zeros(base.action_space.shape, device=TEST_DEVICE)
        env.step(action)  # counter 4500: not past it yet
        assert rewards.get_term_cfg("action_rate").weight == -1.0e-4
        base.episode_length_buf[:] = base.max_episode_length  # every env times out and resets on this step
        _, _, _, _, extras = env.step(action)
        assert rewards.get_term_cfg("action_rate").weight == -0.005
        assert rewards.get_term_cfg("joint_vel").weight == -0.001
        assert extras["log"]["Curriculum/action_rate"].item() == pytest.approx(-0.005)
    finally:
        env.close()


def test_lift_randomization_and_mask_reset_land_per_env():
    """The cube's mass is drawn per env within x0.5-1.5 of 0.1 kg and the arm's stiffness within x0.8-1.2 of its
    870 / 120 N m/rad (core's terms on Newton's per-world model rows); the mask reset puts the cube 0.4-0.6 m in
    front and +-0.25 m aside."""
    from isaaclab_contrib.app.env_factory import make_env

    env = make_env("Isaac-Lift-Cube-Franka-v0", num_envs=4, device=TEST_DEVICE)
    try:
        base = env.unwrapped
        env.reset(seed=0)
        mass = base.scene["object"].data.body_mass.torch[:, 0].cpu()
        assert ((mass >= 0.05 - 1e-6) & (mass <= 0.15 + 1e-6)).all() and mass.unique().numel() > 1
        ratio = base.scene["robot"].data.joint_stiffness.torch[:, :7].cpu() / torch.tensor([870.0] * 4 + [120.0] * 3)
        assert ((ratio >= 0.8 - 1e-5) & (ratio <= 1.2 + 1e-5)).all() and ratio.unique().numel() > 1
        base.mask_reset_on_cpu = True
        base.episode_length_buf[:] = base.max_episode_length  # every env resets by mask on the next step
        env.step(torch.zeros(base.action_space.shape, device=TEST_DEVICE))
        cube = (base.scene["object"].data.root_pos_w.torch - base.scene.env_origins).cpu()
        assert ((cube[:, 0] >= 0.4 - 1e-4) & (cube[:, 0] <= 0.6 + 1e-4)).all()
        assert ((cube[:, 1] >= -0.25 - 1e-4) & (cube[:, 1] <= 0.25 + 1e-4)).all() and cube[:, 1].unique().numel() > 1
    finally:
        env.close()


def test_scripted_grasp_lifts_cube_10cm_and_holds_it_2s():
    """Scripted by grasp-point poses (Newton IK): open above the cube, descend, close, lift 11 cm; the cube rises
    at least 10 cm and over 2 s of holding moves less than 5 mm relative to the grasp point."""
    env = scripted_env("Isaac-Lift-Cube-Franka-v0")
    try:
        base = env.unwrapped
        env.reset(seed=0)
        cube = base.scene["object"].data
        x, y, z = cube.root_pos_w.torch[0].tolist()
        start_z = z
        run_pose(env, (x, y, z + 0.12), HAND_DOWN, 1.0, 100)
        run_pose(env, (x, y, z + 0.06), HAND_DOWN, 1.0, 40)
        run_pose(env, (x, y, z + 0.035), HAND_DOWN, 1.0, 40)  # fingertips 1.5 cm above the ground
        run_pose(env, (x, y, z + 0.035), HAND_DOWN, -1.0, 25)
        lift_z = _grasp_point(base)[2].item() + 0.11
        run_pose(env, (x, y, lift_z), HAND_DOWN, -1.0, 100)
        held = cube.root_pos_w.torch[0] - _grasp_point(base)
        run_pose(env, (x, y, lift_z), HAND_DOWN, -1.0, 100)  # 2 s at 50 Hz
        assert cube.root_pos_w.torch[0, 2].item() - start_z >= 0.10
        slip = torch.linalg.norm(cube.root_pos_w.torch[0] - _grasp_point(base) - held).item()
        assert slip < 0.005, f"the cube moved {slip * 1000:.1f} mm in the hand while held"
    finally:
        env.close()


def test_scripted_pull_opens_drawer_20cm():
    """Scripted by grasp-point poses: fingers around the handle from above, close, pull 25 cm toward the robot; the
    drawer opens at least 20 cm."""
    env = scripted_env("Isaac-Open-Drawer-Franka-v0")
    try:
        base = env.unwrapped
        env.reset(seed=0)
        cabinet = base.scene["cabinet"]
        x, y, z = cabinet.data.body_pos_w.torch[0, cabinet.body_names.index("handle")].tolist()
        run_pose(env, (x - 0.15, y, z + 0.15), HAND_DOWN, 1.0, 150)
        run_pose(env, (x, y, z + 0.12), HAND_DOWN, 1.0, 60)
        run_pose(env, (x, y, z), HAND_DOWN, 1.0, 60)
        run_pose(env, (x, y, z), HAND_DOWN, -1.0, 30)
        for step in range(1, 6):
            run_pose(env, (x - 0.05 * step, y, z), HAND_DOWN, -1.0, 30)
        assert cabinet.data.joint_pos.torch[0, 0].item() >= 0.20
    finally:
        env.close()


def test_ik_reach_converges():
    """Isaac-Reach-Franka-IK-v0's relative Newton IK action, fed half the position error of its frame (0.214 m along
    panda0_link7) to a point 10 cm away each step, brings that frame within 5 mm of it in 4 s."""
    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    cfg = load_env_cfg("Isaac-Reach-Franka-IK-v0")
    cfg.episode_length_s = 100.0
    cfg.terminations.success = cfg.rewards.success = None  # no episode end when the random command is met
    env = make_env("Isaac-Reach-Franka-IK-v0", cfg=cfg, num_envs=1, device=TEST_DEVICE)
    try:
        base = env.unwrapped
        env.reset(seed=0)
        objective = base.action_manager.get_term("arm_action").cfg.objectives[0]
        offset, scale = objective.body_offset_pos, torch.tensor(objective.scale[:3], device=TEST_DEVICE)
        target = _grasp_point(base, offset) + torch.tensor([0.06, -0.05, -0.06], device=TEST_DEVICE)
        action = torch.zeros(1, 6, device=TEST_DEVICE)
        for _ in range(120):
            action[0, :3] = (0.5 * (target - _grasp_point(base, offset)) / scale).clamp(-1.0, 1.0)
            env.step(action)
        error = torch.linalg.norm(target - _grasp_point(base, offset)).item()
        assert error < 0.005, f"IK reach ended {error * 1000:.1f} mm from its target"
    finally:
        env.close()


def test_one_body_of_an_unnamed_multi_body_asset_is_refused():
    """A cfg naming no body of a many-body asset is refused with the fix, not read as body 0."""
    from isaaclab.managers import SceneEntityCfg

    from isaaclab_contrib.tasks.manipulation.mdp import one_body

    with pytest.raises(ValueError, match=r"'robot' has 3 bodies and the cfg names none.*body_names="):
        one_body(torch.zeros((2, 3, 3), device=TEST_DEVICE), SceneEntityCfg("robot"))


def test_one_body_of_an_unnamed_one_body_asset_is_that_body():
    """A cfg naming no body of a one-body asset (a rigid object) selects that body's rows."""
    from isaaclab.managers import SceneEntityCfg

    from isaaclab_contrib.tasks.manipulation.mdp import one_body

    values = torch.arange(6.0, device=TEST_DEVICE).reshape(2, 1, 3)
    assert torch.equal(one_body(values, SceneEntityCfg("object")), values[:, 0])
