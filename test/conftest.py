"""Shared fixtures: a CPU simulation context per test, torn down afterwards."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("WARP_CACHE_PATH", os.path.expanduser("~/.cache/warp"))

TEST_DEVICE = os.environ.get("ISAACLAB_NEWTON_TEST_DEVICE", "cpu")
"""Device the physics tests run on; set ``ISAACLAB_NEWTON_TEST_DEVICE=cuda:0`` to run them on a GPU."""


@pytest.fixture
def make_sim():
    """Factory for a CPU ``SimulationContext`` with a ``NewtonCfg``; cleared after the test."""
    from isaaclab.sim import SimulationCfg, SimulationContext

    from isaaclab_newton.physics import NewtonCfg

    created = []

    def factory(
        solver_cfg=None, *, dt: float = 1.0 / 240.0, device: str = TEST_DEVICE, gravity=(0.0, 0.0, -9.81), **cfg
    ):
        SimulationContext.clear_instance()
        physics = NewtonCfg(solver_cfg=solver_cfg, **cfg)
        sim = SimulationContext(SimulationCfg(dt=dt, device=device, gravity=gravity, physics=physics))
        created.append(sim)
        return sim

    yield factory
    from isaaclab.sim import SimulationContext as _Ctx

    _Ctx.clear_instance()


@pytest.fixture
def rne_passes(monkeypatch):
    """A list that grows by one entry per run of MuJoCo Warp's post-constraint RNE pass during the test."""
    import mujoco_warp._src.smooth as mjw_smooth

    passes = []
    rne = mjw_smooth.rne_postconstraint

    def counted_rne(m, d):
        passes.append(None)
        rne(m, d)

    monkeypatch.setattr(mjw_smooth, "rne_postconstraint", counted_rne)
    return passes
