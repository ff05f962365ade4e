"""Warp launches recorded once per argument set and replayed, so repeated launches skip argument packing.

``wp.launch`` converts every argument to its C form on every call; for the small kernels an environment step
launches with the same arrays each time, that packing is most of the host cost. :class:`RecordedLaunches`
records a :class:`warp.Launch` the first time a kernel is launched with a given set of arrays and replays it
afterwards; arguments that change on every call (``fresh``) are re-packed alone. On CPU a launch without fresh
arguments is recorded as a one-launch Warp CPU graph instead: replaying a :class:`warp.Launch` still converts each
packed argument at the ctypes call, while a graph replay is one native call.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import is_

import warp as wp

from . import graph as _graph
from .newton_manager import NewtonManager

_SCALARS = (bool, int, float)


class RecordedLaunches:
    """A small cache of recorded launches of one device, found by kernel, launch shape and argument identity.

    A launch replays a recorded entry of the same kernel, shape and ``fresh`` positions whose arguments are the same
    objects, Python scalars compared by type and value instead (arguments marked ``fresh`` are not compared);
    otherwise it is recorded as a new entry, which keeps its arguments alive. Arguments are compared with ``is``
    rather than keyed by ``id()``: ``id()`` raises an audit event, which costs a Python call per argument once any
    audit hook is installed (some libraries install one at import). At most ``capacity`` launches are kept; past
    it, the oldest entry of the shape recorded first is dropped. While the device is capturing a graph (or the
    launch is empty), launches go through ``wp.launch`` (nothing is recorded).

    Args:
        device: The Warp device the kernels run on.
        capacity: Number of recorded launches kept.
        cpu_graphs: On CPU, record launches without fresh arguments as one-launch Warp CPU graphs. ``None`` (the
            default) follows :meth:`NewtonManager.cpu_graphs_enabled` at construction, so that
            ``NewtonCfg.use_cpu_graph=False`` turns them off.
    """

    def __init__(self, device: str, *, capacity: int = 16, cpu_graphs: bool | None = None):
        if cpu_graphs is None:
            cpu_graphs = NewtonManager.cpu_graphs_enabled()
        self._device = wp.get_device(device)
        self._cpu_graphs = cpu_graphs and self._device.is_cpu
        self._capacity = capacity
        self._launches: dict[tuple, list[tuple[wp.Launch | wp.Graph, tuple, tuple[int, ...]]]] = {}
        self._count = 0
        self._scalar_slots: dict[wp.Kernel, frozenset[int]] = {}

    def __len__(self) -> int:
        """Number of recorded launches kept."""
        return self._count

    def launch(self, kernel: wp.Kernel, dim: tuple[int, ...], args: Sequence, *, fresh: Sequence[int] = ()) -> None:
        """Launch ``kernel`` over ``dim`` with ``args`` (inputs then outputs, in the kernel's order).

        Args:
            kernel: The Warp kernel.
            dim: The launch dimensions.
            args: All kernel arguments, inputs followed by outputs.
            fresh: Indices of arguments that change between calls (e.g. a new torch tensor each step): they are
                not compared and are set on the recorded launch at every call (never recorded as a CPU graph).
        """
        if self._device.is_capturing or 0 in dim:
            wp.launch(kernel, dim=dim, inputs=list(args), device=self._device)
            return
        args, fresh = tuple(args), tuple(fresh)
        shape_key = (kernel, tuple(dim))
        entries = self._launches.get(shape_key)
        command = None
        if entries is not None:
            scalars = self._scalar_slots[kernel]
            for recorded, stored, recorded_fresh in entries:
                # an entry's fresh arguments hold the last call's values: only calls re-setting them may replay it
                if recorded_fresh == fresh and _same_arguments(args, stored, fresh, scalars):
                    command = recorded
                    break
        if command is None:
            if fresh or not self._cpu_graphs:
                command = wp.launch(kernel, dim=dim, inputs=list(args), device=self._device, record_cmd=True)
            else:
                command = _graph.capture(
                    lambda: wp.launch(kernel, dim=dim, inputs=list(args), device=self._device), self._device
                )
            self._record(shape_key, command, args, fresh)
        else:
            for index in fresh:
                command.set_param_at_index(index, args[index])
        if isinstance(command, wp.Graph):
            _graph.launch(command)
        else:
            command.launch()

    def clear(self) -> None:
        """Drop every recorded launch (e.g. after the arrays they hold were replaced)."""
        self._launches.clear()
        self._count = 0

    def _record(self, shape_key: tuple, command: wp.Launch | wp.Graph, args: tuple, fresh: tuple[int, ...]) -> None:
        if self._count >= self._capacity:
            oldest_key = next(iter(self._launches))
            oldest = self._launches[oldest_key]
            oldest.pop(0)
            if not oldest:
                del self._launches[oldest_key]
            self._count -= 1
        kernel = shape_key[0]
        if kernel not in self._scalar_slots:
            self._scalar_slots[kernel] = frozenset(
                i for i, arg in enumerate(kernel.adj.args) if not wp.types.is_array(arg.type)
            )
        self._launches.setdefault(shape_key, []).append((command, args, fresh))
        self._count += 1


def _same_arguments(args: tuple, stored: tuple, fresh: Sequence[int], scalars: frozenset[int]) -> bool:
    """Whether ``args`` replay the launch recorded with ``stored``: same objects, scalars of equal type and value."""
    if len(args) != len(stored):
        return False
    if fresh:
        probe = list(args)
        for index in fresh:
            probe[index] = stored[index]
        args = probe
    if all(map(is_, args, stored)):
        return True
    for index, (value, recorded) in enumerate(zip(args, stored, strict=True)):
        if value is recorded:
            continue
        if index not in scalars or type(value) not in _SCALARS or type(value) is not type(recorded):
            return False
        if value != recorded:
            return False
    return True
