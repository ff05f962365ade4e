"""Replaying the graph of the substep loop gives the result of eager execution (Warp CPU graphs: bit for bit)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ON_CUDA, cpu_only, cuda_only

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


def _drop(make_sim, solver_cfg, *, graph: bool | None, steps: int = 40) -> tuple[np.ndarray, np.ndarray, bool]:
    """Drop a box; ``graph`` sets the test device's ``use_cpu_graph``/``use_cuda_graph``, ``None`` keeps the default."""
    flags = {} if graph is None else {"use_cuda_graph" if ON_CUDA else "use_cpu_graph": graph}
    sim = make_sim(solver_cfg.copy(), num_substeps=2, **flags)
    scenes.add_dropped_box(NewtonManager.create_builder(), height=0.15)
    sim.reset()
    for _ in range(steps):
        sim.step(render=False)
    state = NewtonManager.get_state_0()
    return state.body_q.numpy(), state.body_qd.numpy(), NewtonManager.uses_graph()


@cpu_only("Warp CPU graphs replay on the CPU alone; test_cuda_graph_replay_matches_eager is the CUDA counterpart")
@pytest.mark.parametrize("case", list(GRAPH_CASES))
def test_cpu_graph_replay_matches_eager(make_sim, case):
    """By default a 40-step box drop (2 substeps, ground contact) replays a CPU graph and equals eager exactly."""
    eager_q, eager_qd, eager_graph = _drop(make_sim, GRAPH_CASES[case], graph=False)
    graph_q, graph_qd, graph_used = _drop(make_sim, GRAPH_CASES[case], graph=None)
    assert not eager_graph and graph_used
    assert eager_q[0, 2] < 0.14  # the box moved
    np.testing.assert_array_equal(graph_q, eager_q)
    np.testing.assert_array_equal(graph_qd, eager_qd)


@cuda_only("CUDA graph capture and replay")
@pytest.mark.parametrize("case", list(GRAPH_CASES))
def test_cuda_graph_replay_matches_eager(make_sim, case):
    """By default the 40-step box drop replays a CUDA graph and ends where eager stepping does (to 1e-4 m, 1e-3 m/s:
    the order of atomic contact sums may differ between launches)."""
    eager_q, eager_qd, eager_graph = _drop(make_sim, GRAPH_CASES[case], graph=False)
    graph_q, graph_qd, graph_used = _drop(make_sim, GRAPH_CASES[case], graph=None)
    assert not eager_graph and graph_used
    assert eager_q[0, 2] < 0.14  # the box moved
    np.testing.assert_allclose(graph_q, eager_q, atol=1e-4, rtol=0.0)
    np.testing.assert_allclose(graph_qd, eager_qd, atol=1e-3, rtol=0.0)


def test_failed_capture_raises_naming_the_eager_setting(make_sim, monkeypatch):
    """A capture that fails raises a RuntimeError naming the device's eager setting (NewtonCfg.use_cpu_graph=False on
    CPU, use_cuda_graph=False on CUDA) instead of stepping on."""
    from isaaclab_newton.physics import graph

    def broken_capture(fn, device):
        raise ValueError("math domain error")

    monkeypatch.setattr(graph, "capture", broken_capture)
    sim = make_sim(XPBDSolverCfg(), num_substeps=2)
    scenes.add_dropped_box(NewtonManager.create_builder(), height=0.15)
    flag = "use_cuda_graph" if ON_CUDA else "use_cpu_graph"
    with pytest.raises(RuntimeError, match=f"NewtonCfg.{flag}=False"):
        sim.reset()
        sim.step(render=False)
