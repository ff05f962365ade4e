"""Replaying Warp's CPU graph of the substep loop gives the same result as eager execution, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from isaaclab_newton.physics import (
    FeatherstoneSolverCfg,
    KaminoSolverCfg,
    MJWarpSolverCfg,
    NewtonManager,
    SemiImplicitSolverCfg,
    VBDSolverCfg,
    XPBDSolverCfg,
)

from . import scenes

GRAPH_CASES = {
    "mjwarp": MJWarpSolverCfg(),
    "xpbd": XPBDSolverCfg(),
    "featherstone": FeatherstoneSolverCfg(),
    "kamino": KaminoSolverCfg(),
    "vbd": VBDSolverCfg(),
    "semi_implicit": SemiImplicitSolverCfg(),
}


def _drop(make_sim, solver_cfg, *, use_cpu_graph: bool | None, steps: int = 40) -> tuple[np.ndarray, np.ndarray, bool]:
    """Drop a box; ``use_cpu_graph=None`` keeps NewtonCfg's default."""
    flags = {} if use_cpu_graph is None else {"use_cpu_graph": use_cpu_graph}
    sim = make_sim(solver_cfg.copy(), num_substeps=2, **flags)
    scenes.add_dropped_box(NewtonManager.create_builder(), height=0.15)
    sim.reset()
    for _ in range(steps):
        sim.step(render=False)
    state = NewtonManager.get_state_0()
    return state.body_q.numpy(), state.body_qd.numpy(), NewtonManager.uses_graph()


@pytest.mark.parametrize("case", list(GRAPH_CASES))
def test_cpu_graph_replay_matches_eager(make_sim, case):
    """By default a 40-step box drop (2 substeps, ground contact) replays a CPU graph and equals eager exactly."""
    eager_q, eager_qd, eager_graph = _drop(make_sim, GRAPH_CASES[case], use_cpu_graph=False)
    graph_q, graph_qd, graph_used = _drop(make_sim, GRAPH_CASES[case], use_cpu_graph=None)
    assert not eager_graph and graph_used
    assert eager_q[0, 2] < 0.14  # the box moved
    np.testing.assert_array_equal(graph_q, eager_q)
    np.testing.assert_array_equal(graph_qd, eager_qd)


def test_failed_capture_raises_naming_the_eager_setting(make_sim, monkeypatch):
    """A capture that fails raises a RuntimeError naming NewtonCfg.use_cpu_graph=False instead of stepping on."""
    from isaaclab_newton.physics import graph

    def broken_capture(fn, device):
        raise ValueError("math domain error")

    monkeypatch.setattr(graph, "capture", broken_capture)
    sim = make_sim(XPBDSolverCfg(), num_substeps=2)
    scenes.add_dropped_box(NewtonManager.create_builder(), height=0.15)
    with pytest.raises(RuntimeError, match="NewtonCfg.use_cpu_graph=False"):
        sim.reset()
        sim.step(render=False)
