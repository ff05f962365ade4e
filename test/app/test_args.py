"""The shared command line: arguments refused by name before torch, Warp or Newton load, in every script."""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import pytest

from isaaclab_contrib.app import args as script_args

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
TRAIN = SCRIPTS / "reinforcement_learning" / "rsl_rl" / "train.py"
PLAY = SCRIPTS / "reinforcement_learning" / "rsl_rl" / "play.py"
ZERO = SCRIPTS / "environments" / "zero_agent.py"
ALL_SCRIPTS = sorted(path for path in SCRIPTS.rglob("*.py") if not path.name.startswith("_"))
"""Every script (``_name.py`` files are the modules scripts import)."""
TASK_SCRIPTS = [
    TRAIN,
    PLAY,
    ZERO,
    SCRIPTS / "environments" / "random_agent.py",
    SCRIPTS / "tools" / "measure_locomotion.py",
    SCRIPTS / "tools" / "measure_manipulation.py",
    SCRIPTS / "tools" / "measure_velocity_tracking.py",
    SCRIPTS / "tools" / "check_soft_lift.py",
    SCRIPTS / "benchmarks" / "soak.py",
    SCRIPTS / "benchmarks" / "terrain_bvh_build.py",
]
"""Scripts built on the shared parser (``--task`` and the rest)."""
SWEEP_SCRIPTS = [
    SCRIPTS / "benchmarks" / name
    for name in (
        "benchmark_cameras.py",
        "benchmark_envs.py",
        "benchmark_startup.py",
        "check_sync_free.py",
        "physics_step_split.py",
        "profile_env_step.py",
    )
] + [SCRIPTS / "tools" / "rollout_record.py"]
"""Scripts built on the sweep parser (``--tasks``, one or more ``--num_envs``)."""
DEVICE_SCRIPTS = {
    SCRIPTS / "benchmarks" / "benchmark_coupling.py": "--num_worlds",
    SCRIPTS / "benchmarks" / "benchmark_observables.py": "--num_worlds",
    SCRIPTS / "benchmarks" / "check_multirotor_sync_free.py": "--num_envs",
}
"""Scripts built on the device parser alone (raw Newton, no task), with their count flag."""
SHARED_FLAGS = {
    **dict.fromkeys(TASK_SCRIPTS, ("--task", "--solver")),
    **dict.fromkeys(SWEEP_SCRIPTS, ("--tasks", "--solver")),
}
"""Flags each task or sweep script's --help must list."""
OWN_BAD_ARGUMENT = {
    "export_scalars.py": (["--threshold", "x"], "invalid float value: 'x'"),
    "list_envs.py": (["--bogus"], "unrecognized arguments: --bogus"),
    "make_offline_assets.py": (["--out"], "argument --out: expected one argument"),
}
"""A bad argument of each script that runs on no device; every other one is given ``--device gpu``."""

_PROBE = """
import os, runpy, sys
script, *argv = sys.argv[1:]
sys.argv = [script, *argv]
sys.path[0] = os.path.dirname(script)  # as `python script.py` has it
try:
    runpy.run_path(script, run_name="__main__")
finally:
    heavy = sorted(m for m in ("torch", "warp", "newton", "isaaclab.sim") if m in sys.modules)
    print("HEAVY", heavy, file=sys.stderr)
"""


def _answer(script: Path, *argv: str) -> subprocess.CompletedProcess:
    """Run ``script argv``; assert it answered within 2 s with nothing heavy imported."""
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, str(script), *argv], capture_output=True, text=True, timeout=120, check=False
    )
    elapsed = time.perf_counter() - start
    assert "HEAVY []" in result.stderr, result.stderr[-2000:]
    assert elapsed < 2.0, f"{script.name} {argv} took {elapsed:.2f} s"
    return result


@pytest.mark.parametrize("script", ALL_SCRIPTS, ids=lambda p: p.name)
def test_help_is_answered_before_anything_heavy_loads(script):
    """Every script's --help prints its usage within 2 s, the shared arguments where it runs tasks."""
    result = _answer(script, "--help")
    assert result.returncode == 0 and "usage:" in result.stdout, result.stderr[-2000:]
    assert all(flag in result.stdout for flag in SHARED_FLAGS.get(script, ()))


@pytest.mark.parametrize("script", ALL_SCRIPTS, ids=lambda p: p.name)
def test_every_script_refuses_a_bad_argument_early(script):
    """Every script refuses a bad argument by name within 2 s, before anything heavy loads."""
    argv, message = OWN_BAD_ARGUMENT.get(script.name, (["--device", "gpu"], "unknown device 'gpu'"))
    result = _answer(script, *argv)
    assert result.returncode != 0 and message in result.stderr, result.stderr[-2000:]


@pytest.mark.parametrize("script", TASK_SCRIPTS, ids=lambda p: p.name)
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--task", "Isaac-Cartpole-Direkt-v0"], "did you mean 'Isaac-Cartpole-Direct-v0'"),
        (["--task", "Isaac-Cartpole-Direct-v0", "--num_envs", "0"], "must be at least 1, got 0"),
        (["--task", "Isaac-Cartpole-Direct-v0", "--num_envs", "-3"], "must be at least 1, got -3"),
        (["--task", "Isaac-Cartpole-Direct-v0", "--device", "gpu"], "unknown device 'gpu'"),
    ],
    ids=["unknown-task", "zero-envs", "negative-envs", "unknown-device"],
)
def test_bad_arguments_are_refused_by_name(script, argv, message):
    """Every task script refuses the same bad arguments with the same message, within 2 s."""
    own = ["--policy", __file__] if script.name.startswith("measure_") else []  # their one required argument
    result = _answer(script, *argv, *own)
    assert result.returncode != 0 and message in result.stderr, result.stderr[-2000:]


@pytest.mark.parametrize("script", SWEEP_SCRIPTS, ids=lambda p: p.name)
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--tasks", "Isaac-Cartpole-Direct-v0", "Isaac-Cartpole-Direkt-v0"],
            "did you mean 'Isaac-Cartpole-Direct-v0'",
        ),
        (["--num_envs", "16", "0"], "must be at least 1, got 0"),
        (["--num_envs", "-3"], "must be at least 1, got -3"),
    ],
    ids=["unknown-task", "zero-envs", "negative-envs"],
)
def test_sweeps_refuse_bad_tasks_and_counts_by_name(script, argv, message):
    """Every benchmark that runs several tasks refuses an unknown one or a count below 1, within 2 s."""
    result = _answer(script, *argv)
    assert result.returncode != 0 and message in result.stderr, result.stderr[-2000:]


def test_every_script_is_in_one_family():
    """Every script is a task, sweep or device script, or names its own bad argument, so the tests above reach it."""
    families = {*TASK_SCRIPTS, *SWEEP_SCRIPTS, *DEVICE_SCRIPTS}
    assert not [p.name for p in ALL_SCRIPTS if p not in families and p.name not in OWN_BAD_ARGUMENT]


@pytest.mark.parametrize("script", sorted(DEVICE_SCRIPTS), ids=lambda p: p.name)
@pytest.mark.parametrize("count", ["0", "-3"])
def test_device_scripts_refuse_counts_below_one(script, count):
    """The raw Newton benchmarks refuse a world or env count below 1 by name, within 2 s."""
    result = _answer(script, DEVICE_SCRIPTS[script], count)
    assert result.returncode != 0 and f"must be at least 1, got {count}" in result.stderr, result.stderr[-2000:]


@pytest.mark.parametrize(
    ("script", "argv"),
    [
        (PLAY, ["--checkpoint", "/nonexistent/model_3.pt"]),
        (TRAIN, ["--resume", "--checkpoint", "/nonexistent/model_3.pt"]),
        (SCRIPTS / "tools" / "measure_locomotion.py", ["--policy", "/nonexistent/policy.pt"]),
        (SCRIPTS / "tools" / "measure_velocity_tracking.py", ["--policy", "/nonexistent/policy.pt"]),
        (SCRIPTS / "tools" / "measure_manipulation.py", ["--policy", "/nonexistent/policy.pt"]),
    ],
    ids=["play", "train-resume", "measure_locomotion", "measure_velocity_tracking", "measure_manipulation"],
)
def test_missing_checkpoint_is_refused_before_anything_heavy_loads(script, argv):
    """A checkpoint or policy file that does not exist is refused by its path within 2 s."""
    result = _answer(script, "--task", "Isaac-Cartpole-Direct-v0", *argv)
    assert result.returncode != 0 and "no such file" in result.stderr and "/nonexistent/" in result.stderr


def test_play_latest_without_any_run_is_refused_early(tmp_path):
    """play.py with no trained run under --log_root says to train first."""
    result = _answer(PLAY, "--task", "Isaac-Cartpole-Direct-v0", "--log_root", str(tmp_path))
    assert result.returncode != 0 and "train the task first" in result.stderr


def test_task_without_agent_names_the_tasks_that_train():
    """A task without rsl_rl_cfg_entry_point is refused for training, naming the trainable tasks."""
    with pytest.raises(SystemExit, match=r"registers no rsl_rl agent cfg.*Isaac-Cartpole-Direct-v0"):
        script_args.check_task("Isaac-Lift-Soft-Franka-v0", agent="rsl_rl")


def test_upstream_id_passes_the_check():
    """An id isaaclab_tasks registers (no version) is accepted."""
    script_args.check_task("Isaac-Cartpole-Camera-Direct", agent="rsl_rl")


def test_preset_token_must_name_presets():
    """A positional that is not presets=NAME names the expected form."""
    with pytest.raises(argparse.ArgumentTypeError, match=r"presets=NAME"):
        script_args.preset_token("depth")


def test_env_options_are_make_env_keywords():
    """The shared arguments map onto make_env's keywords, the task's defaults where not given."""
    parser = argparse.ArgumentParser(parents=[script_args.shared_parser()])
    args = parser.parse_args(["--task", "Isaac-Ant-Direct-v0", "--num_envs", "8", "--solver", "featherstone"])
    assert script_args.env_options(args) == {
        "num_envs": 8,
        "device": None,
        "seed": None,
        "solver": "featherstone",
        "presets": (),
        "verbose": False,
    }


def test_existing_file_refuses_a_missing_path(tmp_path):
    """--policy of a file that does not exist is refused by its path."""
    with pytest.raises(argparse.ArgumentTypeError, match="no such file"):
        script_args.existing_file(str(tmp_path / "policy.pt"))


def test_shared_parser_with_a_default_task_needs_no_task_flag():
    """A script that names its default task runs it when --task is not given."""
    parser = argparse.ArgumentParser(parents=[script_args.shared_parser(task="Isaac-Cartpole-Direct-v0")])
    assert parser.parse_args([]).task == "Isaac-Cartpole-Direct-v0"


def test_parse_args_fills_in_the_default_device(monkeypatch):
    """Without --device, the parsed arguments name the device the run uses (cpu on a machine without a driver)."""
    monkeypatch.setattr("isaaclab_contrib.app.devices.cuda_device_count", lambda: None)
    parser = argparse.ArgumentParser(parents=[script_args.shared_parser()])
    assert script_args.parse_args(parser, ["--task", "Isaac-Cartpole-Direct-v0"]).device == "cpu"


VIEWER_SCRIPTS = [
    TRAIN,
    PLAY,
    ZERO,
    SCRIPTS / "environments" / "random_agent.py",
    SCRIPTS / "benchmarks" / "benchmark_envs.py",
]
"""Scripts that take the live-viewer arguments (:func:`~isaaclab_contrib.app.args.viewer_parser`)."""


@pytest.mark.parametrize("script", VIEWER_SCRIPTS, ids=lambda p: p.name)
def test_viewer_scripts_refuse_an_unknown_viewer_early(script):
    """Every script with a live viewer lists --viewer and refuses an unknown one by its choices within 2 s."""
    assert "--viewer_envs" in _answer(script, "--help").stdout
    result = _answer(script, "--viewer", "vr")
    assert result.returncode != 0 and "argument --viewer: invalid choice: 'vr'" in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--viewer_envs", "0"], "argument --viewer_envs: must be at least 1, got 0"),
        (["--viewer_rate", "0"], "argument --viewer_rate: must be a number above 0, got 0"),
        (["--viewer_rate", "fast"], "argument --viewer_rate: expected a number above 0, got 'fast'"),
        (["--viewer_port", "70000"], "argument --viewer_port: a port is at most 65535, got 70000"),
        (["--record", "run.viser"], "--record writes a viser or USD recording; add --viewer viser"),
        (["--viewer", "viser", "--record", "run.mp4"], "--viewer viser records a .viser file"),
        (["--viewer", "usd"], "--viewer usd writes an animated USD file: add --record FILE.usd"),
    ],
    ids=["zero-envs", "zero-rate", "rate-word", "port", "record-without-viewer", "record-suffix", "usd-no-file"],
)
def test_bad_viewer_arguments_are_refused_by_name(argv, message, capsys):
    """Viewer arguments out of range or not fitting together are refused with a message naming the fix."""
    parser = argparse.ArgumentParser(parents=[script_args.shared_parser(), script_args.viewer_parser()])
    with pytest.raises(SystemExit) as exit_info:
        script_args.parse_args(parser, ["--task", "Isaac-Cartpole-Direct-v0", *argv])
    assert message in f"{exit_info.value.code}{capsys.readouterr().err}"


def test_gl_viewer_without_a_display_names_viser(monkeypatch):
    """--viewer gl on a Linux machine without $DISPLAY says to use --viewer viser."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    parser = argparse.ArgumentParser(parents=[script_args.shared_parser(), script_args.viewer_parser()])
    with pytest.raises(SystemExit, match="no display.*use --viewer viser"):
        script_args.parse_args(parser, ["--task", "Isaac-Cartpole-Direct-v0", "--viewer", "gl"])


def test_viewer_options_are_a_live_viewer_cfg():
    """The viewer arguments become a LiveViewerCfg; --viewer none (the default) gives none."""
    from isaaclab_contrib.viewer import LiveViewerCfg

    parser = argparse.ArgumentParser(parents=[script_args.viewer_parser()])
    assert script_args.viewer_options(parser.parse_args([])) is None
    args = parser.parse_args(
        ["--viewer", "viser", "--viewer_envs", "2", "--viewer_rate", "10", "--viewer_contacts", "--record", "a.viser"]
    )
    cfg = script_args.viewer_options(args)
    assert isinstance(cfg, LiveViewerCfg)
    assert (cfg.backend, cfg.num_envs, cfg.rate_hz, cfg.contacts, cfg.port, cfg.record) == (
        "viser",
        2,
        10.0,
        True,
        8080,
        "a.viser",
    )


def test_soak_memory_snapshot_is_refused_on_cpu():
    """The soak's PyTorch memory snapshot, which records CUDA allocations, is refused on CPU by name."""
    result = _answer(SCRIPTS / "benchmarks" / "soak.py", "--device", "cpu", "--torch_memory_snapshot", "soak.pickle")
    assert result.returncode != 0 and "--torch_memory_snapshot" in result.stderr, result.stderr[-2000:]


def test_soak_process_memory_scope_is_refused_on_cpu():
    """The soak's per-process CUDA memory limit is refused on CPU by name."""
    result = _answer(SCRIPTS / "benchmarks" / "soak.py", "--device", "cpu", "--gpu_memory_scope", "process")
    assert result.returncode != 0 and "--gpu_memory_scope" in result.stderr, result.stderr[-2000:]


def test_camera_kernel_profile_is_refused_on_cpu():
    """benchmark_cameras.py --kernels (a CUDA kernel profile) is refused on CPU by name."""
    result = _answer(SCRIPTS / "benchmarks" / "benchmark_cameras.py", "--device", "cpu", "--kernels", "5")
    assert result.returncode != 0 and "--kernels" in result.stderr, result.stderr[-2000:]
