"""make_env and load_env_cfg: one rule for task ids, the solver chosen once, bad input refused by name."""

from __future__ import annotations

import pytest

from isaaclab_contrib.app.env_factory import load_env_cfg, make_env
from isaaclab_contrib.app.task_ids import UnknownTaskError


def test_unknown_task_names_the_closest_ids():
    """make_env of a misspelt id names the registered ids nearest to it."""
    with pytest.raises(UnknownTaskError, match=r"did you mean 'Isaac-Humanoid-Direct-v0'"):
        make_env("Isaac-Humanoid-Direkt-v0", num_envs=1, device="cpu")


@pytest.mark.parametrize("num_envs", [0, -2, 1.5, True])
def test_env_count_below_one_is_refused(num_envs):
    """num_envs must be an integer of at least 1."""
    with pytest.raises(ValueError, match="num_envs must be an integer of at least 1"):
        make_env("Isaac-Cartpole-Direct-v0", num_envs=num_envs, device="cpu")


def test_solver_next_to_a_cfg_is_refused():
    """The solver of a caller's cfg is chosen when it is loaded, not a second time in make_env."""
    cfg = load_env_cfg("Isaac-Cartpole-Direct-v0")
    with pytest.raises(ValueError, match=r"load_env_cfg\(task, solver=..."):
        make_env("Isaac-Cartpole-Direct-v0", cfg=cfg, solver="xpbd", device="cpu")


def test_solver_selects_the_tasks_preset():
    """solver='featherstone' puts the ant's Featherstone preset (8 substeps) into the cfg."""
    cfg = load_env_cfg("Isaac-Ant-Direct-v0", solver="featherstone")
    assert cfg.sim.physics.solver_cfg.solver_type == "featherstone" and cfg.sim.physics.num_substeps == 8


def test_solver_on_a_task_with_one_physics_is_refused():
    """A task that registers no physics presets says --solver does not apply."""
    with pytest.raises(ValueError, match="has one physics configuration; drop --solver xpbd"):
        load_env_cfg("Isaac-Lift-Soft-Franka-v0", solver="xpbd")


def test_upstream_presets_on_our_task_are_refused():
    """presets= names isaaclab_tasks presets; one of ours (-v0) refuses them."""
    with pytest.raises(ValueError, match="apply to isaaclab_tasks ids"):
        load_env_cfg("Isaac-Cartpole-Direct-v0", presets=("depth",))


def test_an_env_without_a_viewer_does_not_load_the_viewer_package():
    """Making an env with no viewer asked for leaves the viewer package (viser and its dependencies) unloaded."""
    import subprocess
    import sys

    code = (
        "import sys; from isaaclab_contrib.app.env_factory import make_env;"
        " env = make_env('Isaac-Cartpole-Direct-v0', num_envs=2, device='cpu'); env.close();"
        " print('loaded' if 'isaaclab_contrib.viewer' in sys.modules else 'not loaded')"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "not loaded"
