"""Every solver manager drops a box onto the ground and swings a pendulum at its analytic period (CPU)."""

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

DT = 1.0 / 240.0
"""Physics step [s]."""

# Penalty-contact solvers rest m*g/ke deep in the ground: with Newton's default ke (2.5e3 N/m per shape) the 8 kg box
# sinks 7.8 mm. A stiffer contact (1e5 N/m) sinks 0.2 mm; explicit integrators need the extra damping and 4 substeps
# to stay stable at that stiffness.
_STIFF_CONTACT = {"contact_ke": 1.0e5, "contact_kd": 2.0e3}

BOX_CASES = {
    "mjwarp": (MJWarpSolverCfg(), {}, {}),
    "mjwarp_newton_contacts": (MJWarpSolverCfg(use_mujoco_contacts=False), {}, {}),
    "xpbd": (XPBDSolverCfg(), {}, {}),
    "featherstone": (FeatherstoneSolverCfg(), {"num_substeps": 4}, _STIFF_CONTACT),
    "kamino": (KaminoSolverCfg(), {}, {}),
    "vbd": (VBDSolverCfg(), {}, {"contact_ke": 1.0e5}),
    "semi_implicit": (SemiImplicitSolverCfg(), {"num_substeps": 4}, _STIFF_CONTACT),
}
"""Solver cfg, NewtonCfg overrides, scene overrides."""

# XPBD's joint projection lengthens the period by 9% at one substep (2 iterations); 4 substeps bring it under 1%.
# Semi-implicit joints are penalty springs (joint_attach_ke/kd) that are explicit in time: a light bob's tiny
# inertia against the angular springs diverges at any practical substep count, so it swings a heavier bob with
# lighter attachment damping; the remaining 1.2% is the spring's static stretch (m*g/ke) lengthening the rod.
PENDULUM_CASES = {
    "mjwarp": (MJWarpSolverCfg(), {}, {}),
    "mjwarp_newton_contacts": (MJWarpSolverCfg(use_mujoco_contacts=False), {}, {}),
    "xpbd": (XPBDSolverCfg(), {"num_substeps": 4}, {}),
    "featherstone": (FeatherstoneSolverCfg(), {}, {}),
    "kamino": (KaminoSolverCfg(), {}, {}),
    "vbd": (VBDSolverCfg(), {}, {}),
    "semi_implicit": (
        SemiImplicitSolverCfg(joint_attach_kd=1.0),
        {"num_substeps": 4},
        {"bob_radius": 0.05, "bob_density": 1.0e4},
    ),
}


@pytest.mark.parametrize("case", list(BOX_CASES))
def test_box_comes_to_rest_at_half_height(make_sim, case):
    """A 0.1 m half-extent box dropped from 0.3 m rests with its center 0.1 m above the ground (within 2 mm)."""
    solver_cfg, newton_kwargs, scene_kwargs = BOX_CASES[case]
    sim = make_sim(solver_cfg.copy(), dt=DT, **newton_kwargs)
    body = scenes.add_dropped_box(NewtonManager.create_builder(), **scene_kwargs)
    sim.reset()
    for _ in range(360):
        sim.step(render=False)
    state = NewtonManager.get_state_0()
    height = float(state.body_q.numpy()[body, 2])
    speed = float(np.abs(state.body_qd.numpy()[body]).max())
    assert abs(height - scenes.BOX_HALF_EXTENT) < 2.0e-3, f"{case}: box center at {height:.5f} m"
    assert speed < 1.0e-2, f"{case}: box still moving at {speed:.4f} (m/s or rad/s)"


@pytest.mark.parametrize("case", list(PENDULUM_CASES))
def test_pendulum_keeps_small_angle_period(make_sim, case):
    """A pendulum released at 10 degrees swings with period 2*pi*sqrt(I/(m*g*d)) within 2%."""
    solver_cfg, newton_kwargs, scene_kwargs = PENDULUM_CASES[case]
    sim = make_sim(solver_cfg.copy(), dt=DT, **newton_kwargs)
    body = scenes.add_pendulum(NewtonManager.create_builder(), **scene_kwargs)
    sim.reset()
    times, angles = [0.0], [scenes.pendulum_angle(NewtonManager.get_state_0().body_q.numpy(), body)]
    for step in range(1, 321):
        sim.step(render=False)
        times.append(step * DT)
        angles.append(scenes.pendulum_angle(NewtonManager.get_state_0().body_q.numpy(), body))
    assert abs(angles[0] - scenes.RELEASE_ANGLE) < 1.0e-4
    period = scenes.measured_period(np.array(times), np.array(angles))
    expected = scenes.analytic_period(NewtonManager.get_model(), body)
    assert abs(period - expected) / expected < 0.02, f"{case}: period {period:.4f} s, analytic {expected:.4f} s"
