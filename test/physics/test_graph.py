"""Host bookkeeping of env steps recorded into an enclosing graph: simulation time and recorded host clocks."""

from __future__ import annotations

import pytest
from conftest import EAGER

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonManager
from isaaclab_newton.physics.graph import ReplayedClocks

from . import scenes


def test_recording_restores_time_and_replayed_steps_advance_it(make_sim):
    """Steps inside ``recording_env_step()`` leave the clock as it was; ``note_replayed_steps(n)`` adds n*dt."""
    sim = make_sim(MJWarpSolverCfg(), **EAGER)
    scenes.add_dropped_box(NewtonManager.create_builder(), height=0.5)
    sim.reset()
    sim.step(render=False)
    dt = NewtonManager.get_physics_dt()
    start = NewtonManager.get_simulation_time()
    with NewtonManager.recording_env_step() as clocks:
        NewtonManager.step()
        NewtonManager.step()
        assert NewtonManager.get_simulation_time() == pytest.approx(start + 2 * dt)
    assert isinstance(clocks, ReplayedClocks)
    assert NewtonManager.get_simulation_time() == start, "recorded steps advance the clock when their graph is replayed"
    NewtonManager.note_replayed_steps(2)
    assert NewtonManager.get_simulation_time() == pytest.approx(start + 2 * dt)


def test_replayed_clocks_keep_their_offset_to_the_simulation_time():
    """A time stamped during recording reads as recorded after the first replay and moves with every later one."""
    memory = {"time": 1.25}
    clocks = ReplayedClocks()
    clocks.add(memory, "time")
    clocks.advance(1.30)  # the first replay ends 0.05 s after the recorded read
    assert memory["time"] == pytest.approx(1.25)
    clocks.advance(1.35)
    clocks.advance(1.40)
    assert memory["time"] == pytest.approx(1.35)
