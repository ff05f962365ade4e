"""Every ``isaaclab_tasks`` env config instantiates under its Newton presets; every name it imports from us exists."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from .upstream_survey import ConfigOutcome

SURVEY = pathlib.Path(__file__).with_name("upstream_survey.py")
REPO = pathlib.Path(__file__).resolve().parents[2]

OPTIONAL_DEPENDENCIES = {
    "torchvision": "camera observation encoders import torchvision, which this environment does not install",
    "pinocchio": "Pink IK tasks need pinocchio / pin-pink, which this environment does not install",
}
"""Failures outside our packages: the missing optional dependency and why it is missing."""


@pytest.fixture(scope="module")
def outcomes() -> list[ConfigOutcome]:
    """Survey of all registered env configs, in a subprocess (about a minute on CPU: imports every task module)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run(
        [sys.executable, str(SURVEY), "--json"], env=env, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return [ConfigOutcome(**{**row, "newton_presets": tuple(row["newton_presets"])}) for row in rows]


def test_no_config_fails_on_a_name_from_our_packages(outcomes):
    """No config fails on a missing or unknown name from isaaclab_newton / isaaclab_contrib."""
    assert [(o.task, o.error) for o in outcomes if o.ours] == []


def test_other_failures_are_documented_optional_dependencies(outcomes):
    """Every failure outside our packages is a listed optional dependency."""
    unexplained = [
        (o.task, o.error)
        for o in outcomes
        if o.error is not None and not o.ours and not any(dep in o.error for dep in OPTIONAL_DEPENDENCIES)
    ]
    assert unexplained == []


def test_newton_preset_configs_resolve(outcomes):
    """At least 89 configs resolve under a Newton physics preset (131 of 142 instantiate in all)."""
    resolved = [o for o in outcomes if o.error is None and o.newton_presets]
    assert len(resolved) >= 89
    assert sum(o.error is None for o in outcomes) >= 131


def test_coupled_lift_configs_resolve_under_the_proxy_preset(outcomes):
    """Upstream's Lift-Soft/Cloth/Cable-Franka configs (CouplerProxyCfg + NewtonSoftContactCfg) resolve."""
    coupled = {f"Isaac-Lift-{kind}-Franka{suffix}" for kind in ("Soft", "Cloth", "Cable") for suffix in ("", "-Camera")}
    by_task = {o.task: o for o in outcomes if o.task in coupled}
    assert sorted(by_task) == sorted(coupled)
    assert all(o.error is None and "newton_mjwarp_vbd_proxy" in o.newton_presets for o in by_task.values())


def test_reach_franka_resolves_under_the_newton_ik_preset(outcomes):
    """Upstream's Isaac-Reach-Franka (NewtonInverseKinematicsActionCfg arm action) resolves under 'newton_ik'."""
    reach = next(o for o in outcomes if o.task == "Isaac-Reach-Franka")
    assert reach.error is None and "newton_ik" in reach.newton_presets


def test_every_name_upstream_tasks_import_from_us_exists():
    """Each name any isaaclab_tasks module imports from our packages (at import time or inside a function) exists."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run(
        [sys.executable, str(SURVEY), "--names"], env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []


def test_both_registries_in_one_process_fail_with_the_fix_named():
    """Importing our tasks after isaaclab_tasks raises a RuntimeError that names the clash and says what to do."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    code = "import isaaclab_tasks\nimport isaaclab_contrib.tasks\n"
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode != 0
    assert "RuntimeError" in result.stderr and "Use one task registry per process" in result.stderr
