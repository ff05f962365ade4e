"""Graph capture and replay of the substep loop (CUDA graphs, and Warp's CPU graphs)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import warp as wp

logger = logging.getLogger(__name__)


def report_eager_fallback(reason: str, reported: set[str]) -> None:
    """Log, once per distinct reason, that the manager runs the substep loop eagerly.

    Args:
        reason: Why no graph is used.
        reported: The reasons already logged (owned by the caller); ``reason`` is added to it.
    """
    if reason in reported:
        return
    reported.add(reason)
    logger.warning("[NewtonManager] running the simulation loop eagerly (no graph): %s", reason)


def graph_unavailable_reason(device: str, *, use_cuda_graph: bool, use_cpu_graph: bool) -> str | None:
    """Return why the loop cannot be captured on ``device``, or ``None`` when it can.

    Args:
        device: Warp device string, e.g. ``"cuda:0"`` or ``"cpu"``.
        use_cuda_graph: Whether CUDA capture is enabled in the configuration.
        use_cpu_graph: Whether CPU capture is enabled in the configuration.
    """
    warp_device = wp.get_device(device)
    if warp_device.is_cuda:
        if not use_cuda_graph:
            return "NewtonCfg.use_cuda_graph is False"
        if not warp_device.is_mempool_enabled:
            return f"the CUDA memory pool is disabled on {device} (required for graph capture)"
        return None
    if not use_cpu_graph:
        return "CPU device (set NewtonCfg.use_cpu_graph=True to replay Warp CPU graphs)"
    return None


def capture(fn: Callable[[], None], device: str) -> wp.Graph:
    """Capture ``fn`` into a graph on ``device``.

    Args:
        fn: Work to capture. It must not allocate, synchronize or branch on device data.
        device: Warp device string.

    Returns:
        The captured graph, to be replayed with :func:`launch`.
    """
    # On CUDA, let Warp load every module before capture (loading inside a capture is not allowed on
    # older drivers); on CPU, kernels compile on first launch inside the capture as usual.
    force_load = None if wp.get_device(device).is_cuda else False
    with wp.ScopedDevice(device), wp.ScopedCapture(device=device, force_module_load=force_load) as cap:
        fn()
    return cap.graph


def launch(graph: wp.Graph) -> None:
    """Replay a captured graph."""
    wp.capture_launch(graph)


class ReplayedClocks:
    """Host times that recorded work stamps (the last read of a finite difference), kept true across replays.

    Work recorded in a graph runs its Python once, at recording, so a host time it stores (``memory[key] = now``)
    would stay at the recording's value while every replay moves the simulation on. Each entry registered here
    keeps its offset to the simulation time after the first replay: after replay ``m`` it reads
    ``recorded + (now - now_after_first_replay)``.
    """

    def __init__(self) -> None:
        self._entries: list[tuple[dict, str, float]] = []
        self._base: float | None = None

    def add(self, memory: dict, key: str) -> None:
        """Register ``memory[key]`` (a host time [s] the recorded work just set)."""
        self._entries.append((memory, key, memory[key]))

    def advance(self, now: float) -> None:
        """Move every registered time on to the replay that just ended at simulation time ``now`` [s]."""
        if self._base is None:
            self._base = now
        for memory, key, recorded in self._entries:
            memory[key] = recorded + (now - self._base)


class TorchWarpGraph:
    """A CUDA graph of work that mixes PyTorch operations and Warp launches, replayed on PyTorch's current stream.

    Both libraries issue onto one capture stream: PyTorch's capture stream, handed to Warp as an external capture,
    so Warp knows a graph is being recorded (its allocations become graph allocations). Tensors allocated during
    the capture live in the graph's private memory pool and are rewritten in place by every replay; random numbers
    drawn with PyTorch's default CUDA generator are fresh on every replay.

    The captured work must read and write only memory that outlives the graph (persistent buffers, model and state
    arrays), must not synchronize with the host and must not branch on device data. Python side effects of
    ``fn`` (flags, counters, attributes rebound to new tensors) happen once, at capture, and not on replay.

    Args:
        fn: The work to capture (run once, on the capture stream, while recording).
        device: CUDA device, e.g. ``"cuda:0"``.
    """

    def __init__(self, fn: Callable[[], None], device: str):
        import torch

        warp_device = wp.get_device(device)
        if not warp_device.is_cuda:
            raise ValueError(f"TorchWarpGraph needs a CUDA device, got {device!r}.")
        torch_stream = torch.cuda.Stream(device=torch.device(device))
        warp_stream = wp.stream_from_torch(torch_stream)
        self._graph = torch.cuda.CUDAGraph()
        torch.cuda.synchronize(device)
        with (
            wp.ScopedDevice(warp_device),
            wp.ScopedStream(warp_stream, sync_enter=False),
            torch.cuda.graph(self._graph, stream=torch_stream, capture_error_mode="thread_local"),
        ):
            wp.capture_begin(stream=warp_stream, external=True, capture_mode=wp.CaptureMode.THREAD_LOCAL)
            try:
                fn()
            finally:
                # keeps Warp's graph allocations alive as long as this object
                self._warp_graph = wp.capture_end(stream=warp_stream)

    def replay(self) -> None:
        """Replay the captured work on PyTorch's current stream."""
        self._graph.replay()
