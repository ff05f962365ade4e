"""num_substeps and dt are checked at construction and again when the solver is built, naming the field."""

from __future__ import annotations

import pytest
from conftest import TEST_DEVICE

from isaaclab_newton.physics import NewtonCfg, NewtonManager, XPBDSolverCfg

from . import scenes


@pytest.mark.parametrize("value", [0, -1, 2.5, True])
def test_num_substeps_invalid_at_construction_raises(value):
    """NewtonCfg(num_substeps=0 / -1 / 2.5 / True) raises ValueError naming NewtonCfg.num_substeps."""
    with pytest.raises(ValueError, match="NewtonCfg.num_substeps must be an integer >= 1"):
        NewtonCfg(solver_cfg=XPBDSolverCfg(), num_substeps=value)


def test_num_substeps_zero_set_before_context_raises():
    """num_substeps set to 0 after NewtonCfg construction is rejected when the SimulationContext starts."""
    from isaaclab.sim import SimulationCfg, SimulationContext

    cfg = NewtonCfg(solver_cfg=XPBDSolverCfg())
    cfg.num_substeps = 0
    SimulationContext.clear_instance()
    try:
        with pytest.raises(ValueError, match="NewtonCfg.num_substeps"):
            SimulationContext(SimulationCfg(dt=1 / 240, device=TEST_DEVICE, physics=cfg))
    finally:
        SimulationContext.clear_instance()


def test_num_substeps_zero_set_before_reset_raises(make_sim):
    """num_substeps set to 0 on the live cfg before sim.reset() fails there with ValueError, not ZeroDivisionError."""
    sim = make_sim(XPBDSolverCfg())
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.cfg.physics.num_substeps = 0
    with pytest.raises(ValueError, match="NewtonCfg.num_substeps"):
        sim.reset()


def test_num_substeps_changed_before_reset_is_used(make_sim):
    """A valid num_substeps set on the live cfg before sim.reset() sets the substep size dt / n."""
    sim = make_sim(XPBDSolverCfg(), dt=0.01)
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.cfg.physics.num_substeps = 4
    sim.reset()
    assert NewtonManager.get_num_substeps() == 4
    assert NewtonManager.get_solver_dt() == pytest.approx(0.0025)


@pytest.mark.parametrize("dt", [0.0, -0.01, float("nan")])
def test_invalid_dt_raises(make_sim, dt):
    """SimulationCfg.dt of 0, -0.01 or NaN raises ValueError naming SimulationCfg.dt."""
    from isaaclab.sim import SimulationCfg, SimulationContext

    SimulationContext.clear_instance()
    try:
        with pytest.raises(ValueError, match="SimulationCfg.dt must be a finite physics time step > 0"):
            SimulationContext(SimulationCfg(dt=dt, device=TEST_DEVICE, physics=NewtonCfg(solver_cfg=XPBDSolverCfg())))
    finally:
        SimulationContext.clear_instance()


def test_dt_changed_to_zero_before_reset_raises(make_sim):
    """dt set to 0 on the live SimulationCfg before sim.reset() raises ValueError at solver initialization."""
    sim = make_sim(XPBDSolverCfg())
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.cfg.dt = 0.0
    with pytest.raises(ValueError, match="SimulationCfg.dt"):
        sim.reset()


@pytest.mark.parametrize("value", [0, -3])
def test_nonfinite_log_interval_invalid_raises(value):
    """NewtonCfg(nonfinite_log_interval=0 / -3) raises ValueError naming the field."""
    with pytest.raises(ValueError, match="NewtonCfg.nonfinite_log_interval"):
        NewtonCfg(solver_cfg=XPBDSolverCfg(), nonfinite_log_interval=value)


@pytest.mark.parametrize("value", [0.0, -1.0, float("nan"), "fast"])
def test_nonfinite_speed_limit_invalid_raises(value):
    """NewtonCfg(nonfinite_speed_limit=0 / -1 / nan / 'fast') raises ValueError naming the field."""
    with pytest.raises(ValueError, match="NewtonCfg.nonfinite_speed_limit"):
        NewtonCfg(solver_cfg=XPBDSolverCfg(), nonfinite_speed_limit=value)
