"""Solvers that declare _supports_rigid_body_force_input really consume the manager's external wrench."""

from __future__ import annotations

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

CASES = {
    "mjwarp": MJWarpSolverCfg(),
    "xpbd": XPBDSolverCfg(),
    "featherstone": FeatherstoneSolverCfg(angular_damping=0.0),
    "kamino": KaminoSolverCfg(),
    "vbd": VBDSolverCfg(),
    "semi_implicit": SemiImplicitSolverCfg(angular_damping=0.0),
}


@pytest.mark.parametrize("case", list(CASES))
def test_upward_wrench_of_m_g_cancels_gravity(make_sim, case):
    """A box in the air held by an external force equal to m*g stays put; with 2*m*g it rises at +g."""
    dt, steps = 1.0 / 240.0, 60
    sim = make_sim(CASES[case].copy(), dt=dt)
    body = scenes.add_dropped_box(NewtonManager.create_builder(), height=1.0)
    sim.reset()
    mass = float(NewtonManager.get_model().body_mass.numpy()[body])
    wrench = NewtonManager.get_external_wrench()
    values = wrench.numpy()
    values[body, 2] = mass * 9.81
    wrench.assign(values)
    for _ in range(steps):
        sim.step(render=False)
    assert float(NewtonManager.get_state_0().body_q.numpy()[body, 2]) == pytest.approx(1.0, abs=1.0e-4)
    values[body, 2] = 2.0 * mass * 9.81
    wrench.assign(values)
    for _ in range(steps):
        sim.step(render=False)
    t = steps * dt
    assert float(NewtonManager.get_state_0().body_qd.numpy()[body, 2]) == pytest.approx(9.81 * t, rel=0.01)
