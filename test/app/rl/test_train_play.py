"""Train cartpole two iterations on the test device; play, export and check the export against the checkpoint."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE

TASK = "Isaac-Cartpole-Direct-v0"


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory):
    """A two-iteration cartpole run (16 envs, test device) in a temporary log root."""
    from isaaclab_contrib.app.rl.train import main

    log_root = tmp_path_factory.mktemp("logs")
    args = [
        "--task",
        TASK,
        "--num_envs",
        "16",
        "--device",
        TEST_DEVICE,
        "--max_iterations",
        "2",
        "--log_root",
        str(log_root),
    ]
    return main([*args, "--run_name", "ci"]), log_root


@pytest.fixture(scope="module")
def played(trained_run):
    """play.py on the newest run for one full episode, with a short USD recording."""
    from isaaclab_contrib.app.rl.play import main

    _, log_root = trained_run
    args = ["--task", TASK, "--num_envs", "8", "--device", TEST_DEVICE, "--log_root", str(log_root)]
    return main([*args, "--video", "--video_format", "usd", "--video_length", "10", "--video_num_envs", "2"])


@pytest.fixture(scope="module")
def played_mp4(trained_run):
    """play.py on the newest run for 12 steps with an MP4 clip of 10 steps showing 2 envs."""
    from isaaclab_contrib.app.rl.play import main

    _, log_root = trained_run
    args = ["--task", TASK, "--num_envs", "4", "--device", TEST_DEVICE, "--log_root", str(log_root), "--steps", "12"]
    return main([*args, "--video", "--video_length", "10", "--video_num_envs", "2"])


def test_training_writes_checkpoints_configs_and_curve(trained_run):
    """The run folder holds the final checkpoint, both configs, TensorBoard events, progress.csv and the PNG."""
    run_dir, _ = trained_run
    assert run_dir.name.endswith("_ci")
    assert (run_dir / "model_1.pt").is_file()
    assert (run_dir / "params" / "env.yaml").is_file() and (run_dir / "params" / "agent.yaml").is_file()
    assert any(run_dir.glob("events.out.tfevents.*"))
    assert len((run_dir / "progress.csv").read_text().splitlines()) == 3
    assert (run_dir / "learning_curve.png").read_bytes()[:4] == b"\x89PNG"


def test_play_loads_newest_checkpoint_and_exports(played, trained_run):
    """play.py resolves `latest` to the run's last checkpoint and writes policy.pt and policy.onnx beside it."""
    import onnx

    run_dir, _ = trained_run
    assert played.checkpoint == run_dir / "model_1.pt"
    assert played.policy_jit == run_dir / "exported" / "policy.pt" and played.policy_jit.is_file()
    onnx.checker.check_model(onnx.load(str(played.policy_onnx)))
    assert played.episodes >= 8 and torch.isfinite(torch.tensor(played.mean_reward))


def test_play_recording_is_an_animated_usd(played):
    """--video writes a USD clip whose time range covers the recorded steps."""
    from pxr import Usd

    (clip,) = played.recordings
    stage = Usd.Stage.Open(str(clip))
    assert stage.GetEndTimeCode() == pytest.approx(10.0)


def test_play_video_is_an_mp4_of_the_rendered_envs(played_mp4):
    """--video writes an MP4 of 11 frames (the reset and 10 steps), two 320x240 chase tiles side by side."""
    import imageio.v2 as imageio
    import numpy as np

    (clip,) = played_mp4.recordings
    assert clip.suffix == ".mp4"
    frames = [np.asarray(f) for f in imageio.get_reader(str(clip))]
    assert len(frames) == 11
    assert frames[0].shape == (240, 640, 3)
    assert frames[0].std() > 5.0  # a rendered scene, not a blank frame


def test_exported_torchscript_matches_checkpoint_policy(played):
    """The TorchScript export gives the checkpoint policy's actions on the same observations."""
    from isaaclab_contrib.app.rl.cli import Placement, play_parser
    from isaaclab_contrib.app.rl.session import configure_agent, load_task_cfgs, make_runner, make_task_env

    args = play_parser().parse_args(["--task", TASK, "--num_envs", "8", "--device", TEST_DEVICE])
    placement = Placement(device=TEST_DEVICE)
    env_cfg, agent_cfg = load_task_cfgs(args)
    agent_cfg = configure_agent(agent_cfg, args, placement)
    env = make_task_env(args, env_cfg, agent_cfg, placement)
    try:
        runner = make_runner(env, agent_cfg, log_dir=None)
        runner.load(str(played.checkpoint), map_location=TEST_DEVICE)
        policy = runner.get_inference_policy(device=TEST_DEVICE)
        obs = runner.env.get_observations()
        obs["policy"] = obs["policy"] + torch.linspace(-0.5, 0.5, obs["policy"].numel(), device=TEST_DEVICE).reshape(
            obs["policy"].shape
        )
        exported = torch.jit.load(str(played.policy_jit), map_location=TEST_DEVICE)
        with torch.inference_mode():
            torch.testing.assert_close(exported(obs["policy"]), policy(obs), rtol=1e-5, atol=1e-6)
    finally:
        env.close()
