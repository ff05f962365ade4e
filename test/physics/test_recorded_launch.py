"""RecordedLaunches: replays match wp.launch, fresh arguments are re-set on every call."""

from __future__ import annotations

import numpy as np
import warp as wp
from conftest import TEST_DEVICE, cpu_only

from isaaclab_newton.physics.recorded_launch import RecordedLaunches


@wp.kernel
def _axpy(a: float, x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    out[i] = a * x[i] + y[i]


def _arrays(n: int = 4):
    x = wp.array(np.arange(n, dtype=np.float32), device=TEST_DEVICE)
    y = wp.array(np.full(n, 10.0, dtype=np.float32), device=TEST_DEVICE)
    return x, y, wp.zeros(n, dtype=wp.float32, device=TEST_DEVICE)


def test_replay_reads_current_contents():
    """A replayed launch computes from the arrays' current contents (the arrays are bound, not copied)."""
    launches = RecordedLaunches(TEST_DEVICE)
    x, y, out = _arrays()
    launches.launch(_axpy, (4,), (2.0, x, y, out))
    assert out.numpy().tolist() == [10.0, 12.0, 14.0, 16.0]
    y.fill_(1.0)
    launches.launch(_axpy, (4,), (2.0, x, y, out))
    assert out.numpy().tolist() == [1.0, 3.0, 5.0, 7.0]
    assert len(launches) == 1


def test_fresh_argument_is_set_each_call():
    """An argument marked fresh is re-bound on every replay: a new input array is read, not the first one."""
    launches = RecordedLaunches(TEST_DEVICE)
    x, y, out = _arrays()
    launches.launch(_axpy, (4,), (1.0, x, y, out), fresh=(1,))
    other = wp.array(np.full(4, 5.0, dtype=np.float32), device=TEST_DEVICE)
    launches.launch(_axpy, (4,), (1.0, other, y, out), fresh=(1,))
    assert out.numpy().tolist() == [15.0] * 4
    assert len(launches) == 1


def test_fresh_call_after_a_plain_one_binds_its_argument():
    """A fresh call with the arrays of an earlier plain call (a CPU graph on CPU) still reads its new input."""
    launches = RecordedLaunches(TEST_DEVICE)
    x, y, out = _arrays()
    launches.launch(_axpy, (4,), (1.0, x, y, out))
    other = wp.array(np.full(4, 5.0, dtype=np.float32), device=TEST_DEVICE)
    launches.launch(_axpy, (4,), (1.0, other, y, out), fresh=(1,))
    assert out.numpy().tolist() == [15.0] * 4
    launches.launch(_axpy, (4,), (1.0, x, y, out))
    assert out.numpy().tolist() == [10.0, 11.0, 12.0, 13.0]
    assert len(launches) == 2


def test_plain_call_after_fresh_ones_reads_its_own_argument():
    """A plain call with the array a fresh call was recorded with reads that array, not the last fresh one."""
    launches = RecordedLaunches(TEST_DEVICE)
    x, y, out = _arrays()
    launches.launch(_axpy, (4,), (1.0, x, y, out), fresh=(1,))
    other = wp.array(np.full(4, 5.0, dtype=np.float32), device=TEST_DEVICE)
    launches.launch(_axpy, (4,), (1.0, other, y, out), fresh=(1,))
    launches.launch(_axpy, (4,), (1.0, x, y, out))
    assert out.numpy().tolist() == [10.0, 11.0, 12.0, 13.0]


def test_new_arrays_record_a_new_launch():
    """Different (non-fresh) arrays are a different entry; the oldest entry goes past the capacity."""
    launches = RecordedLaunches(TEST_DEVICE, capacity=2)
    for _ in range(3):
        x, y, out = _arrays()
        launches.launch(_axpy, (4,), (3.0, x, y, out))
        assert out.numpy().tolist() == [10.0, 13.0, 16.0, 19.0]
    assert len(launches) == 2


def test_empty_launch_is_a_no_op():
    """A launch over zero threads runs nothing and records nothing."""
    launches = RecordedLaunches(TEST_DEVICE)
    x, y, out = _arrays(0)
    launches.launch(_axpy, (0,), (1.0, x, y, out))
    assert len(launches) == 0


def test_scalars_are_keyed_by_value():
    """An equal scalar (a new float object) replays the entry; a different scalar records its own launch."""
    launches = RecordedLaunches(TEST_DEVICE)
    x, y, out = _arrays()
    launches.launch(_axpy, (4,), (float("2.0"), x, y, out))
    launches.launch(_axpy, (4,), (float("2.0"), x, y, out))
    assert len(launches) == 1
    launches.launch(_axpy, (4,), (-1.0, x, y, out))
    assert out.numpy().tolist() == [10.0, 9.0, 8.0, 7.0]
    assert len(launches) == 2


@cpu_only("cpu_graphs (NewtonCfg.use_cpu_graph) concerns Warp CPU graphs")
def test_cpu_graphs_off_records_launches_only():
    """With ``cpu_graphs=False`` (``NewtonCfg.use_cpu_graph=False``) a CPU launch is kept as a Launch, not a graph."""
    launches = RecordedLaunches("cpu", cpu_graphs=False)
    x, y, out = _arrays()
    for _ in range(2):
        launches.launch(_axpy, (4,), (2.0, x, y, out))
    assert out.numpy().tolist() == [10.0, 12.0, 14.0, 16.0]
    (entries,) = launches._launches.values()  # private: the kind of recorded command under test
    assert [type(command) for command, _, _ in entries] == [wp.Launch]
