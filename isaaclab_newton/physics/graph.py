"""Graph capture and replay of the substep loop (CUDA graphs, and Warp's CPU graphs)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import warp as wp

logger = logging.getLogger(__name__)

_reported_reasons: set[str] = set()


def report_eager_fallback(reason: str) -> None:
    """Log, once per distinct reason, that the manager runs the substep loop eagerly.

    Args:
        reason: Why no graph is used.
    """
    if reason in _reported_reasons:
        return
    _reported_reasons.add(reason)
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
